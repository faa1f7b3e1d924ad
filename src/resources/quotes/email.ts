// The standard email of a quote or an invoice in the document's language, unless the request gives its own
// subject or message (the document's number, total and the company's name are always in it). Amounts and dates
// are written by the same formatter as the PDF it carries (src/domain/locale-format.ts), so the two agree.
import { fill, formatDate, formatMoney } from '../../domain/locale-format.ts';
import { salutation } from '../../domain/salutation.ts';
import { escapeHtml } from '../../http/error-pages.ts';
import type { Language } from '../../languages.ts';

type Company = { name: string };
type Document = {
  number: string;
  total: string;
  currency: string;
  language: Language;
  customer: { name: string | null };
  amountPaid?: string | null;
  amountDue?: string | null;
  /** The online quote or invoice (src/resources/document-pages), or null where there is none to give. */
  publicUrl?: string | null;
  /** An invoice's "pay now" (its page's `/pay`), when the company has a payment provider and an amount is due. */
  payUrl?: string | null;
};

type Words = {
  closing: string;
  quote: { subject: string; body: string; link: string };
  invoice: { subject: string; body: string; open: string; link: string; pay: string; payButton: string };
};

// Dutch says "u": the register of every message a business sends its customers.
export const DOCUMENT_EMAIL_WORDS: Record<Language, Words> = {
  en: {
    closing: 'Kind regards,',
    quote: {
      subject: 'Quote {number} from {company}',
      body: 'Please find attached our quote {number} for {total}, valid until {valid}.',
      link: 'You can view, accept or decline the quote online: {url}',
    },
    invoice: {
      subject: 'Invoice {number} from {company}',
      body: 'Please find attached invoice {number} for {total}, due on {due}.',
      open: 'Of this, {due_amount} is still open.',
      link: 'You can view the invoice and how to pay it online: {url}',
      pay: 'Pay now online: {pay_url}',
      payButton: 'Pay now',
    },
  },
  nl: {
    closing: 'Met vriendelijke groet,',
    quote: {
      subject: 'Offerte {number} van {company}',
      body: 'In de bijlage vindt u onze offerte {number} van {total}, geldig tot en met {valid}.',
      link: 'U kunt de offerte online bekijken, accepteren of afwijzen: {url}',
    },
    invoice: {
      subject: 'Factuur {number} van {company}',
      body: 'In de bijlage vindt u factuur {number} van {total}, te betalen uiterlijk {due}.',
      open: 'Daarvan staat nog {due_amount} open.',
      link: 'U kunt de factuur en de betaalgegevens online bekijken: {url}',
      pay: 'Nu online betalen: {pay_url}',
      payButton: 'Nu betalen',
    },
  },
  de: {
    closing: 'Mit freundlichen Grüßen',
    quote: {
      subject: 'Angebot {number} von {company}',
      body: 'anbei erhalten Sie unser Angebot {number} über {total}, gültig bis zum {valid}.',
      link: 'Sie können das Angebot online ansehen, annehmen oder ablehnen: {url}',
    },
    invoice: {
      subject: 'Rechnung {number} von {company}',
      body: 'anbei erhalten Sie die Rechnung {number} über {total}, fällig am {due}.',
      open: 'Davon sind noch {due_amount} offen.',
      link: 'Die Rechnung und die Zahlungsangaben finden Sie online: {url}',
      pay: 'Jetzt online bezahlen: {pay_url}',
      payButton: 'Jetzt bezahlen',
    },
  },
  fr: {
    closing: 'Cordialement,',
    quote: {
      subject: 'Devis {number} de {company}',
      body: 'Veuillez trouver ci-joint notre devis {number} d’un montant de {total}, valable jusqu’au {valid}.',
      link: 'Vous pouvez consulter, accepter ou refuser le devis en ligne\u00A0: {url}',
    },
    invoice: {
      subject: 'Facture {number} de {company}',
      body: 'Veuillez trouver ci-joint la facture {number} d’un montant de {total}, à régler au plus tard le {due}.',
      open: 'Il reste {due_amount} à régler.',
      link: 'Vous pouvez consulter la facture et les modalités de paiement en ligne\u00A0: {url}',
      pay: 'Payer maintenant en ligne\u00A0: {pay_url}',
      payButton: 'Payer maintenant',
    },
  },
};

/** The subject and text of the email that sends a quote or an invoice (an invoice's names its due date). */
export function documentEmail(
  doc: Document & { kind: 'quote' | 'invoice'; dueDate?: string | null; validUntil?: string | null },
  company: Company,
  custom: { subject?: string; message?: string },
) {
  const words = DOCUMENT_EMAIL_WORDS[doc.language];
  const money = (amount: string) => formatMoney(amount, doc.currency, doc.language);
  const date = (value: string | null | undefined) => (value ? formatDate(value, doc.language) : '');
  const values = {
    number: doc.number,
    total: money(doc.total),
    company: company.name,
    due: date(doc.dueDate),
    valid: date(doc.validUntil),
    due_amount: doc.amountDue ? money(doc.amountDue) : '',
    url: doc.publicUrl ?? '',
    pay_url: doc.payUrl ?? '',
  };
  const template = words[doc.kind];
  // Part paid: the customer is told what is still open, as the PDF asks only for that.
  const partlyPaid =
    doc.kind === 'invoice' && doc.amountDue && doc.amountPaid && Number(doc.amountPaid) > 0 && doc.amountDue !== '0.00';
  const sentence = [fill(template.body, values), ...(partlyPaid ? [fill(words.invoice.open, values)] : [])].join(' ');
  // The link to the online document in a paragraph of its own, which mail clients make clickable.
  const link = doc.publicUrl ? [fill(template.link, values), ''] : [];
  const pay = doc.kind === 'invoice' && doc.payUrl ? [fill(words.invoice.pay, values), ''] : [];
  const text =
    custom.message ??
    [salutation(doc.customer.name, doc.language), '', sentence, '', ...pay, ...link, words.closing, company.name].join(
      '\n',
    );
  // A message of the request's own still names the document and its link, so the customer can tell what it is about.
  const footer = custom.message
    ? `\n\n${doc.number} · ${values.total}${pay.length ? `\n${pay[0]}` : ''}${doc.publicUrl ? `\n${fill(template.link, values)}` : ''}`
    : '';
  const subject = custom.subject ?? fill(template.subject, values);
  // An invoice to pay online also gets an HTML part: the same text, its "pay now" line a button.
  const html =
    pay.length > 0 && doc.payUrl
      ? emailHtml(`${text}${footer}`, doc.language, subject, {
          line: pay[0] ?? '',
          href: doc.payUrl,
          label: words.invoice.payButton,
        })
      : undefined;
  return { subject, text: `${text}${footer}`, ...(html ? { html } : {}) };
}

const BUTTON =
  'display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:600';

/** The email's text as HTML paragraphs, its addresses links, and `button.line` (where it stands) a button. */
function emailHtml(
  text: string,
  language: Language,
  subject: string,
  button: { line: string; href: string; label: string },
) {
  const linked = (line: string) =>
    escapeHtml(line).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
  const paragraphs = text.split(/\n{2,}/).map((paragraph) =>
    paragraph
      .split('\n')
      .map((line) =>
        line === button.line
          ? `<a href="${escapeHtml(button.href)}" style="${BUTTON}">${escapeHtml(button.label)}</a>`
          : linked(line),
      )
      .join('<br>'),
  );
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`;
}
