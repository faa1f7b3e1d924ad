// The texts of one invalid input (a field's problem, the `detail` of each of a 422's errors) in the four languages:
// as zod reports it (validation.ts), each format and type in words, a list's length said with what it holds. They
// are part of the shared texts (messages.ts), whose definition checks their languages and placeholders.
import type { Templates } from './message-catalogue.ts';

export const FIELD_MESSAGES = {
  // As zod reports it (validation.ts); also used by handlers
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
} as const satisfies Record<string, Templates>;
