// The standard email of a quote or an invoice in the document's language, unless the request gives its own
// subject or message (the document's number, total and the company's name are always in it).
import type { Language } from '../../languages.ts';

type Company = { name: string };
type Document = {
  number: string;
  total: string;
  currency: string;
  language: Language;
  customer: { name: string | null };
};

const QUOTE = {
  en: {
    subject: 'Quote {number} from {company}',
    body: 'Dear {name},\n\nPlease find our quote {number} for {total} attached.\n\nKind regards,\n{company}',
  },
  nl: {
    subject: 'Offerte {number} van {company}',
    body: 'Beste {name},\n\nHierbij ontvangt u onze offerte {number} van {total}.\n\nMet vriendelijke groet,\n{company}',
  },
  de: {
    subject: 'Angebot {number} von {company}',
    body: 'Guten Tag {name},\n\nanbei erhalten Sie unser Angebot {number} über {total}.\n\nMit freundlichen Grüßen\n{company}',
  },
  fr: {
    subject: 'Devis {number} de {company}',
    body: 'Bonjour {name},\n\nVeuillez trouver notre devis {number} d’un montant de {total}.\n\nCordialement,\n{company}',
  },
} as const;

const INVOICE = {
  en: {
    subject: 'Invoice {number} from {company}',
    body: 'Dear {name},\n\nPlease find invoice {number} for {total}, due on {due}.\n\nKind regards,\n{company}',
  },
  nl: {
    subject: 'Factuur {number} van {company}',
    body: 'Beste {name},\n\nHierbij ontvangt u factuur {number} van {total}, te betalen vóór {due}.\n\nMet vriendelijke groet,\n{company}',
  },
  de: {
    subject: 'Rechnung {number} von {company}',
    body: 'Guten Tag {name},\n\nanbei erhalten Sie die Rechnung {number} über {total}, fällig am {due}.\n\nMit freundlichen Grüßen\n{company}',
  },
  fr: {
    subject: 'Facture {number} de {company}',
    body: 'Bonjour {name},\n\nVeuillez trouver la facture {number} d’un montant de {total}, à régler avant le {due}.\n\nCordialement,\n{company}',
  },
} as const;

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

function compose(
  templates: Record<Language, { subject: string; body: string }>,
  doc: Document,
  company: Company,
  custom: { subject?: string; message?: string },
  extra: Record<string, string> = {},
) {
  const values = {
    number: doc.number,
    total: `${doc.currency} ${doc.total}`,
    company: company.name,
    name: doc.customer.name ?? '',
    ...extra,
  };
  const template = templates[doc.language];
  const text = custom.message ?? fill(template.body, values);
  // A message of the request's own still names the document, so the customer can tell what it is about.
  const footer = custom.message ? `\n\n${doc.number} · ${values.total}` : '';
  return { subject: custom.subject ?? fill(template.subject, values), text: `${text}${footer}` };
}

/** The subject and text of the email that sends a quote or an invoice (an invoice's names its due date). */
export const documentEmail = (
  doc: Document & { kind: 'quote' | 'invoice'; dueDate?: string | null },
  company: Company,
  custom: { subject?: string; message?: string },
) =>
  doc.kind === 'quote'
    ? compose(QUOTE, doc, company, custom)
    : compose(INVOICE, doc, company, custom, { due: doc.dueDate ?? '' });
