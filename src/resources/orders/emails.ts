// What the customer is emailed about an order (in the order's language) and the internal notes that record it
// (in the company's language): one text per status change, track and trace, and a note shown to the customer.

import { fill } from '../../domain/locale-format.ts';
import { salutation } from '../../domain/salutation.ts';
import type { Language, Texts } from '../../languages.ts';
import type { SettableStatus } from './rules.ts';

export const STATUS_NAMES: Readonly<Record<string, Texts>> = {
  pending_payment: {
    en: 'Awaiting payment',
    nl: 'Wacht op betaling',
    de: 'Zahlung ausstehend',
    fr: 'En attente de paiement',
  },
  paid: { en: 'Paid', nl: 'Betaald', de: 'Bezahlt', fr: 'Payée' },
  processing: { en: 'Processing', nl: 'In behandeling', de: 'In Bearbeitung', fr: 'En préparation' },
  shipped: { en: 'Shipped', nl: 'Verzonden', de: 'Versandt', fr: 'Expédiée' },
  delivered: { en: 'Delivered', nl: 'Bezorgd', de: 'Zugestellt', fr: 'Livrée' },
  cancelled: { en: 'Cancelled', nl: 'Geannuleerd', de: 'Storniert', fr: 'Annulée' },
  refunded: { en: 'Refunded', nl: 'Terugbetaald', de: 'Erstattet', fr: 'Remboursée' },
};

const SUBJECTS: Readonly<Record<SettableStatus, Texts>> = {
  processing: {
    en: 'Your order {number} is being prepared',
    nl: 'Uw bestelling {number} wordt klaargemaakt',
    de: 'Ihre Bestellung {number} wird vorbereitet',
    fr: 'Votre commande {number} est en préparation',
  },
  shipped: {
    en: 'Your order {number} has been shipped',
    nl: 'Uw bestelling {number} is verzonden',
    de: 'Ihre Bestellung {number} wurde versandt',
    fr: 'Votre commande {number} a été expédiée',
  },
  delivered: {
    en: 'Your order {number} has been delivered',
    nl: 'Uw bestelling {number} is bezorgd',
    de: 'Ihre Bestellung {number} wurde zugestellt',
    fr: 'Votre commande {number} a été livrée',
  },
  cancelled: {
    en: 'Your order {number} has been cancelled',
    nl: 'Uw bestelling {number} is geannuleerd',
    de: 'Ihre Bestellung {number} wurde storniert',
    fr: 'Votre commande {number} a été annulée',
  },
};

const BODIES: Readonly<Record<SettableStatus, Texts>> = {
  processing: {
    en: 'We are preparing your order {number}. We will let you know as soon as it is on its way.',
    nl: 'We maken uw bestelling {number} klaar. We laten het u weten zodra hij onderweg is.',
    de: 'wir bereiten Ihre Bestellung {number} vor. Wir melden uns, sobald sie unterwegs ist.',
    fr: 'Nous préparons votre commande {number}. Nous vous préviendrons dès qu’elle sera en route.',
  },
  shipped: {
    en: 'Your order {number} is on its way.',
    nl: 'Uw bestelling {number} is onderweg.',
    de: 'Ihre Bestellung {number} ist unterwegs.',
    fr: 'Votre commande {number} est en route.',
  },
  delivered: {
    en: 'Your order {number} has been delivered. Enjoy it, and thank you for your order!',
    nl: 'Uw bestelling {number} is bezorgd. Veel plezier ermee en bedankt voor uw bestelling!',
    de: 'Ihre Bestellung {number} wurde zugestellt. Viel Freude damit und danke für Ihre Bestellung!',
    fr: 'Votre commande {number} a été livrée. Profitez-en bien, et merci pour votre commande !',
  },
  cancelled: {
    en: 'Your order {number} has been cancelled. If you already paid, the shop will contact you about the refund.',
    nl: 'Uw bestelling {number} is geannuleerd. Hebt u al betaald, dan neemt de winkel contact met u op over de terugbetaling.',
    de: 'Ihre Bestellung {number} wurde storniert. Falls Sie bereits bezahlt haben, meldet sich der Shop wegen der Erstattung.',
    fr: 'Votre commande {number} a été annulée. Si vous avez déjà payé, la boutique vous contactera pour le remboursement.',
  },
};

const TRACKING_LINE: Texts = {
  en: 'Track and trace: {code}',
  nl: 'Track en trace: {code}',
  de: 'Sendungsverfolgung: {code}',
  fr: 'Suivi du colis : {code}',
};
const TRACKING_SUBJECT: Texts = {
  en: 'Track and trace for your order {number}',
  nl: 'Track en trace van uw bestelling {number}',
  de: 'Sendungsverfolgung für Ihre Bestellung {number}',
  fr: 'Suivi de votre commande {number}',
};
const NOTE_SUBJECT: Texts = {
  en: 'A message about your order {number}',
  nl: 'Een bericht over uw bestelling {number}',
  de: 'Eine Nachricht zu Ihrer Bestellung {number}',
  fr: 'Un message concernant votre commande {number}',
};
const SIGNATURE: Texts = {
  en: 'Kind regards,\n{shop}',
  nl: 'Met vriendelijke groet,\n{shop}',
  de: 'Mit freundlichen Grüßen\n{shop}',
  fr: 'Cordialement,\n{shop}',
};

const NOTES = {
  status: {
    en: 'Status changed from {from} to {to}; customer emailed.',
    nl: 'Status gewijzigd van {from} naar {to}; klant gemaild.',
    de: 'Status von {from} zu {to} geändert; Kunde per E-Mail informiert.',
    fr: 'Statut modifié de {from} à {to} ; client informé par e-mail.',
  },
  tracking: {
    en: 'Track and trace filled in: {code}.',
    nl: 'Track en trace ingevuld: {code}.',
    de: 'Sendungsverfolgung eingetragen: {code}.',
    fr: 'Suivi renseigné : {code}.',
  },
  trackingEmailed: {
    en: 'Track and trace {code} emailed to {email}.',
    nl: 'Track en trace {code} gemaild naar {email}.',
    de: 'Sendungsverfolgung {code} an {email} gesendet.',
    fr: 'Suivi {code} envoyé par e-mail à {email}.',
  },
  noteEmailed: {
    en: 'Message to the customer emailed to {email}.',
    nl: 'Bericht voor de klant gemaild naar {email}.',
    de: 'Nachricht an den Kunden an {email} gesendet.',
    fr: 'Message au client envoyé par e-mail à {email}.',
  },
} as const satisfies Record<string, Texts>;

export function noteText(kind: keyof typeof NOTES, language: Language, values: Record<string, string>): string {
  return fill(NOTES[kind][language], values);
}

export const statusName = (status: string, language: Language) => STATUS_NAMES[status]?.[language] ?? status;

type OrderForEmail = {
  number: string;
  language: Language;
  buyerName: string | null;
  trackingCode: string | null;
  trackingUrl: string | null;
};

function letter(order: OrderForEmail, shop: string, lines: string[]): string {
  const l = order.language;
  return [salutation(order.buyerName, l), '', ...lines, '', fill(SIGNATURE[l], { shop })].join('\n');
}

function trackingLines(order: OrderForEmail): string[] {
  if (!order.trackingCode) return [];
  const lines = [fill(TRACKING_LINE[order.language], { code: order.trackingCode })];
  if (order.trackingUrl) lines.push(order.trackingUrl);
  return lines;
}

/** The email of a status change, with the track and trace in the shipped email. */
export function statusEmail(order: OrderForEmail, status: SettableStatus, shop: string) {
  const l = order.language;
  const lines = [fill(BODIES[status][l], { number: order.number })];
  if (status === 'shipped') lines.push('', ...trackingLines(order));
  return { subject: fill(SUBJECTS[status][l], { number: order.number }), text: letter(order, shop, lines) };
}

export function trackingEmail(order: OrderForEmail, shop: string) {
  return {
    subject: fill(TRACKING_SUBJECT[order.language], { number: order.number }),
    text: letter(order, shop, trackingLines(order)),
  };
}

export function customerNoteEmail(order: OrderForEmail, content: string, shop: string) {
  return {
    subject: fill(NOTE_SUBJECT[order.language], { number: order.number }),
    text: letter(order, shop, [content]),
  };
}
