// The demo company has quotes and invoices in every status, read through the API: the invoices' payments
// (partly paid, paid, refunded) add up to what they show, a quote has a real PNG attached that its link
// downloads, the completed quote points at its invoice, their PDFs render, the overdue invoice has had the friendly
// reminder of the demo's schedule, and the hourly sales_documents_daily task finds nothing in the demo to expire,
// make overdue or remind.
import type { JobHelpers } from 'graphile-worker';
import { beforeAll, expect, it } from 'vitest';
import { createDemo } from '../../../src/cli/demo.ts';
import { toCents } from '../../../src/domain/money.ts';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await createDemo(api.db));
});

type Payment = { amount: string; type: string; status: string };
type Invoice = {
  id: string;
  status: string;
  total: string;
  amount_paid: string;
  amount_due: string;
  quote_id: string | null;
  payments: Payment[];
};

it('has a quote in every status, one with an attachment that downloads as a PNG', async () => {
  const quotes = await api.call('listQuotes', { key, query: { limit: 100 } });
  expect(quotes.status).toBe(200);
  expect(new Set(quotes.body.data.map((q: { status: string }) => q.status))).toEqual(
    new Set(['draft', 'pending_review', 'sent', 'viewed', 'accepted', 'rejected', 'expired', 'completed']),
  );
  const sent = quotes.body.data.find((q: { status: string }) => q.status === 'sent');
  const attachments = await api.call('listQuoteAttachments', { key, params: { quote: sent.id } });
  expect(attachments.body.data).toHaveLength(1);
  expect(attachments.body.data[0]).toMatchObject({ mime_type: 'image/png', visible_to_customer: true });
  const download = await api.app.request(`http://api.test${new URL(attachments.body.data[0].download_url).pathname}`);
  expect(download.status).toBe(200);
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  expect(bytes.byteLength).toBe(attachments.body.data[0].size);

  const pdf = await api.call('getQuotePdf', { key, params: { quote: sent.id } });
  expect(pdf.status).toBe(200);
});

it('has an invoice in every status, with payments that add up to amount_paid', async () => {
  const list = await api.call('listInvoices', { key, query: { limit: 100 } });
  expect(list.status).toBe(200);
  const invoices: Invoice[] = list.body.data;
  const byStatus = new Map(invoices.map((i) => [i.status, i]));
  expect(new Set(byStatus.keys())).toEqual(
    new Set(['draft', 'sent', 'viewed', 'partial', 'paid', 'overdue', 'cancelled', 'refunded']),
  );
  for (const invoice of invoices) {
    // What came in, less what went back (a refund marks the payments it returns as refunded).
    const paid = invoice.payments.reduce((sum, p) => sum + (p.type === 'refund' ? -1n : 1n) * toCents(p.amount), 0n);
    expect(toCents(invoice.amount_paid), invoice.status).toBe(paid);
  }
  const partial = byStatus.get('partial');
  expect(partial?.payments).toHaveLength(1);
  expect(toCents(partial?.amount_due ?? '0')).toBeGreaterThan(0n);
  expect(byStatus.get('paid')).toMatchObject({ amount_due: '0.00' });
  expect(byStatus.get('refunded')?.payments.map((p) => p.type)).toEqual(['full', 'refund']);
  expect(byStatus.get('overdue')?.payments).toHaveLength(1);

  const completed = (await api.call('listQuotes', { key, query: { 'filter[status]': 'completed' } })).body.data[0];
  expect(completed.invoice_id).toBe(byStatus.get('paid')?.id);
  expect(byStatus.get('paid')?.quote_id).toBe(completed.id);

  const events = await api.call('listEvents', { key, query: { 'filter[type]': 'invoice.paid,invoice.overdue' } });
  expect(new Set(events.body.data.map((e: { type: string }) => e.type))).toEqual(
    new Set(['invoice.paid', 'invoice.overdue']),
  );
});

it('has a reminder schedule, and an overdue invoice that had its friendly reminder (invoice.reminder_sent)', async () => {
  const schedule = await api.call('getInvoiceReminderSchedule', { key });
  expect(schedule.body.data.steps.map((s: { days_after_due: number }) => s.days_after_due)).toEqual([7, 14, 30]);
  const overdue = (await api.call('listInvoices', { key, query: { 'filter[status]': 'overdue' } })).body.data[0];
  expect(overdue.reminders).toEqual([
    { kind: 'friendly', days_after_due: 7, status: 'sent', sent_at: expect.any(String), skipped_reason: null },
  ]);
  const events = await api.call('listEvents', { key, query: { 'filter[type]': 'invoice.reminder_sent' } });
  expect(events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([overdue.id]);
});

it('keeps its statuses when the hourly sales_documents_daily task runs', async () => {
  const statuses = async () =>
    (
      await api.sql<{ id: string; status: string }[]>`select id, status from invoices union all
      select id, status from quotes order by id`
    ).map((r) => `${r.id}:${r.status}`);
  const before = await statuses();
  await taskList({ ...api.deps, config: api.config }).sales_documents_daily({}, {} as JobHelpers);
  expect(await statuses()).toEqual(before);
  // The overdue invoice's next step (14 days) is still days away: nothing more to send.
  const [{ n }] = await api.sql<{ n: string }[]>`select count(*) as n from invoice_reminders`;
  expect(Number(n)).toBe(1);
});
