// The email of an invoice reminder (issue 52, point 6), in the invoice's language: how firm it is follows the step's
// kind; it always names the invoice, its due date and the amount still due, and links to the online invoice and,
// when the company has a payment provider, to "pay now". Amounts and dates are written as the PDF it carries writes
// them (src/domain/locale-format.ts).

import { fill, formatDate, formatMoney } from '../../domain/locale-format.ts';
import type { ReminderKind } from '../../domain/reminder-schedule.ts';
import { salutation } from '../../domain/salutation.ts';
import type { Language } from '../../languages.ts';

type Words = {
  subject: Record<ReminderKind, string>;
  body: Record<ReminderKind, string>;
  due: string;
  paid: string;
  link: string;
  pay: string;
  closing: string;
};

// Dutch says "u", German "Sie", French "vous": the register of every message a business sends its customers.
export const REMINDER_EMAIL_WORDS: Record<Language, Words> = {
  en: {
    subject: {
      friendly: 'Reminder: invoice {number} from {company}',
      second: 'Second reminder: invoice {number} from {company}',
      final: 'Final notice: invoice {number} from {company}',
    },
    body: {
      friendly:
        'We have not yet received payment of invoice {number}, which was due on {due}. Perhaps it slipped through; we would be grateful if you could pay it.',
      second:
        'Despite our earlier reminder, invoice {number}, due on {due}, has not yet been paid. We kindly ask you to pay it now.',
      final:
        'Invoice {number}, due on {due}, is still unpaid despite our reminders. This is our final notice: please pay it without delay.',
    },
    due: 'Amount still due: {amount_due}.',
    paid: 'If you have paid in the meantime, please disregard this message.',
    link: 'You can view the invoice and how to pay it online: {url}',
    pay: 'Pay now online: {pay_url}',
    closing: 'Kind regards,',
  },
  nl: {
    subject: {
      friendly: 'Herinnering: factuur {number} van {company}',
      second: 'Tweede herinnering: factuur {number} van {company}',
      final: 'Laatste aanmaning: factuur {number} van {company}',
    },
    body: {
      friendly:
        'Wij hebben de betaling van factuur {number}, te betalen uiterlijk {due}, nog niet ontvangen. Misschien is deze aan uw aandacht ontsnapt; wij zouden het op prijs stellen als u de factuur alsnog voldoet.',
      second:
        'Ondanks onze eerdere herinnering is factuur {number}, te betalen uiterlijk {due}, nog niet betaald. Wij verzoeken u vriendelijk de factuur nu te voldoen.',
      final:
        'Factuur {number}, te betalen uiterlijk {due}, is ondanks onze herinneringen nog steeds niet betaald. Dit is onze laatste aanmaning: wij verzoeken u het bedrag per omgaande te voldoen.',
    },
    due: 'Openstaand bedrag: {amount_due}.',
    paid: 'Heeft u inmiddels betaald, dan kunt u dit bericht als niet verzonden beschouwen.',
    link: 'U kunt de factuur en de betaalgegevens online bekijken: {url}',
    pay: 'Nu online betalen: {pay_url}',
    closing: 'Met vriendelijke groet,',
  },
  de: {
    subject: {
      friendly: 'Zahlungserinnerung: Rechnung {number} von {company}',
      second: 'Zweite Zahlungserinnerung: Rechnung {number} von {company}',
      final: 'Letzte Mahnung: Rechnung {number} von {company}',
    },
    body: {
      friendly:
        'die Zahlung der Rechnung {number}, fällig am {due}, ist bei uns noch nicht eingegangen. Vielleicht ist sie Ihrer Aufmerksamkeit entgangen; wir wären Ihnen für die Begleichung dankbar.',
      second:
        'trotz unserer Erinnerung ist die Rechnung {number}, fällig am {due}, noch nicht bezahlt. Wir bitten Sie, sie jetzt zu begleichen.',
      final:
        'die Rechnung {number}, fällig am {due}, ist trotz unserer Erinnerungen noch immer offen. Dies ist unsere letzte Mahnung: Bitte begleichen Sie den Betrag umgehend.',
    },
    due: 'Offener Betrag: {amount_due}.',
    paid: 'Sollten Sie inzwischen bezahlt haben, betrachten Sie diese Nachricht bitte als gegenstandslos.',
    link: 'Die Rechnung und die Zahlungsangaben finden Sie online: {url}',
    pay: 'Jetzt online bezahlen: {pay_url}',
    closing: 'Mit freundlichen Grüßen',
  },
  fr: {
    subject: {
      friendly: 'Rappel\u00A0: facture {number} de {company}',
      second: 'Deuxième rappel\u00A0: facture {number} de {company}',
      final: 'Dernier avis\u00A0: facture {number} de {company}',
    },
    body: {
      friendly:
        'Sauf erreur de notre part, nous n’avons pas encore reçu le règlement de la facture {number}, échue le {due}. Nous vous serions reconnaissants de bien vouloir la régler.',
      second:
        'Malgré notre précédent rappel, la facture {number}, échue le {due}, n’est toujours pas réglée. Nous vous prions de bien vouloir la régler dès maintenant.',
      final:
        'La facture {number}, échue le {due}, reste impayée malgré nos rappels. Ceci est notre dernier avis\u00A0: nous vous prions de la régler sans délai.',
    },
    due: 'Montant restant dû\u00A0: {amount_due}.',
    paid: 'Si vous avez réglé entre-temps, veuillez ne pas tenir compte de ce message.',
    link: 'Vous pouvez consulter la facture et les modalités de paiement en ligne\u00A0: {url}',
    pay: 'Payer maintenant en ligne\u00A0: {pay_url}',
    closing: 'Cordialement,',
  },
};

export type ReminderInvoice = {
  number: string;
  currency: string;
  language: Language;
  dueDate: string;
  amountDue: string;
  customer: { name: string | null };
};

/** The subject and text of a reminder of `kind` for the invoice; `payUrl` only when the company has a provider. */
export function reminderEmail(
  invoice: ReminderInvoice,
  kind: ReminderKind,
  company: { name: string },
  links: { publicUrl: string; payUrl: string | null },
) {
  const words = REMINDER_EMAIL_WORDS[invoice.language];
  const values = {
    number: invoice.number,
    company: company.name,
    due: formatDate(invoice.dueDate, invoice.language),
    amount_due: formatMoney(invoice.amountDue, invoice.currency, invoice.language),
    url: links.publicUrl,
    pay_url: links.payUrl ?? '',
  };
  // Each link in a paragraph of its own, which mail clients make clickable.
  const text = [
    salutation(invoice.customer.name, invoice.language),
    '',
    fill(words.body[kind], values),
    '',
    fill(words.due, values),
    '',
    ...(links.payUrl ? [fill(words.pay, values), ''] : []),
    fill(words.link, values),
    '',
    words.paid,
    '',
    words.closing,
    company.name,
  ].join('\n');
  return { subject: fill(words.subject[kind], values), text };
}
