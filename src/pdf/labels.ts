// Every word a document PDF prints, in the document's language (not the request's: a Dutch invoice stays Dutch
// whoever downloads it).
import * as format from '../domain/locale-format.ts';
import type { Language } from '../languages.ts';

export type DocumentKind = 'quote' | 'invoice' | 'credit_note' | 'work_order';

/** What an invoice's PDF marks it as by its title. */
export type InvoiceMark = 'cancelled' | 'refunded' | 'paid' | 'partly_paid';

export interface PdfLabels {
  title: Record<DocumentKind, string>;
  number: string;
  date: string;
  dueDate: string;
  validUntil: string;
  reference: string;
  customer: string;
  description: string;
  quantity: string;
  unitPrice: string;
  discount: string;
  tax: string;
  amount: string;
  subtotal: string;
  documentDiscount: string;
  /** The VAT row of a rate: `rate` is the percentage as formatPercent writes it. */
  taxAt: (rate: string, base: string) => string;
  /** The totals row of the lines exempt from VAT. */
  taxExempt: (base: string) => string;
  /** An exempt line's VAT column (narrow). */
  exemptShort: string;
  /** The totals row of the 0 % lines under the EU reverse charge (VAT Directive art. 226 (11a)). */
  reverseCharged: (base: string) => string;
  /** The sentence that says the customer accounts for the VAT. */
  reverseChargeNote: string;
  /** A credit note's fact row: the invoice it credits. */
  creditedInvoice: string;
  /** The sentence of a credit note: it credits the whole invoice `number`. */
  creditsInFull: (number: string) => string;
  mark: Record<InvoiceMark, string>;
  /** What a settled invoice says instead of asking for payment (null: it still asks for what is due). */
  settled: Record<InvoiceMark, string | null>;
  total: string;
  amountPaid: string;
  amountDue: string;
  paymentTerms: string;
  payBy: (amount: string, date: string, iban: string | null, number: string) => string;
  validity: (date: string) => string;
  notes: string;
  /** Work orders' sections: what had to be done, what was done, the checklist, the customer's remarks. */
  workDescription: string;
  workPerformed: string;
  checklist: string;
  checklistDone: (done: number, total: number) => string;
  required: string;
  customerNotes: string;
  photos: string;
  photoNotShown: (type: string) => string;
  signature: string;
  signedBy: (name: string, when: string) => string;
  notSigned: string;
  vatNumber: string;
  cocNumber: string;
  iban: string;
  email: string;
  phone: string;
  page: (page: number, pages: number) => string;
}

export const PDF_LABELS: Record<Language, PdfLabels> = {
  nl: {
    title: { invoice: 'Factuur', credit_note: 'Creditnota', quote: 'Offerte', work_order: 'Werkbon' },
    number: 'Nummer',
    date: 'Datum',
    dueDate: 'Vervaldatum',
    validUntil: 'Geldig tot',
    reference: 'Referentie',
    customer: 'Klant',
    description: 'Omschrijving',
    quantity: 'Aantal',
    unitPrice: 'Prijs',
    discount: 'Korting',
    tax: 'Btw',
    amount: 'Bedrag',
    subtotal: 'Subtotaal',
    documentDiscount: 'Korting',
    taxAt: (rate, base) => `Btw ${rate} over ${base}`,
    taxExempt: (base) => `Vrijgesteld van btw over ${base}`,
    exemptShort: 'vrij',
    reverseCharged: (base) => `Btw verlegd over ${base}`,
    reverseChargeNote: 'Btw verlegd: de afnemer draagt de btw af (artikel 196 btw-richtlijn).',
    creditedInvoice: 'Bij factuur',
    creditsInFull: (number) => `Deze creditnota crediteert factuur ${number} volledig.`,
    mark: { cancelled: 'Geannuleerd', refunded: 'Terugbetaald', paid: 'Betaald', partly_paid: 'Deels betaald' },
    settled: {
      cancelled: 'Deze factuur is geannuleerd; er hoeft niets betaald te worden.',
      refunded: 'Deze factuur is terugbetaald; er hoeft niets betaald te worden.',
      paid: 'Deze factuur is volledig betaald. Hartelijk dank.',
      partly_paid: null,
    },
    total: 'Totaal',
    amountPaid: 'Betaald',
    amountDue: 'Te betalen',
    paymentTerms: 'Betalingsvoorwaarden',
    payBy: (amount, date, iban, number) =>
      `Gelieve ${amount} uiterlijk ${date} over te maken${iban ? ` op ${iban}` : ''} onder vermelding van ${number}.`,
    validity: (date) => `Deze offerte is geldig tot en met ${date}.`,
    notes: 'Opmerkingen',
    workDescription: 'Uit te voeren werkzaamheden',
    workPerformed: 'Uitgevoerde werkzaamheden',
    checklist: 'Controlelijst',
    checklistDone: (done, total) => `${done} van ${total} afgevinkt`,
    required: '(verplicht)',
    customerNotes: 'Opmerkingen van de klant',
    photos: "Foto's",
    photoNotShown: (type) => `(foto van het type ${type} niet weergegeven)`,
    signature: 'Handtekening',
    signedBy: (name, when) => `Getekend door ${name} op ${when}`,
    notSigned: 'Nog niet getekend',
    vatNumber: 'Btw-nr.',
    cocNumber: 'KvK',
    iban: 'IBAN',
    email: 'E-mail',
    phone: 'Tel.',
    page: (page, pages) => `Pagina ${page} van ${pages}`,
  },
  en: {
    title: { invoice: 'Invoice', credit_note: 'Credit note', quote: 'Quote', work_order: 'Work order' },
    number: 'Number',
    date: 'Date',
    dueDate: 'Due date',
    validUntil: 'Valid until',
    reference: 'Reference',
    customer: 'Customer',
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Price',
    discount: 'Discount',
    tax: 'VAT',
    amount: 'Amount',
    subtotal: 'Subtotal',
    documentDiscount: 'Discount',
    taxAt: (rate, base) => `VAT ${rate} on ${base}`,
    taxExempt: (base) => `VAT exempt on ${base}`,
    exemptShort: 'exempt',
    reverseCharged: (base) => `VAT reverse-charged on ${base}`,
    reverseChargeNote: 'VAT reverse-charged: the customer accounts for the VAT (Article 196 of the VAT Directive).',
    creditedInvoice: 'For invoice',
    creditsInFull: (number) => `This credit note credits invoice ${number} in full.`,
    mark: { cancelled: 'Cancelled', refunded: 'Refunded', paid: 'Paid', partly_paid: 'Partly paid' },
    settled: {
      cancelled: 'This invoice has been cancelled; nothing is to be paid.',
      refunded: 'This invoice has been refunded; nothing is to be paid.',
      paid: 'This invoice has been paid in full. Thank you.',
      partly_paid: null,
    },
    total: 'Total',
    amountPaid: 'Paid',
    amountDue: 'Amount due',
    paymentTerms: 'Payment terms',
    payBy: (amount, date, iban, number) =>
      `Please pay ${amount} by ${date}${iban ? ` to ${iban}` : ''}, quoting ${number}.`,
    validity: (date) => `This quote is valid until ${date}.`,
    notes: 'Notes',
    workDescription: 'Work to be done',
    workPerformed: 'Work performed',
    checklist: 'Checklist',
    checklistDone: (done, total) => `${done} of ${total} done`,
    required: '(required)',
    customerNotes: "Customer's notes",
    photos: 'Photos',
    photoNotShown: (type) => `(photo of type ${type} not shown)`,
    signature: 'Signature',
    signedBy: (name, when) => `Signed by ${name} on ${when}`,
    notSigned: 'Not signed yet',
    vatNumber: 'VAT no.',
    cocNumber: 'CoC no.',
    iban: 'IBAN',
    email: 'Email',
    phone: 'Phone',
    page: (page, pages) => `Page ${page} of ${pages}`,
  },
  de: {
    title: { invoice: 'Rechnung', credit_note: 'Gutschrift', quote: 'Angebot', work_order: 'Arbeitsauftrag' },
    number: 'Nummer',
    date: 'Datum',
    dueDate: 'Fällig am',
    validUntil: 'Gültig bis',
    reference: 'Referenz',
    customer: 'Kunde',
    description: 'Beschreibung',
    quantity: 'Menge',
    unitPrice: 'Einzelpreis',
    discount: 'Rabatt',
    tax: 'MwSt.',
    amount: 'Betrag',
    subtotal: 'Zwischensumme',
    documentDiscount: 'Rabatt',
    taxAt: (rate, base) => `MwSt. ${rate} auf ${base}`,
    taxExempt: (base) => `MwSt.-befreit auf ${base}`,
    exemptShort: 'befreit',
    reverseCharged: (base) => `Reverse-Charge auf ${base}`,
    reverseChargeNote:
      'Steuerschuldnerschaft des Leistungsempfängers: Die Umsatzsteuer schuldet der Leistungsempfänger (Artikel 196 MwSt-Systemrichtlinie).',
    creditedInvoice: 'Zur Rechnung',
    creditsInFull: (number) => `Diese Gutschrift schreibt die Rechnung ${number} vollständig gut.`,
    mark: { cancelled: 'Storniert', refunded: 'Erstattet', paid: 'Bezahlt', partly_paid: 'Teilweise bezahlt' },
    settled: {
      cancelled: 'Diese Rechnung wurde storniert; es ist nichts zu zahlen.',
      refunded: 'Diese Rechnung wurde erstattet; es ist nichts zu zahlen.',
      paid: 'Diese Rechnung ist vollständig bezahlt. Vielen Dank.',
      partly_paid: null,
    },
    total: 'Gesamtbetrag',
    amountPaid: 'Bezahlt',
    amountDue: 'Offener Betrag',
    paymentTerms: 'Zahlungsbedingungen',
    payBy: (amount, date, iban, number) =>
      `Bitte überweisen Sie ${amount} bis zum ${date}${iban ? ` auf ${iban}` : ''} unter Angabe von ${number}.`,
    validity: (date) => `Dieses Angebot ist gültig bis zum ${date}.`,
    notes: 'Anmerkungen',
    workDescription: 'Auszuführende Arbeiten',
    workPerformed: 'Ausgeführte Arbeiten',
    checklist: 'Checkliste',
    checklistDone: (done, total) => `${done} von ${total} erledigt`,
    required: '(Pflicht)',
    customerNotes: 'Anmerkungen des Kunden',
    photos: 'Fotos',
    photoNotShown: (type) => `(Foto vom Typ ${type} nicht dargestellt)`,
    signature: 'Unterschrift',
    signedBy: (name, when) => `Unterschrieben von ${name} am ${when}`,
    notSigned: 'Noch nicht unterschrieben',
    vatNumber: 'USt-IdNr.',
    cocNumber: 'Handelsregister-Nr.',
    iban: 'IBAN',
    email: 'E-Mail',
    phone: 'Tel.',
    page: (page, pages) => `Seite ${page} von ${pages}`,
  },
  fr: {
    title: { invoice: 'Facture', credit_note: 'Avoir', quote: 'Devis', work_order: "Bon d'intervention" },
    number: 'Numéro',
    date: 'Date',
    dueDate: "Date d'échéance",
    validUntil: "Valable jusqu'au",
    reference: 'Référence',
    customer: 'Client',
    description: 'Description',
    quantity: 'Quantité',
    unitPrice: 'Prix unitaire',
    discount: 'Remise',
    tax: 'TVA',
    amount: 'Montant',
    subtotal: 'Sous-total',
    documentDiscount: 'Remise',
    taxAt: (rate, base) => `TVA ${rate} sur ${base}`,
    taxExempt: (base) => `Exonéré de TVA sur ${base}`,
    exemptShort: 'exonéré',
    reverseCharged: (base) => `Autoliquidation de la TVA sur ${base}`,
    reverseChargeNote: 'Autoliquidation : la TVA est due par le preneur (article 196 de la directive TVA).',
    creditedInvoice: 'Facture d’origine',
    creditsInFull: (number) => `Cet avoir annule intégralement la facture ${number}.`,
    mark: { cancelled: 'Annulée', refunded: 'Remboursée', paid: 'Payée', partly_paid: 'Partiellement payée' },
    settled: {
      cancelled: 'Cette facture a été annulée\u00A0; aucun paiement n’est dû.',
      refunded: 'Cette facture a été remboursée\u00A0; aucun paiement n’est dû.',
      paid: 'Cette facture a été intégralement payée. Merci.',
      partly_paid: null,
    },
    total: 'Total',
    amountPaid: 'Payé',
    amountDue: 'Reste à payer',
    paymentTerms: 'Conditions de paiement',
    payBy: (amount, date, iban, number) =>
      `Merci de régler ${amount} au plus tard le ${date}${iban ? ` sur le compte ${iban}` : ''} en indiquant ${number}.`,
    validity: (date) => `Ce devis est valable jusqu'au ${date}.`,
    notes: 'Remarques',
    workDescription: 'Travaux à réaliser',
    workPerformed: 'Travaux réalisés',
    checklist: 'Liste de contrôle',
    checklistDone: (done, total) => `${done} sur ${total} effectués`,
    required: '(obligatoire)',
    customerNotes: 'Remarques du client',
    photos: 'Photos',
    photoNotShown: (type) => `(photo de type ${type} non affichée)`,
    signature: 'Signature',
    signedBy: (name, when) => `Signé par ${name} le ${when}`,
    notSigned: 'Pas encore signé',
    vatNumber: 'N° TVA',
    cocNumber: "N° d'entreprise",
    iban: 'IBAN',
    email: 'E-mail',
    phone: 'Tél.',
    page: (page, pages) => `Page ${page} sur ${pages}`,
  },
};

/**
 * The standard PDF fonts (the only ones used: nothing is embedded) encode WinAnsi; French and German formats use
 * narrow no-break spaces, which it lacks: they become plain no-break spaces. The formats themselves are the
 * service's one formatter (src/domain/locale-format.ts), shared with emails and pages.
 */
const winAnsiSpaces = (text: string) => text.replace(/[\u202F\u2009]/g, '\u00A0');

/** An amount (a decimal string such as `-1234.50`) as money in the language's format; exact, no float on the way. */
export const formatMoney = (amount: string, currency: string, language: Language): string =>
  winAnsiSpaces(format.formatMoney(amount, currency, language));

/** A quantity or rate (`2.00`, `21.00`, `5.50`) without needless decimals: 2, 21, 5,5. */
export const formatNumber = (value: string, language: Language): string =>
  winAnsiSpaces(format.formatNumber(value, language));

/** A rate (`21.00`, `5.50`) as a percentage the way the language writes it: 21%, 5,5 % (one form per language). */
export const formatPercent = (value: string, language: Language): string =>
  winAnsiSpaces(format.formatPercent(value, language));

/** A calendar date (`2026-03-02`) as the language writes it (2 maart 2026). */
export const formatDate = (date: string, language: Language): string =>
  winAnsiSpaces(format.formatDate(date, language));

/** An instant as date and time on the company's clock. */
export const formatDateTime = (instant: string, language: Language, timeZone: string): string =>
  winAnsiSpaces(format.formatDateTime(instant, language, timeZone));
