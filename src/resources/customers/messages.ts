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
} as const);
