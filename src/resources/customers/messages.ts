// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const customerMessages = defineMessages({
  'customer.not_found': {
    en: 'No customer with this id exists.',
    nl: 'Er bestaat geen klant met dit id.',
    de: 'Es gibt keinen Kunden mit dieser ID.',
    fr: 'Aucun client n’a cet identifiant.',
  },
  'customer.email_taken': {
    en: 'A customer with this email address already exists.',
    nl: 'Er bestaat al een klant met dit e-mailadres.',
    de: 'Es gibt bereits einen Kunden mit dieser E-Mail-Adresse.',
    fr: 'Un client avec cette adresse e-mail existe déjà.',
  },
  'customer.not_a_lead': {
    en: 'Only a lead can be converted; this is a customer already.',
    nl: 'Alleen een lead kan worden omgezet; dit is al een klant.',
    de: 'Nur ein Lead kann umgewandelt werden; dies ist bereits ein Kunde.',
    fr: 'Seul un prospect peut être converti ; celui-ci est déjà un client.',
  },
  'customer.unknown_reference': {
    en: 'No customer or lead has this id.',
    nl: 'Er is geen klant of lead met dit id.',
    de: 'Kein Kunde und kein Lead hat diese ID.',
    fr: 'Aucun client ni prospect n’a cet identifiant.',
  },
  'customer.duplicate_in_batch': {
    en: 'An earlier item of this batch already names this customer or email address.',
    nl: 'Een eerder item van deze batch noemt deze klant of dit e-mailadres al.',
    de: 'Ein früheres Element dieses Stapels nennt diesen Kunden oder diese E-Mail-Adresse bereits.',
    fr: 'Un élément précédent de ce lot désigne déjà ce client ou cette adresse e-mail.',
  },
  'identifier.BR-CO-09': {
    en: 'A VAT number starts with its country’s ISO 3166 code (EL for Greece), such as NL853746333B01 (rule BR-CO-09).',
    nl: 'Een btw-nummer begint met de ISO 3166-code van zijn land (EL voor Griekenland), zoals NL853746333B01 (regel BR-CO-09).',
    de: 'Eine USt-IdNr. beginnt mit dem ISO-3166-Code ihres Landes (EL für Griechenland), etwa NL853746333B01 (Regel BR-CO-09).',
    fr: 'Un numéro de TVA commence par le code ISO 3166 de son pays (EL pour la Grèce), par exemple NL853746333B01 (règle BR-CO-09).',
  },
  'identifier.VAT': {
    en: 'Not a valid VAT number of its country: its length, format or check digits are wrong (rule VAT).',
    nl: 'Geen geldig btw-nummer van zijn land: de lengte, de opbouw of de controlecijfers kloppen niet (regel VAT).',
    de: 'Keine gültige USt-IdNr. ihres Landes: Länge, Aufbau oder Prüfziffern stimmen nicht (Regel VAT).',
    fr: 'Numéro de TVA non valide pour son pays : la longueur, le format ou les chiffres de contrôle sont faux (règle VAT).',
  },
  'identifier.IBAN': {
    en: 'Not a valid IBAN: its country, length or check digits are wrong (rule IBAN, ISO 13616).',
    nl: 'Geen geldig IBAN: het land, de lengte of de controlecijfers kloppen niet (regel IBAN, ISO 13616).',
    de: 'Keine gültige IBAN: Land, Länge oder Prüfziffern stimmen nicht (Regel IBAN, ISO 13616).',
    fr: 'IBAN non valide : le pays, la longueur ou les chiffres de contrôle sont faux (règle IBAN, ISO 13616).',
  },
  'identifier.BIC': {
    en: 'Not a valid BIC: 8 or 11 characters, the bank code, country and location (rule BIC, ISO 9362).',
    nl: 'Geen geldige BIC: 8 of 11 tekens, de bankcode, het land en de plaats (regel BIC, ISO 9362).',
    de: 'Keine gültige BIC: 8 oder 11 Zeichen, Bankcode, Land und Ort (Regel BIC, ISO 9362).',
    fr: 'BIC non valide : 8 ou 11 caractères, le code banque, le pays et la localité (règle BIC, ISO 9362).',
  },
  'identifier.KVK': {
    en: 'A Dutch chamber of commerce (KvK) number has 8 digits (rule KVK).',
    nl: 'Een KvK-nummer heeft 8 cijfers (regel KVK).',
    de: 'Eine niederländische Handelsregister-Nr. (KvK) hat 8 Ziffern (Regel KVK).',
    fr: 'Un numéro de la chambre de commerce néerlandaise (KvK) a 8 chiffres (règle KVK).',
  },
  'identifier.PEPPOL-COMMON-R043': {
    en: 'Not a valid Belgian enterprise number: 10 digits, the last two 97 minus the first eight modulo 97 (rule PEPPOL-COMMON-R043).',
    nl: 'Geen geldig Belgisch ondernemingsnummer: 10 cijfers, de laatste twee 97 min de eerste acht modulo 97 (regel PEPPOL-COMMON-R043).',
    de: 'Keine gültige belgische Unternehmensnummer: 10 Ziffern, die letzten zwei 97 minus die ersten acht modulo 97 (Regel PEPPOL-COMMON-R043).',
    fr: 'Numéro d’entreprise belge non valide : 10 chiffres, les deux derniers valant 97 moins les huit premiers modulo 97 (règle PEPPOL-COMMON-R043).',
  },
  'identifier.PEPPOL-ID': {
    en: 'A Peppol id is scheme:value with a four-digit EAS scheme, such as 0106:24123456 (rule PEPPOL-ID).',
    nl: 'Een Peppol-id is schema:waarde met een EAS-schema van vier cijfers, zoals 0106:24123456 (regel PEPPOL-ID).',
    de: 'Eine Peppol-ID ist Schema:Wert mit einem vierstelligen EAS-Schema, etwa 0106:24123456 (Regel PEPPOL-ID).',
    fr: 'Un identifiant Peppol s’écrit schéma:valeur avec un schéma EAS à quatre chiffres, par exemple 0106:24123456 (règle PEPPOL-ID).',
  },
  'identifier.PEPPOL-EN16931-CL008': {
    en: 'The scheme of this Peppol id is not in the Peppol EAS code list (rule PEPPOL-EN16931-CL008).',
    nl: 'Het schema van dit Peppol-id staat niet in de Peppol EAS-codelijst (regel PEPPOL-EN16931-CL008).',
    de: 'Das Schema dieser Peppol-ID steht nicht in der Peppol-EAS-Codeliste (Regel PEPPOL-EN16931-CL008).',
    fr: 'Le schéma de cet identifiant Peppol ne figure pas dans la liste de codes EAS de Peppol (règle PEPPOL-EN16931-CL008).',
  },
  'identifier.scheme': {
    en: 'The value does not pass the check of its Peppol scheme (rule {rule}).',
    nl: 'De waarde doorstaat de controle van haar Peppol-schema niet (regel {rule}).',
    de: 'Der Wert besteht die Prüfung seines Peppol-Schemas nicht (Regel {rule}).',
    fr: 'La valeur ne passe pas le contrôle de son schéma Peppol (règle {rule}).',
  },
} as const);
