// The texts of problems besides their titles — each `detail`, and the `detail` of each invalid input — in the
// four languages of the service: the shared ones below, each resource's in its own messages.ts. Code creates a
// Message (an entry and its parameters); problemBody renders it in the response's language. Code words stay as
// they are in every language: headers (`If-Match`, `Idempotency-Key`), ETags, scopes, field names, media types,
// parameter values.
//
// Every entry must have all four languages and the same `{placeholders}` in each (defineMessages, in
// message-catalogue.ts): both are compile-time errors.
import { defineMessages } from './message-catalogue.ts';

const MESSAGES = {
  // Authentication and admission (src/http/key-checks.ts, src/http/admission.ts)
  'auth.bearer_missing': {
    en: 'Send the API key as `Authorization: Bearer <key>`.',
    nl: 'Stuur de API-sleutel mee als `Authorization: Bearer <key>`.',
    de: 'Senden Sie den API-Schlüssel als `Authorization: Bearer <key>`.',
    fr: 'Envoyez la clé d’API sous la forme `Authorization: Bearer <key>`.',
  },
  'auth.key_invalid': {
    en: 'The API key is not valid.',
    nl: 'De API-sleutel is niet geldig.',
    de: 'Der API-Schlüssel ist ungültig.',
    fr: 'La clé d’API n’est pas valide.',
  },
  'auth.key_revoked': {
    en: 'This API key has been revoked.',
    nl: 'Deze API-sleutel is ingetrokken.',
    de: 'Dieser API-Schlüssel wurde widerrufen.',
    fr: 'Cette clé d’API a été révoquée.',
  },
  'auth.key_expired': {
    en: 'This API key expired at {time}.',
    nl: 'Deze API-sleutel is verlopen op {time}.',
    de: 'Dieser API-Schlüssel ist am {time} abgelaufen.',
    fr: 'Cette clé d’API a expiré le {time}.',
  },
  'auth.ip_not_allowed': {
    en: 'Requests from {address} are not allowed for this key.',
    nl: 'Verzoeken vanaf {address} zijn met deze sleutel niet toegestaan.',
    de: 'Anfragen von {address} sind für diesen Schlüssel nicht zugelassen.',
    fr: 'Les requêtes depuis {address} ne sont pas autorisées pour cette clé.',
  },
  'auth.account_suspended': {
    en: 'The company account is suspended.',
    nl: 'Het account van het bedrijf is opgeschort.',
    de: 'Das Konto des Unternehmens ist gesperrt.',
    fr: 'Le compte de l’entreprise est suspendu.',
  },
  'auth.subscription_inactive': {
    en: 'The company has no active subscription.',
    nl: 'Het bedrijf heeft geen actief abonnement.',
    de: 'Das Unternehmen hat kein aktives Abonnement.',
    fr: 'L’entreprise n’a pas d’abonnement actif.',
  },
  'auth.scope_needed': {
    en: 'This operation needs the scope {scope}.',
    nl: 'Deze operatie vereist de scope {scope}.',
    de: 'Diese Operation erfordert den Scope {scope}.',
    fr: 'Cette opération nécessite la portée {scope}.',
  },
  'auth.feature_needed': {
    en: 'This operation needs the feature {features}, which the company does not have.',
    nl: 'Deze operatie vereist de functie {features}, die het bedrijf niet heeft.',
    de: 'Diese Operation erfordert die Funktion {features}, die das Unternehmen nicht hat.',
    fr: 'Cette opération nécessite la fonctionnalité {features}, dont l’entreprise ne dispose pas.',
  },
  'auth.too_many_failures': {
    en: 'Too many failed authentications from this address.',
    nl: 'Te veel mislukte authenticaties vanaf dit adres.',
    de: 'Zu viele fehlgeschlagene Authentifizierungen von dieser Adresse.',
    fr: 'Trop d’authentifications échouées depuis cette adresse.',
  },
  'auth.key_rate_limited': {
    en: 'The rate limit of this API key was reached.',
    nl: 'De rate limit van deze API-sleutel is bereikt.',
    de: 'Das Rate-Limit dieses API-Schlüssels wurde erreicht.',
    fr: 'La limite de débit de cette clé d’API est atteinte.',
  },

  // The request itself (src/http/admission.ts, app.ts, docs.ts, error-pages.ts)
  'request.internal_error': {
    en: 'Something went wrong on our side; the request id tells us what.',
    nl: 'Er is bij ons iets misgegaan; aan de hand van het verzoek-id zoeken we uit wat.',
    de: 'Bei uns ist etwas schiefgegangen; anhand der Anfrage-ID finden wir heraus, was.',
    fr: 'Une erreur s’est produite de notre côté ; l’identifiant de la requête nous permet de savoir laquelle.',
  },
  'request.database_unavailable': {
    en: 'The service cannot reach its database right now. Try again after Retry-After seconds.',
    nl: 'De dienst kan zijn database op dit moment niet bereiken. Probeer het opnieuw na Retry-After seconden.',
    de: 'Der Dienst erreicht seine Datenbank im Moment nicht. Versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Le service ne parvient pas à joindre sa base de données pour le moment. Réessayez après Retry-After secondes.',
  },
  'request.outcome_unknown': {
    en: 'The connection to the database was lost while the change was being committed; it may or may not have been made. Repeat the request only with the same Idempotency-Key or If-Match.',
    nl: 'De verbinding met de database ging verloren terwijl de wijziging werd vastgelegd; ze is misschien wel, misschien niet doorgevoerd. Herhaal het verzoek alleen met dezelfde Idempotency-Key of If-Match.',
    de: 'Die Verbindung zur Datenbank ging verloren, während die Änderung festgeschrieben wurde; sie wurde vielleicht ausgeführt, vielleicht nicht. Wiederholen Sie die Anfrage nur mit demselben Idempotency-Key oder If-Match.',
    fr: 'La connexion à la base de données a été perdue pendant l’enregistrement de la modification ; elle a peut-être été effectuée, peut-être pas. Ne répétez la requête qu’avec la même Idempotency-Key ou le même If-Match.',
  },
  'request.database_busy': {
    en: 'The database could not finish this request in time (it is busy, or the request met others in a conflict); nothing was changed. Try again after Retry-After seconds.',
    nl: 'De database kon dit verzoek niet op tijd afronden (hij is druk bezet, of het verzoek botste met andere); er is niets gewijzigd. Probeer het opnieuw na Retry-After seconden.',
    de: 'Die Datenbank konnte diese Anfrage nicht rechtzeitig abschließen (sie ist ausgelastet, oder die Anfrage geriet mit anderen in Konflikt); es wurde nichts geändert. Versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'La base de données n’a pas pu terminer cette requête à temps (elle est surchargée, ou la requête est entrée en conflit avec d’autres) ; rien n’a été modifié. Réessayez après Retry-After secondes.',
  },
  'request.no_operation': {
    en: 'There is no operation at {path}.',
    nl: 'Er is geen operatie op {path}.',
    de: 'Unter {path} gibt es keine Operation.',
    fr: 'Il n’y a aucune opération à l’adresse {path}.',
  },
  'request.nothing_here': {
    en: 'There is nothing at this address.',
    nl: 'Op dit adres is niets te vinden.',
    de: 'Unter dieser Adresse gibt es nichts.',
    fr: 'Il n’y a rien à cette adresse.',
  },
  'request.use_methods': {
    en: 'Use {methods} here.',
    nl: 'Gebruik hier {methods}.',
    de: 'Verwenden Sie hier {methods}.',
    fr: 'Utilisez ici {methods}.',
  },
  'request.not_implemented': {
    en: '{operation} is not available in this version of the service yet.',
    nl: '{operation} is in deze versie van de service nog niet beschikbaar.',
    de: '{operation} ist in dieser Version des Dienstes noch nicht verfügbar.',
    fr: '{operation} n’est pas encore disponible dans cette version du service.',
  },
  'request.unknown_error_code': {
    en: 'There is no error code with this name.',
    nl: 'Er is geen foutcode met deze naam.',
    de: 'Es gibt keinen Fehlercode mit diesem Namen.',
    fr: 'Il n’existe aucun code d’erreur portant ce nom.',
  },
  'request.lang_invalid': {
    en: 'lang must be one of nl, en, de, fr.',
    nl: 'lang moet een van nl, en, de, fr zijn.',
    de: 'lang muss einer der Werte nl, en, de, fr sein.',
    fr: 'lang doit valoir nl, en, de ou fr.',
  },
  'request.docs_languages': {
    en: 'The docs exist in nl, en, de and fr.',
    nl: 'De documentatie bestaat in nl, en, de en fr.',
    de: 'Die Dokumentation gibt es in nl, en, de und fr.',
    fr: 'La documentation existe en nl, en, de et fr.',
  },
  'request.one_invalid_input': {
    en: 'The request has 1 invalid input.',
    nl: 'Het verzoek bevat 1 ongeldige invoer.',
    de: 'Die Anfrage enthält 1 ungültige Eingabe.',
    fr: 'La requête contient 1 entrée invalide.',
  },
  'request.invalid_inputs': {
    en: 'The request has {count} invalid inputs.',
    nl: 'Het verzoek bevat {count} ongeldige invoerwaarden.',
    de: 'Die Anfrage enthält {count} ungültige Eingaben.',
    fr: 'La requête contient {count} entrées invalides.',
  },
  'request.unknown_field': {
    en: 'The request body contains a field that this operation does not accept.',
    nl: 'De body van het verzoek bevat een veld dat deze operatie niet accepteert.',
    de: 'Der Anfrage-Body enthält ein Feld, das diese Operation nicht akzeptiert.',
    fr: 'Le corps de la requête contient un champ que cette opération n’accepte pas.',
  },

  // The body before validation (src/http/body-rules.ts)
  'body.too_large': {
    en: 'The request body is larger than {max|one:# byte|other:# bytes}.',
    nl: 'De body van het verzoek is groter dan {max|one:# byte|other:# bytes}.',
    de: 'Der Anfrage-Body ist größer als {max|one:# Byte|other:# Bytes}.',
    fr: 'Le corps de la requête dépasse {max|one:# octet|other:# octets}.',
  },
  'body.send_json': {
    en: 'Send the body as application/json.',
    nl: 'Stuur de body als application/json.',
    de: 'Senden Sie den Body als application/json.',
    fr: 'Envoyez le corps au format application/json.',
  },
  'body.send_media_type': {
    en: 'Send the body as {types}.',
    nl: 'Stuur de body als {types}.',
    de: 'Senden Sie den Body als {types}.',
    fr: 'Envoyez le corps au format {types}.',
  },
  'body.send_utf8': {
    en: 'Send JSON encoded as UTF-8: leave out the charset of the Content-Type or send charset=utf-8.',
    nl: 'Stuur JSON gecodeerd als UTF-8: laat de charset van het Content-Type weg of stuur charset=utf-8.',
    de: 'Senden Sie JSON in UTF-8 kodiert: Lassen Sie die charset des Content-Type weg oder senden Sie charset=utf-8.',
    fr: 'Envoyez du JSON encodé en UTF-8 : omettez le charset du Content-Type ou envoyez charset=utf-8.',
  },
  'body.invalid_utf8': {
    en: 'The body is not valid UTF-8: JSON must be sent encoded as UTF-8.',
    nl: 'De body is geen geldige UTF-8: JSON moet gecodeerd als UTF-8 worden verstuurd.',
    de: 'Der Body ist kein gültiges UTF-8: JSON muss in UTF-8 kodiert gesendet werden.',
    fr: 'Le corps n’est pas de l’UTF-8 valide : le JSON doit être envoyé encodé en UTF-8.',
  },
  'body.invalid_json': {
    en: 'The body is not valid JSON.',
    nl: 'De body is geen geldige JSON.',
    de: 'Der Body ist kein gültiges JSON.',
    fr: 'Le corps n’est pas du JSON valide.',
  },
  'body.none_expected': {
    en: 'This operation takes no request body: send none, or an empty JSON object.',
    nl: 'Deze operatie neemt geen body: stuur er geen, of een leeg JSON-object.',
    de: 'Diese Operation nimmt keinen Anfrage-Body: Senden Sie keinen oder ein leeres JSON-Objekt.',
    fr: 'Cette opération ne prend pas de corps de requête : n’en envoyez pas, ou un objet JSON vide.',
  },
  'body.lone_surrogate': {
    en: 'Text may not contain an unpaired surrogate (an escape such as \\ud800 without its pair): it is not a character.',
    nl: 'Tekst mag geen losse surrogaat bevatten (een escape zoals \\ud800 zonder zijn paar): dat is geen teken.',
    de: 'Text darf kein einzelnes Surrogat enthalten (ein Escape wie \\ud800 ohne sein Gegenstück): Es ist kein Zeichen.',
    fr: 'Le texte ne doit pas contenir de surrogate isolé (un échappement comme \\ud800 sans sa paire) : ce n’est pas un caractère.',
  },
  'body.nul_character': {
    en: 'Text may not contain the character U+0000 (NUL).',
    nl: 'Tekst mag het teken U+0000 (NUL) niet bevatten.',
    de: 'Text darf das Zeichen U+0000 (NUL) nicht enthalten.',
    fr: 'Le texte ne doit pas contenir le caractère U+0000 (NUL).',
  },

  'request.too_many_public_requests': {
    en: 'Too many requests from this address; try again later.',
    nl: 'Te veel verzoeken vanaf dit adres; probeer het later opnieuw.',
    de: 'Zu viele Anfragen von dieser Adresse; versuchen Sie es später erneut.',
    fr: 'Trop de requêtes depuis cette adresse ; réessayez plus tard.',
  },
  'request.too_many_downloads': {
    en: 'Too many downloads from this address; try again later.',
    nl: 'Te veel downloads vanaf dit adres; probeer het later opnieuw.',
    de: 'Zu viele Downloads von dieser Adresse; versuchen Sie es später erneut.',
    fr: 'Trop de téléchargements depuis cette adresse ; réessayez plus tard.',
  },
  'request.too_many_widget_requests': {
    en: 'Too many chat requests from this address; try again later.',
    nl: 'Te veel chatverzoeken vanaf dit adres; probeer het later opnieuw.',
    de: 'Zu viele Chat-Anfragen von dieser Adresse; versuchen Sie es später erneut.',
    fr: 'Trop de requêtes de chat depuis cette adresse ; réessayez plus tard.',
  },
  'request.too_many_widget_sessions': {
    en: 'Too many new chat conversations from this address; try again later.',
    nl: 'Te veel nieuwe chatgesprekken vanaf dit adres; probeer het later opnieuw.',
    de: 'Zu viele neue Chat-Unterhaltungen von dieser Adresse; versuchen Sie es später erneut.',
    fr: 'Trop de nouvelles conversations de chat depuis cette adresse ; réessayez plus tard.',
  },
  // File uploads, multipart/form-data (src/http/upload.ts)
  'upload.send_multipart': {
    en: 'Send the file as `multipart/form-data`.',
    nl: 'Stuur het bestand als `multipart/form-data`.',
    de: 'Senden Sie die Datei als `multipart/form-data`.',
    fr: 'Envoyez le fichier en `multipart/form-data`.',
  },
  'upload.file_missing': {
    en: 'Send the file as the multipart part `file` (with a file name).',
    nl: 'Stuur het bestand mee als multipart-deel `file` (met een bestandsnaam).',
    de: 'Senden Sie die Datei als Multipart-Teil `file` (mit einem Dateinamen).',
    fr: 'Envoyez le fichier dans la partie multipart `file` (avec un nom de fichier).',
  },
  'upload.file_twice': {
    en: 'Send one file per request.',
    nl: 'Stuur één bestand per verzoek.',
    de: 'Senden Sie eine Datei pro Anfrage.',
    fr: 'Envoyez un seul fichier par requête.',
  },
  'upload.file_empty': {
    en: 'The file is empty.',
    nl: 'Het bestand is leeg.',
    de: 'Die Datei ist leer.',
    fr: 'Le fichier est vide.',
  },
  'upload.file_too_large': {
    en: 'The file is larger than {max|one:# byte|other:# bytes}.',
    nl: 'Het bestand is groter dan {max|one:# byte|other:# bytes}.',
    de: 'Die Datei ist größer als {max|one:# Byte|other:# Bytes}.',
    fr: 'Le fichier dépasse {max|one:# octet|other:# octets}.',
  },
  'upload.type_not_allowed': {
    en: 'The file’s content is of type {found}, which is not accepted here; accepted are {allowed}.',
    nl: 'De inhoud van het bestand is van het type {found}, dat hier niet wordt geaccepteerd; toegestaan zijn {allowed}.',
    de: 'Der Inhalt der Datei hat den Typ {found}, der hier nicht angenommen wird; zulässig sind {allowed}.',
    fr: 'Le contenu du fichier est de type {found}, qui n’est pas accepté ici ; sont acceptés {allowed}.',
  },
  'upload.type_unknown': {
    en: 'The file’s type could not be recognized from its content; accepted are {allowed}.',
    nl: 'Het type van het bestand is niet aan de inhoud te herkennen; toegestaan zijn {allowed}.',
    de: 'Der Typ der Datei ist an ihrem Inhalt nicht zu erkennen; zulässig sind {allowed}.',
    fr: 'Le type du fichier n’a pas pu être reconnu d’après son contenu ; sont acceptés {allowed}.',
  },
  'upload.boolean': {
    en: 'Send `true` or `false`.',
    nl: 'Stuur `true` of `false`.',
    de: 'Senden Sie `true` oder `false`.',
    fr: 'Envoyez `true` ou `false`.',
  },
  'upload.too_long': {
    en: 'At most {max|one:# character|other:# characters}.',
    nl: 'Hooguit {max|one:# teken|other:# tekens}.',
    de: 'Höchstens {max|one:# Zeichen|other:# Zeichen}.',
    fr: 'Au plus {max|one:# caractère|other:# caractères}.',
  },
  'upload.malformed': {
    en: 'The multipart/form-data body could not be read: {reason}.',
    nl: 'De multipart/form-data-body kon niet worden gelezen: {reason}.',
    de: 'Der multipart/form-data-Body konnte nicht gelesen werden: {reason}.',
    fr: 'Le corps multipart/form-data n’a pas pu être lu : {reason}.',
  },
  // One invalid input as zod reports it (src/http/validation.ts); also used by handlers
  'field.required': {
    en: 'This field is required.',
    nl: 'Dit veld is verplicht.',
    de: 'Dieses Feld ist erforderlich.',
    fr: 'Ce champ est obligatoire.',
  },
  'field.invalid_type': {
    en: 'Has the wrong type of value.',
    nl: 'Heeft het verkeerde soort waarde.',
    de: 'Hat die falsche Art von Wert.',
    fr: 'N’a pas le bon type de valeur.',
  },
  'field.type_string': {
    en: 'Must be text (a JSON string).',
    nl: 'Moet tekst zijn (een JSON-string).',
    de: 'Muss Text sein (ein JSON-String).',
    fr: 'Doit être du texte (une chaîne JSON).',
  },
  'field.type_number': {
    en: 'Must be a number.',
    nl: 'Moet een getal zijn.',
    de: 'Muss eine Zahl sein.',
    fr: 'Doit être un nombre.',
  },
  'field.type_integer': {
    en: 'Must be a whole number.',
    nl: 'Moet een geheel getal zijn.',
    de: 'Muss eine ganze Zahl sein.',
    fr: 'Doit être un nombre entier.',
  },
  'field.type_boolean': {
    en: 'Must be true or false.',
    nl: 'Moet true of false zijn.',
    de: 'Muss true oder false sein.',
    fr: 'Doit valoir true ou false.',
  },
  'field.type_object': {
    en: 'Must be an object with named fields (a JSON object).',
    nl: 'Moet een object met benoemde velden zijn (een JSON-object).',
    de: 'Muss ein Objekt mit benannten Feldern sein (ein JSON-Objekt).',
    fr: 'Doit être un objet à champs nommés (un objet JSON).',
  },
  'field.type_array': {
    en: 'Must be a list (a JSON array).',
    nl: 'Moet een lijst zijn (een JSON-array).',
    de: 'Muss eine Liste sein (ein JSON-Array).',
    fr: 'Doit être une liste (un tableau JSON).',
  },
  // Each format and type in words: a type name such as `email` or `uuid` is no word of a sentence.
  'field.invalid_format': {
    en: 'Is not in the expected format.',
    nl: 'Heeft niet de verwachte vorm.',
    de: 'Hat nicht das erwartete Format.',
    fr: 'N’a pas la forme attendue.',
  },
  'field.format_email': {
    en: 'Must be a valid email address.',
    nl: 'Moet een geldig e-mailadres zijn.',
    de: 'Muss eine gültige E-Mail-Adresse sein.',
    fr: 'Doit être une adresse e-mail valide.',
  },
  'field.format_uuid': {
    en: 'Must be an id of this API (a UUID such as 0195a1b0-2c3d-7e4f-8a5b-6c7d8e9f0a1b).',
    nl: 'Moet een id van deze API zijn (een UUID zoals 0195a1b0-2c3d-7e4f-8a5b-6c7d8e9f0a1b).',
    de: 'Muss eine ID dieser API sein (eine UUID wie 0195a1b0-2c3d-7e4f-8a5b-6c7d8e9f0a1b).',
    fr: 'Doit être un identifiant de cette API (un UUID comme 0195a1b0-2c3d-7e4f-8a5b-6c7d8e9f0a1b).',
  },
  'field.format_url': {
    en: 'Must be a full web address, such as https://example.com/path.',
    nl: 'Moet een volledig webadres zijn, zoals https://example.com/path.',
    de: 'Muss eine vollständige Webadresse sein, etwa https://example.com/path.',
    fr: 'Doit être une adresse web complète, par exemple https://example.com/path.',
  },
  'field.format_date': {
    en: 'Must be a calendar date written as year-month-day, such as 2026-03-14.',
    nl: 'Moet een datum zijn, geschreven als jaar-maand-dag, zoals 2026-03-14.',
    de: 'Muss ein Datum sein, geschrieben als Jahr-Monat-Tag, etwa 2026-03-14.',
    fr: 'Doit être une date écrite année-mois-jour, par exemple 2026-03-14.',
  },
  'field.calendar_range': {
    en: 'Must lie in the years 1 to 9999 (a date and time in UTC: from the first day of year 1 to the last of 9999).',
    nl: 'Moet in de jaren 1 tot en met 9999 liggen (een datum en tijd in UTC: van de eerste dag van jaar 1 tot de laatste van 9999).',
    de: 'Muss in den Jahren 1 bis 9999 liegen (Datum und Uhrzeit in UTC: vom ersten Tag des Jahres 1 bis zum letzten des Jahres 9999).',
    fr: 'Doit se situer entre les années 1 et 9999 (une date et heure en UTC : du premier jour de l’an 1 au dernier de l’an 9999).',
  },
  'field.format_datetime': {
    en: 'Must be a date and time with its time zone, such as 2026-03-14T09:30:00Z or 2026-03-14T10:30:00+01:00.',
    nl: 'Moet een datum en tijd met tijdzone zijn, zoals 2026-03-14T09:30:00Z of 2026-03-14T10:30:00+01:00.',
    de: 'Muss Datum und Uhrzeit mit Zeitzone sein, etwa 2026-03-14T09:30:00Z oder 2026-03-14T10:30:00+01:00.',
    fr: 'Doit être une date et une heure avec fuseau horaire, par exemple 2026-03-14T09:30:00Z ou 2026-03-14T10:30:00+01:00.',
  },
  'field.pattern': {
    en: 'Must match the pattern {pattern}.',
    nl: 'Moet overeenkomen met het patroon {pattern}.',
    de: 'Muss dem Muster {pattern} entsprechen.',
    fr: 'Doit correspondre au motif {pattern}.',
  },
  'field.spaces_or_controls': {
    en: 'May not contain white space or control characters (a space, a tab, a line break): they are refused, not removed.',
    nl: 'Mag geen witruimte of stuurtekens bevatten (een spatie, een tab, een regeleinde): die worden geweigerd, niet verwijderd.',
    de: 'Darf keinen Leerraum und keine Steuerzeichen enthalten (ein Leerzeichen, einen Tabulator, einen Zeilenumbruch): Sie werden abgelehnt, nicht entfernt.',
    fr: 'Ne doit contenir ni espace ni caractère de contrôle (une espace, une tabulation, un saut de ligne) : ils sont refusés, pas supprimés.',
  },
  'field.invalid_enum': {
    en: 'Must be one of: {values}.',
    nl: 'Moet een van deze waarden zijn: {values}.',
    de: 'Muss einer dieser Werte sein: {values}.',
    fr: 'Doit être l’une de ces valeurs : {values}.',
  },
  'field.too_long': {
    en: 'Must be at most {max|one:# character|other:# characters} long.',
    nl: 'Mag hoogstens {max|one:# teken|other:# tekens} lang zijn.',
    de: 'Darf höchstens {max|one:# Zeichen|other:# Zeichen} lang sein.',
    fr: 'Ne doit pas dépasser {max|one:# caractère|other:# caractères}.',
  },
  'field.too_short': {
    en: 'Must be at least {min|one:# character|other:# characters} long.',
    nl: 'Moet minstens {min|one:# teken|other:# tekens} lang zijn.',
    de: 'Muss mindestens {min|one:# Zeichen|other:# Zeichen} lang sein.',
    fr: 'Doit contenir au moins {min|one:# caractère|other:# caractères}.',
  },
  'field.too_big': {
    en: 'Must be at most {max}.',
    nl: 'Mag hoogstens {max} zijn.',
    de: 'Darf höchstens {max} sein.',
    fr: 'Doit être au plus {max}.',
  },
  'field.too_small': {
    en: 'Must be at least {min}.',
    nl: 'Moet minstens {min} zijn.',
    de: 'Muss mindestens {min} sein.',
    fr: 'Doit être au moins {min}.',
  },
  // A list's length, said with what it holds (src/http/validation.ts, arrayNoun).
  'field.too_few_items': {
    en: 'Add at least {min|one:# item|other:# items}.',
    nl: 'Voeg minstens {min|one:# item|other:# items} toe.',
    de: 'Fügen Sie mindestens {min|one:# Eintrag|other:# Einträge} hinzu.',
    fr: 'Ajoutez au moins {min|one:# élément|other:# éléments}.',
  },
  'field.too_many_items': {
    en: 'At most {max|one:# item|other:# items}.',
    nl: 'Hooguit {max|one:# item|other:# items}.',
    de: 'Höchstens {max|one:# Eintrag|other:# Einträge}.',
    fr: 'Au plus {max|one:# élément|other:# éléments}.',
  },
  'field.too_few_addresses': {
    en: 'Add at least {min|one:# address|other:# addresses}.',
    nl: 'Voeg minstens {min|one:# adres|other:# adressen} toe.',
    de: 'Fügen Sie mindestens {min|one:# Adresse|other:# Adressen} hinzu.',
    fr: 'Ajoutez au moins {min|one:# adresse|other:# adresses}.',
  },
  'field.too_many_addresses': {
    en: 'At most {max|one:# address|other:# addresses}.',
    nl: 'Hooguit {max|one:# adres|other:# adressen}.',
    de: 'Höchstens {max|one:# Adresse|other:# Adressen}.',
    fr: 'Au plus {max|one:# adresse|other:# adresses}.',
  },
  'field.too_few_events': {
    en: 'Add at least {min|one:# event|other:# events}.',
    nl: 'Voeg minstens {min|one:# event|other:# events} toe.',
    de: 'Fügen Sie mindestens {min|one:# Ereignis|other:# Ereignisse} hinzu.',
    fr: 'Ajoutez au moins {min|one:# événement|other:# événements}.',
  },
  'field.too_many_events': {
    en: 'At most {max|one:# event|other:# events}.',
    nl: 'Hooguit {max|one:# event|other:# events}.',
    de: 'Höchstens {max|one:# Ereignis|other:# Ereignisse}.',
    fr: 'Au plus {max|one:# événement|other:# événements}.',
  },
  'field.too_few_links': {
    en: 'Add at least {min|one:# link|other:# links}.',
    nl: 'Voeg minstens {min|one:# koppeling|other:# koppelingen} toe.',
    de: 'Fügen Sie mindestens {min|one:# Verknüpfung|other:# Verknüpfungen} hinzu.',
    fr: 'Ajoutez au moins {min|one:# lien|other:# liens}.',
  },
  'field.too_many_links': {
    en: 'At most {max|one:# link|other:# links}.',
    nl: 'Hooguit {max|one:# koppeling|other:# koppelingen}.',
    de: 'Höchstens {max|one:# Verknüpfung|other:# Verknüpfungen}.',
    fr: 'Au plus {max|one:# lien|other:# liens}.',
  },
  'field.too_few_points': {
    en: 'Add at least {min|one:# checklist item|other:# checklist items}.',
    nl: 'Voeg minstens {min|one:# checklistpunt|other:# checklistpunten} toe.',
    de: 'Fügen Sie mindestens {min|one:# Checklistenpunkt|other:# Checklistenpunkte} hinzu.',
    fr: 'Ajoutez au moins {min|one:# point de contrôle|other:# points de contrôle}.',
  },
  'field.too_many_points': {
    en: 'At most {max|one:# checklist item|other:# checklist items}.',
    nl: 'Hooguit {max|one:# checklistpunt|other:# checklistpunten}.',
    de: 'Höchstens {max|one:# Checklistenpunkt|other:# Checklistenpunkte}.',
    fr: 'Au plus {max|one:# point de contrôle|other:# points de contrôle}.',
  },
  'field.too_few_values': {
    en: 'Add at least {min|one:# value|other:# values}.',
    nl: 'Voeg minstens {min|one:# waarde|other:# waarden} toe.',
    de: 'Fügen Sie mindestens {min|one:# Wert|other:# Werte} hinzu.',
    fr: 'Ajoutez au moins {min|one:# valeur|other:# valeurs}.',
  },
  'field.too_many_values': {
    en: 'At most {max|one:# value|other:# values}.',
    nl: 'Hooguit {max|one:# waarde|other:# waarden}.',
    de: 'Höchstens {max|one:# Wert|other:# Werte}.',
    fr: 'Au plus {max|one:# valeur|other:# valeurs}.',
  },
  // A map's keys (metadata, src/http/metadata.ts): what a key may be, and how many there may be.
  'field.key_characters': {
    en: 'A key is made of letters, digits, `_`, `-` and `.`.',
    nl: 'Een sleutel bestaat uit letters, cijfers, `_`, `-` en `.`.',
    de: 'Ein Schlüssel besteht aus Buchstaben, Ziffern, `_`, `-` und `.`.',
    fr: 'Une clé se compose de lettres, de chiffres, de `_`, `-` et `.`.',
  },
  'field.too_many_keys': {
    en: 'At most {max|one:# key|other:# keys}.',
    nl: 'Hooguit {max|one:# sleutel|other:# sleutels}.',
    de: 'Höchstens {max|one:# Schlüssel|other:# Schlüssel}.',
    fr: 'Au plus {max|one:# clé|other:# clés}.',
  },
  'field.more_errors': {
    en: '{count|one:# more invalid input is|other:# more invalid inputs are} not listed.',
    nl: 'Nog {count|one:# ongeldige invoer staat|other:# ongeldige invoerwaarden staan} niet in de lijst.',
    de: '{count|one:# weitere ungültige Eingabe ist|other:# weitere ungültige Eingaben sind} nicht aufgeführt.',
    fr: '{count|one:# autre entrée invalide n’est pas listée|other:# autres entrées invalides ne sont pas listées}.',
  },
  'field.unknown_field': {
    en: 'This field is not accepted here.',
    nl: 'Dit veld wordt hier niet geaccepteerd.',
    de: 'Dieses Feld wird hier nicht akzeptiert.',
    fr: 'Ce champ n’est pas accepté ici.',
  },
  'field.unknown_parameter': {
    en: 'This query parameter is not accepted here.',
    nl: 'Deze queryparameter wordt hier niet geaccepteerd.',
    de: 'Dieser Query-Parameter wird hier nicht akzeptiert.',
    fr: 'Ce paramètre de requête n’est pas accepté ici.',
  },
  'field.amount_format': {
    en: 'Must be an amount with at most two decimals.',
    nl: 'Moet een bedrag met hoogstens twee decimalen zijn.',
    de: 'Muss ein Betrag mit höchstens zwei Nachkommastellen sein.',
    fr: 'Doit être un montant avec au plus deux décimales.',
  },

  // Lists (src/http/pagination.ts)
  'cursor.invalid': {
    en: 'The cursor is not valid.',
    nl: 'De cursor is niet geldig.',
    de: 'Der Cursor ist ungültig.',
    fr: 'Le curseur n’est pas valide.',
  },
  'cursor.other_sort': {
    en: 'This cursor belongs to sort={sort}; use it with that sort.',
    nl: 'Deze cursor hoort bij sort={sort}; gebruik hem met die sortering.',
    de: 'Dieser Cursor gehört zu sort={sort}; verwenden Sie ihn mit dieser Sortierung.',
    fr: 'Ce curseur correspond à sort={sort} ; utilisez-le avec ce tri.',
  },

  // ETag and idempotency (src/http/etag.ts, src/http/idempotency.ts)
  'etag.malformed': {
    en: 'If-Match must be an ETag received from this API, such as "3".',
    nl: 'If-Match moet een ETag zijn die je van deze API hebt gekregen, zoals "3".',
    de: 'If-Match muss ein ETag sein, das Sie von dieser API erhalten haben, etwa "3".',
    fr: 'If-Match doit être un ETag reçu de cette API, par exemple "3".',
  },
  'etag.changed': {
    en: 'The record has changed; its current ETag is {etag}.',
    nl: 'Het record is gewijzigd; de huidige ETag is {etag}.',
    de: 'Der Datensatz wurde geändert; sein aktuelles ETag ist {etag}.',
    fr: 'L’enregistrement a été modifié ; son ETag actuel est {etag}.',
  },
  'idempotency.in_progress': {
    en: 'A request with this Idempotency-Key is still being processed; retry in a moment.',
    nl: 'Een verzoek met deze Idempotency-Key wordt nog verwerkt; probeer het zo opnieuw.',
    de: 'Eine Anfrage mit diesem Idempotency-Key wird noch verarbeitet; versuchen Sie es gleich noch einmal.',
    fr: 'Une requête avec cette Idempotency-Key est encore en cours de traitement ; réessayez dans un instant.',
  },
  'idempotency.key_reused': {
    en: 'This Idempotency-Key was used for a different request.',
    nl: 'Deze Idempotency-Key is gebruikt voor een ander verzoek.',
    de: 'Dieser Idempotency-Key wurde für eine andere Anfrage verwendet.',
    fr: 'Cette Idempotency-Key a été utilisée pour une autre requête.',
  },
  // A resource's own texts are in its folder (messages.ts), merged with these in src/resources/index.ts.
} as const;

const shared = defineMessages(MESSAGES);
export const message = shared.message;
/** The shared entries (the resources' own are merged with them in src/resources/index.ts). */
export const sharedMessages = shared.entries;
