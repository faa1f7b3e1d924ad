// The demo's quotes and invoices: a quote in every status and an invoice in every status, numbered from the
// company's sequences, their lines and totals from the totals engine, payments on the partly paid, paid,
// overdue and refunded invoices, a colour card (a real PNG) attached to a quote, the history of each in the event
// log, and a reminder schedule (7, 14, 30 days) whose friendly reminder the overdue invoice has had.
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { nextDocumentNumber } from '../db/document-numbers.ts';
import { events, invoiceReminders, quotes } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { fromCents, toCents } from '../domain/money.ts';
import { kindsByPosition } from '../domain/reminder-schedule.ts';
import type { EventType } from '../events/catalogue.ts';
import { recordEvent } from '../events/record.ts';
import { storeFile } from '../files/records.ts';
import type { FileStorages } from '../files/storages.ts';
import { newId } from '../ids.ts';
import { setReminderSteps } from '../resources/company/queries.ts';
import type { CustomerRow } from '../resources/customers/serialize.ts';
import * as invoiceQueries from '../resources/invoices/queries.ts';
import { type InvoiceRow, serializeInvoice } from '../resources/invoices/serialize.ts';
import { insertAttachment } from '../resources/quote-attachments/queries.ts';
import {
  addDays,
  companyDefaults,
  customerCopy,
  DocumentProblems,
  documentAmounts,
  type ItemBody,
} from '../resources/quotes/documents.ts';
import * as quoteQueries from '../resources/quotes/queries.ts';
import { type QuoteRow, serializeQuote } from '../resources/quotes/serialize.ts';

const DAY_MS = 86_400_000;

const WORK: { title: string; items: ItemBody[] }[] = [
  {
    title: 'Schilderwerk kozijnen voorgevel',
    items: [
      {
        type: 'labor',
        name: 'Kozijnen schuren en schilderen',
        quantity: 16,
        unit: 'uur',
        unit_price: 52.5,
        tax_rate: 9,
      },
      {
        type: 'material',
        name: 'Sikkens Rubbol XD Gloss',
        quantity: 4,
        unit: 'liter',
        unit_price: 38.95,
        tax_rate: 21,
      },
    ],
  },
  {
    title: 'Vervanging cv-ketel',
    items: [
      { type: 'product', name: 'Remeha Calenta Ace 28c', quantity: 1, unit_price: 1895, tax_rate: 21 },
      { type: 'labor', name: 'Montage en inbedrijfstelling', quantity: 6, unit: 'uur', unit_price: 62.5, tax_rate: 21 },
      { type: 'text', name: 'Inclusief afvoer van de oude ketel.' },
    ],
  },
  {
    title: 'Onderhoud dakgoten',
    items: [
      { type: 'service', name: 'Dakgoten reinigen', quantity: 1, unit_price: 185, tax_rate: 21 },
      { type: 'travel', name: 'Voorrijkosten', quantity: 1, unit_price: 35, tax_rate: 21 },
    ],
  },
];

type QuoteStatus = QuoteRow['status'];
type InvoiceStatus = InvoiceRow['status'];
const QUOTE_STATUSES: QuoteStatus[] = [
  'draft',
  'pending_review',
  'sent',
  'viewed',
  'accepted',
  'rejected',
  'expired',
  'completed',
];
const INVOICE_STATUSES: InvoiceStatus[] = [
  'draft',
  'sent',
  'viewed',
  'partial',
  'paid',
  'overdue',
  'cancelled',
  'refunded',
];

/**
 * How long ago each demo invoice was dated: the unpaid ones within their term; the overdue one is due 10 days ago
 * (OVERDUE_DAYS), past the first step of the demo's reminder schedule and before the second.
 */
const INVOICE_DAYS_AGO: Record<Exclude<InvoiceStatus, 'overdue'>, number> = {
  draft: 1,
  sent: 4,
  viewed: 7,
  partial: 10,
  paid: 30,
  cancelled: 20,
  refunded: 60,
};
const OVERDUE_DAYS = 10;
/** The demo company's reminder schedule: a friendly reminder at 7 days, a second at 14, a final notice at 30. */
const DEMO_REMINDER_DAYS = [7, 14, 30];

/** `days` before now, during working hours, in whole milliseconds like every stored time. */
function before(now: Date, days: number, seed: number): Date {
  const at = new Date(now.getTime() - days * DAY_MS);
  at.setUTCHours(8 + (seed % 8), (seed * 13) % 60, 0, 0);
  return at < now ? at : new Date(now.getTime() - 60_000 * (seed + 1));
}

async function historicEvent(
  tx: Tx,
  companyId: string,
  when: Date,
  event: { type: EventType; scope: string; customerId: string; object: unknown },
) {
  const id = await recordEvent(tx, companyId, event);
  await tx
    .update(events)
    .set({ createdAt: when })
    .where(and(eq(events.companyId, companyId), eq(events.id, id)));
}

/** The lines, totals and customer copy of a demo document. */
async function documentOf(tx: Tx, companyId: string, customer: CustomerRow, seed: number, defaultTaxRate: string) {
  const problems = new DocumentProblems();
  const work = WORK[seed % WORK.length];
  const copy = await customerCopy(tx, companyId, customer.id, problems);
  const amounts = documentAmounts(
    work.items,
    { percentage: seed % 4 === 1 ? 5 : 0, amount: 0 },
    defaultTaxRate,
    problems,
  );
  problems.done();
  if (!copy || !amounts) throw new Error('demo document refused');
  return { title: work.title, customerId: customer.id, customer: copy, ...amounts };
}

export async function addDemoSales(
  tx: Tx,
  companyId: string,
  now: Date,
  customers: readonly CustomerRow[],
  storages: FileStorages,
  serviceUrl: string,
): Promise<void> {
  const company = await companyDefaults(tx, companyId);
  const common = { language: company.language, currency: company.currency, hideLineAmounts: false };
  const customerAt = (i: number) => {
    const customer = customers[i % customers.length];
    if (!customer) throw new Error('no demo customers');
    return customer;
  };
  // Every other invoice is to a business customer, so that the demo shows e-invoices (UBL, Factur-X) too: private
  // customers are not on the Peppol network.
  const businesses = customers.filter((c) => c.type === 'business');
  const invoiceCustomerAt = (i: number) =>
    i % 2 === 0 && businesses.length > 0 ? businesses[(i / 2) % businesses.length] : customerAt(i + 3);

  // Unpaid invoices that are not overdue stay within their term, so the hourly sales_documents_daily task
  // leaves them as they are.
  const term = Math.max(company.paymentTermDays, 14);

  const quotesByStatus = new Map<QuoteStatus, QuoteRow>();
  for (const [i, status] of QUOTE_STATUSES.entries()) {
    const daysAgo = status === 'expired' ? 60 : 40 - i * 4;
    const createdAt = before(now, daysAgo, i);
    const sentAt = status === 'draft' || status === 'pending_review' ? null : before(now, daysAgo - 1, i + 1);
    const decidedAt = before(now, daysAgo - 5, i + 2);
    const quoteDate = addDays(company.today, -daysAgo);
    const row = await quoteQueries.insertQuote(tx, companyId, {
      ...(await documentOf(tx, companyId, customerAt(i), i, company.defaultTaxRate)),
      ...common,
      id: newId(),
      number: await nextDocumentNumber(tx, companyId, 'quote'),
      status,
      quoteDate,
      validUntil: addDays(quoteDate, status === 'expired' ? 30 : company.quoteValidityDays + 30),
      introText: 'Naar aanleiding van ons gesprek bieden wij u het volgende aan.',
      termsConditions:
        'Deze offerte is 30 dagen geldig. Op al onze diensten zijn de algemene voorwaarden van toepassing.',
      sentAt,
      viewedAt: status === 'draft' || status === 'pending_review' || status === 'sent' ? null : decidedAt,
      acceptedAt: status === 'accepted' || status === 'completed' ? decidedAt : null,
      rejectedAt: status === 'rejected' ? decidedAt : null,
      createdAt,
      updatedAt: sentAt ?? createdAt,
    });
    quotesByStatus.set(status, row);
    const event = (when: Date, type: EventType) =>
      historicEvent(tx, companyId, when, {
        type,
        scope: 'quotes.read',
        customerId: row.customerId,
        object: serializeQuote(row, null),
      });
    await event(createdAt, 'quote.created');
    if (sentAt) await event(sentAt, 'quote.sent');
    if (row.acceptedAt) await event(row.acceptedAt, 'quote.accepted');
    if (row.rejectedAt) await event(row.rejectedAt, 'quote.rejected');
  }

  // The colour card the painter sends along with the quote for the window frames.
  const sent = quotesByStatus.get('sent');
  if (sent) {
    const png = await sharp({ create: { width: 480, height: 160, channels: 3, background: '#2f4f3a' } })
      .png()
      .toBuffer();
    const file = await storeFile(tx, storages, companyId, {
      name: 'kleurenkaart-rijtuiggroen.png',
      mimeType: 'image/png',
      size: png.byteLength,
      chunks: [png],
    });
    await insertAttachment(tx, {
      companyId,
      quoteId: sent.id,
      file,
      description: 'Kleurenkaart Rijtuiggroen (RAL 6009)',
      visibleToCustomer: true,
    });
  }

  const steps = await setReminderSteps(tx, companyId, kindsByPosition(DEMO_REMINDER_DAYS));
  for (const [i, status] of INVOICE_STATUSES.entries()) {
    const daysAgo = status === 'overdue' ? term + OVERDUE_DAYS : INVOICE_DAYS_AGO[status];
    const createdAt = before(now, daysAgo, i + 20);
    const invoiceDate = addDays(company.today, -daysAgo);
    const issued = status !== 'draft';
    const sentAt = issued ? before(now, daysAgo, i + 21) : null;
    const paidAt = before(now, daysAgo - 7, i + 22);
    // The completed quote was invoiced: its invoice is the paid one.
    const fromQuote = status === 'paid' ? quotesByStatus.get('completed') : undefined;
    const doc = fromQuote
      ? {
          title: fromQuote.title,
          customerId: fromQuote.customerId,
          customer: fromQuote.customer,
          items: fromQuote.items,
          subtotal: fromQuote.subtotal,
          discountPercentage: fromQuote.discountPercentage,
          discountAmount: fromQuote.discountAmount,
          taxAmount: fromQuote.taxAmount,
          total: fromQuote.total,
        }
      : await documentOf(tx, companyId, invoiceCustomerAt(i), i + 1, company.defaultTaxRate);
    let row = await invoiceQueries.insertInvoice(tx, companyId, {
      ...doc,
      ...common,
      id: newId(),
      number: await nextDocumentNumber(tx, companyId, 'invoice'),
      status: 'draft',
      quoteId: fromQuote?.id ?? null,
      dealId: fromQuote?.dealId ?? null,
      invoiceDate,
      dueDate: addDays(invoiceDate, term),
      paymentTermDays: term,
      termsConditions: `Betaling binnen ${term} dagen na factuurdatum.`,
      createdAt,
      updatedAt: createdAt,
    });
    const event = async (when: Date, type: EventType) =>
      historicEvent(tx, companyId, when, {
        type,
        scope: 'invoices.read',
        customerId: row.customerId,
        object: serializeInvoice(await invoiceQueries.withPayments(tx, row), null, serviceUrl),
      });
    await event(createdAt, 'invoice.created');
    if (fromQuote)
      await tx
        .update(quotes)
        .set({ invoiceId: row.id })
        .where(and(eq(quotes.companyId, companyId), eq(quotes.id, fromQuote.id)));

    const total = toCents(row.total);
    const payments: { amount: string; type: 'partial' | 'full' | 'refund'; at: Date }[] =
      status === 'partial'
        ? [{ amount: fromCents((total * 40n) / 100n), type: 'partial', at: paidAt }]
        : status === 'paid'
          ? [{ amount: row.total, type: 'full', at: paidAt }]
          : status === 'overdue'
            ? [{ amount: '100.00', type: 'partial', at: paidAt }]
            : status === 'refunded'
              ? [
                  { amount: row.total, type: 'full', at: paidAt },
                  { amount: row.total, type: 'refund', at: before(now, daysAgo - 12, i + 23) },
                ]
              : [];
    for (const payment of payments)
      await invoiceQueries.insertPayment(tx, {
        companyId,
        id: newId(),
        invoiceId: row.id,
        amount: payment.amount,
        type: payment.type,
        status: status === 'refunded' && payment.type !== 'refund' ? 'refunded' : 'paid',
        paymentMethod: payment.type === 'refund' ? 'bank_transfer' : 'ideal',
        description: payment.type === 'refund' ? 'Terugbetaald na annulering van de opdracht' : null,
        paidAt: payment.at,
      });
    const paid = payments.reduce((sum, p) => sum + (p.type === 'refund' ? -1n : 1n) * toCents(p.amount), 0n);
    row = await invoiceQueries.updateInvoice(tx, row, {
      status,
      sentAt,
      viewedAt: issued && status !== 'sent' ? before(now, daysAgo - 1, i + 24) : null,
      amountPaid: fromCents(paid),
      paidAt: status === 'paid' ? paidAt : null,
      cancelledAt: status === 'cancelled' ? before(now, daysAgo - 3, i + 25) : null,
    });
    if (sentAt) await event(sentAt, 'invoice.sent');
    if (status === 'paid' || status === 'refunded') await event(paidAt, 'invoice.paid');
    if (status === 'overdue') {
      await event(before(now, daysAgo - term - 1, i + 26), 'invoice.overdue');
      // Its friendly reminder went out on the 7th day after the due date; the second is due on the 14th.
      const [first] = steps;
      if (first) {
        await tx.insert(invoiceReminders).values({
          companyId,
          id: newId(),
          invoiceId: row.id,
          daysAfterDue: first.days_after_due,
          kind: first.kind,
          status: 'sent',
          scheduledAt: before(now, OVERDUE_DAYS - first.days_after_due, i + 27),
          sentAt: before(now, OVERDUE_DAYS - first.days_after_due, i + 27),
        });
        await event(before(now, OVERDUE_DAYS - first.days_after_due, i + 27), 'invoice.reminder_sent');
      }
    }
    if (row.cancelledAt) await event(row.cancelledAt, 'invoice.cancelled');
  }
}
