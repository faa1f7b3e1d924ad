// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const orderMessages = defineMessages({
  'order.not_found': {
    en: 'No order with this id exists.',
    nl: 'Er bestaat geen bestelling met dit id.',
    de: 'Es gibt keine Bestellung mit dieser ID.',
    fr: 'Aucune commande n’a cet identifiant.',
  },
  'order.status_not_allowed': {
    en: 'An order cannot move from {from} to {to}; {to} is allowed from {allowed}.',
    nl: 'Een bestelling kan niet van {from} naar {to}; {to} mag vanuit {allowed}.',
    de: 'Eine Bestellung kann nicht von {from} zu {to} wechseln; {to} ist erlaubt aus {allowed}.',
    fr: 'Une commande ne peut pas passer de {from} à {to} ; {to} est permis depuis {allowed}.',
  },
  'order.tracking_not_allowed': {
    en: 'Track and trace can only be filled in while the order is paid, processing or shipped; this order is {status}.',
    nl: 'Track en trace kan alleen worden ingevuld zolang de bestelling betaald, in behandeling of verzonden is; deze bestelling is {status}.',
    de: 'Die Sendungsverfolgung kann nur angegeben werden, solange die Bestellung bezahlt, in Bearbeitung oder versandt ist; diese Bestellung ist {status}.',
    fr: 'Le suivi ne peut être renseigné que si la commande est payée, en préparation ou expédiée ; cette commande est {status}.',
  },
  'order.tracking_url_scheme': {
    en: 'The link must start with http:// or https://.',
    nl: 'De link moet beginnen met http:// of https://.',
    de: 'Der Link muss mit http:// oder https:// beginnen.',
    fr: 'Le lien doit commencer par http:// ou https://.',
  },
} as const);
