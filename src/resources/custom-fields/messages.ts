// The problem texts of custom fields, in the four languages (see src/http/messages.ts defineMessages): those of the
// definitions, and those of a record's values (`/custom_fields/<key>`, one per type: src/domain/custom-fields.ts).
import { defineMessages } from '../../http/message-catalogue.ts';

export const customFieldMessages = defineMessages({
  'custom_field.not_found': {
    en: 'No custom field with this id exists.',
    nl: 'Er bestaat geen eigen veld met dit id.',
    de: 'Es gibt kein benutzerdefiniertes Feld mit dieser ID.',
    fr: 'Aucun champ personnalisé n’a cet identifiant.',
  },
  'custom_field.key_taken': {
    en: 'This resource already has a custom field with this key.',
    nl: 'Deze resource heeft al een eigen veld met deze sleutel.',
    de: 'Diese Ressource hat bereits ein benutzerdefiniertes Feld mit diesem Schlüssel.',
    fr: 'Cette ressource a déjà un champ personnalisé avec cette clé.',
  },
  'custom_field.too_many': {
    en: 'A company can define at most {max} custom fields per resource; delete one first.',
    nl: 'Een bedrijf kan per resource hoogstens {max} eigen velden definiëren; verwijder er eerst een.',
    de: 'Ein Unternehmen kann pro Ressource höchstens {max} benutzerdefinierte Felder anlegen; löschen Sie zuerst eines.',
    fr: 'Une entreprise peut définir au plus {max} champs personnalisés par ressource ; supprimez-en un d’abord.',
  },
  'custom_field.label_needed': {
    en: 'Give a label in at least one language (nl, en, de or fr).',
    nl: 'Geef een label in ten minste één taal (nl, en, de of fr).',
    de: 'Geben Sie eine Bezeichnung in mindestens einer Sprache an (nl, en, de oder fr).',
    fr: 'Donnez un libellé dans au moins une langue (nl, en, de ou fr).',
  },
  'custom_field.options_needed': {
    en: 'A select field needs its options.',
    nl: 'Een keuzeveld heeft opties nodig.',
    de: 'Ein Auswahlfeld braucht seine Optionen.',
    fr: 'Un champ de sélection a besoin de ses options.',
  },
  'custom_field.options_not_allowed': {
    en: 'Only single_select and multi_select fields have options.',
    nl: 'Alleen velden van het type single_select en multi_select hebben opties.',
    de: 'Nur Felder vom Typ single_select und multi_select haben Optionen.',
    fr: 'Seuls les champs single_select et multi_select ont des options.',
  },
  'custom_field.decimals_not_allowed': {
    en: 'Only number fields have decimals.',
    nl: 'Alleen getalvelden hebben decimalen.',
    de: 'Nur Zahlenfelder haben Dezimalstellen.',
    fr: 'Seuls les champs numériques ont des décimales.',
  },
  'custom_field.option_repeated': {
    en: 'An earlier option already has this key.',
    nl: 'Een eerdere optie heeft al deze sleutel.',
    de: 'Eine frühere Option hat bereits diesen Schlüssel.',
    fr: 'Une option précédente a déjà cette clé.',
  },
  'custom_field.values_do_not_convert': {
    en: 'Stored values of this field ({count}) do not convert to the new type; change or remove them first.',
    nl: 'Opgeslagen waarden van dit veld ({count}) zijn niet om te zetten naar het nieuwe type; wijzig of verwijder ze eerst.',
    de: 'Gespeicherte Werte dieses Felds ({count}) lassen sich nicht in den neuen Typ umwandeln; ändern oder entfernen Sie sie zuerst.',
    fr: 'Des valeurs enregistrées de ce champ ({count}) ne se convertissent pas au nouveau type ; modifiez-les ou supprimez-les d’abord.',
  },
  'custom_field.option_in_use': {
    en: 'Records still hold the options {options}; change their values before dropping these options.',
    nl: 'Records bevatten nog de opties {options}; wijzig hun waarden voordat u deze opties verwijdert.',
    de: 'Datensätze enthalten noch die Optionen {options}; ändern Sie deren Werte, bevor Sie diese Optionen entfernen.',
    fr: 'Des enregistrements contiennent encore les options {options} ; modifiez leurs valeurs avant de supprimer ces options.',
  },
  // A record's values, at /custom_fields/<key>.
  'custom_field.value_unknown': {
    en: 'The company has no custom field with this key on this resource.',
    nl: 'Het bedrijf heeft geen eigen veld met deze sleutel op deze resource.',
    de: 'Das Unternehmen hat kein benutzerdefiniertes Feld mit diesem Schlüssel für diese Ressource.',
    fr: 'L’entreprise n’a aucun champ personnalisé avec cette clé sur cette ressource.',
  },
  'custom_field.value_required': {
    en: 'This custom field is required: give it a value.',
    nl: 'Dit eigen veld is verplicht: geef het een waarde.',
    de: 'Dieses benutzerdefinierte Feld ist erforderlich: geben Sie ihm einen Wert.',
    fr: 'Ce champ personnalisé est obligatoire : donnez-lui une valeur.',
  },
  'custom_field.value_required_kept': {
    en: 'This custom field is required: its value can be changed, not removed.',
    nl: 'Dit eigen veld is verplicht: de waarde kan worden gewijzigd, niet verwijderd.',
    de: 'Dieses benutzerdefinierte Feld ist erforderlich: Sein Wert kann geändert, aber nicht entfernt werden.',
    fr: 'Ce champ personnalisé est obligatoire : sa valeur peut être modifiée, pas supprimée.',
  },
  'custom_field.value_text': {
    en: 'Must be a text of 1 to 255 characters.',
    nl: 'Moet een tekst van 1 tot 255 tekens zijn.',
    de: 'Muss ein Text mit 1 bis 255 Zeichen sein.',
    fr: 'Doit être un texte de 1 à 255 caractères.',
  },
  'custom_field.value_long_text': {
    en: 'Must be a text of 1 to 10000 characters.',
    nl: 'Moet een tekst van 1 tot 10000 tekens zijn.',
    de: 'Muss ein Text mit 1 bis 10000 Zeichen sein.',
    fr: 'Doit être un texte de 1 à 10000 caractères.',
  },
  'custom_field.value_number': {
    en: 'Must be a number (a JSON number) between -10^15 and 10^15 with at most {decimals} decimals.',
    nl: 'Moet een getal zijn (een JSON-getal) tussen -10^15 en 10^15 met hoogstens {decimals} decimalen.',
    de: 'Muss eine Zahl sein (eine JSON-Zahl) zwischen -10^15 und 10^15 mit höchstens {decimals} Dezimalstellen.',
    fr: 'Doit être un nombre (un nombre JSON) entre -10^15 et 10^15 avec au plus {decimals} décimales.',
  },
  'custom_field.value_money': {
    en: 'Must be an amount as text with exactly two decimals, such as "1250.00".',
    nl: 'Moet een bedrag als tekst zijn met precies twee decimalen, zoals "1250.00".',
    de: 'Muss ein Betrag als Text mit genau zwei Dezimalstellen sein, etwa "1250.00".',
    fr: 'Doit être un montant sous forme de texte avec exactement deux décimales, par exemple "1250.00".',
  },
  'custom_field.value_date': {
    en: 'Must be a date written YYYY-MM-DD (year, month, day).',
    nl: 'Moet een datum zijn in de vorm JJJJ-MM-DD (jaar, maand, dag).',
    de: 'Muss ein Datum in der Form JJJJ-MM-TT sein (Jahr, Monat, Tag).',
    fr: 'Doit être une date écrite AAAA-MM-JJ (année, mois, jour).',
  },
  'custom_field.value_boolean': {
    en: 'Must be true or false.',
    nl: 'Moet true of false zijn.',
    de: 'Muss true oder false sein.',
    fr: 'Doit valoir true ou false.',
  },
  'custom_field.value_single_select': {
    en: 'Must be the key of one of the options: {options}.',
    nl: 'Moet de sleutel van een van de opties zijn: {options}.',
    de: 'Muss der Schlüssel einer der Optionen sein: {options}.',
    fr: 'Doit être la clé d’une des options : {options}.',
  },
  'custom_field.value_multi_select': {
    en: 'Must be a list of distinct option keys, each one of: {options}.',
    nl: 'Moet een lijst van verschillende optiesleutels zijn, elk een van: {options}.',
    de: 'Muss eine Liste verschiedener Optionsschlüssel sein, jeder einer von: {options}.',
    fr: 'Doit être une liste de clés d’options distinctes, chacune parmi : {options}.',
  },
  'custom_field.value_url': {
    en: 'Must be a full web address (http or https) of at most 2000 characters, such as https://example.com/path.',
    nl: 'Moet een volledig webadres zijn (http of https) van hoogstens 2000 tekens, zoals https://example.com/path.',
    de: 'Muss eine vollständige Webadresse (http oder https) mit höchstens 2000 Zeichen sein, etwa https://example.com/path.',
    fr: 'Doit être une adresse web complète (http ou https) d’au plus 2000 caractères, par exemple https://example.com/path.',
  },
  'custom_field.value_email': {
    en: 'Must be a valid email address.',
    nl: 'Moet een geldig e-mailadres zijn.',
    de: 'Muss eine gültige E-Mail-Adresse sein.',
    fr: 'Doit être une adresse e-mail valide.',
  },
  'custom_field.value_phone': {
    en: 'Must be a phone number in international form (E.164), such as +31612345678.',
    nl: 'Moet een telefoonnummer in internationale vorm (E.164) zijn, zoals +31612345678.',
    de: 'Muss eine Telefonnummer in internationaler Form (E.164) sein, etwa +31612345678.',
    fr: 'Doit être un numéro de téléphone au format international (E.164), par exemple +31612345678.',
  },
  'custom_field.filter_not_range': {
    en: 'Ranges (gte, lte) are for number, money and date fields.',
    nl: 'Bereiken (gte, lte) zijn er voor getal-, bedrag- en datumvelden.',
    de: 'Bereiche (gte, lte) gibt es für Zahlen-, Betrags- und Datumsfelder.',
    fr: 'Les plages (gte, lte) sont réservées aux champs number, money et date.',
  },
} as const);
