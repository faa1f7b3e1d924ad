// The sales_documents_daily task, as the worker runs it: sent quotes past their last valid day become `expired`,
// invoices with an amount due past their due date become `overdue` with one invoice.overdue each (a second run
// changes nothing and records nothing), and "past" is judged by each company's own date: the same due date is
// past in Kiritimati (UTC+14) while it is not yet reached in Pago Pago (UTC−11).
import type { JobHelpers } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf } from '../deals/fixtures.ts';

let api: TestApi;

type Tenant = { key: string; companyId: string; today: string };

/** A company in `timeZone` with a full key, and its date there now. */
async function tenantIn(timeZone: string): Promise<Tenant> {
  const { key, companyId } = await api.tenant();
  await api.sql`update companies set time_zone = ${timeZone} where id = ${companyId}`;
  const [{ today }] = await api.sql<{ today: string }[]>`
    select to_char(now() at time zone ${timeZone}, 'YYYY-MM-DD') as today`;
  return { key, companyId, today };
}

const runTask = () =>
  taskList({ ...api.deps, config: api.config }).sales_documents_daily(
    { _cron: { ts: new Date().toISOString() } },
    {} as JobHelpers,
  );

async function sentInvoice(t: Tenant, dueDate: string, paid?: number) {
  const created = await api.call<'createInvoice'>('createInvoice', {
    key: t.key,
    body: {
      customer_id: await customerOf(api, t.key),
      title: 'Onderhoud',
      items: [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }],
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.data.id;
  expect((await api.call('sendInvoice', { key: t.key, params: { invoice: id } })).status).toBe(200);
  if (paid !== undefined)
    expect(
      (await api.call('createInvoicePayment', { key: t.key, params: { invoice: id }, body: { amount: paid } })).status,
    ).toBe(201);
  await api.sql`update invoices set invoice_date = ${dueDate}::date - 14, due_date = ${dueDate} where id = ${id}`;
  return id;
}

async function quoteValidUntil(t: Tenant, validUntil: string, send = true) {
  const created = await api.call<'createQuote'>('createQuote', {
    key: t.key,
    body: {
      customer_id: await customerOf(api, t.key),
      title: 'Schilderwerk',
      items: [{ name: 'Schilderwerk', quantity: 1, unit_price: 100, tax_rate: 21 }],
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.data.id;
  if (send) expect((await api.call('sendQuote', { key: t.key, params: { quote: id } })).status).toBe(200);
  await api.sql`update quotes set quote_date = ${validUntil}::date - 30, valid_until = ${validUntil} where id = ${id}`;
  return id;
}

const statusOf = async (table: 'invoices' | 'quotes', id: string) =>
  (await api.sql<{ status: string }[]>`select status from ${api.sql(table)} where id = ${id}`)[0].status;

const overdueEvents = async (id: string) =>
  Number(
    (
      await api.sql<{ n: string }[]>`
        select count(*) as n from events where type = 'invoice.overdue' and data->'object'->>'id' = ${id}`
    )[0].n,
  );

const dayBefore = (date: string) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  api = await setupApi();
});

describe('sales_documents_daily', () => {
  it('expires quotes past valid_until and makes unpaid invoices past due_date overdue, with one event each', async () => {
    const t = await tenantIn('Europe/Amsterdam');
    const yesterday = dayBefore(t.today);
    const expiring = await quoteValidUntil(t, yesterday);
    const lastDay = await quoteValidUntil(t, t.today);
    const draftQuote = await quoteValidUntil(t, yesterday, false);
    const late = await sentInvoice(t, yesterday);
    const partlyPaid = await sentInvoice(t, yesterday, 5);
    const paid = await sentInvoice(t, yesterday, 24.2);
    const dueToday = await sentInvoice(t, t.today);

    await runTask();
    expect(await statusOf('quotes', expiring)).toBe('expired');
    expect(await statusOf('quotes', lastDay)).toBe('sent');
    expect(await statusOf('quotes', draftQuote)).toBe('draft');
    expect(await statusOf('invoices', late)).toBe('overdue');
    expect(await statusOf('invoices', partlyPaid)).toBe('overdue');
    expect(await statusOf('invoices', paid)).toBe('paid');
    expect(await statusOf('invoices', dueToday)).toBe('sent');
    expect(await overdueEvents(late)).toBe(1);
    expect(await overdueEvents(partlyPaid)).toBe(1);
    expect(await overdueEvents(paid)).toBe(0);

    const [event] = await api.sql<{ data: { object: { status: string; amount_due: string } } }[]>`
      select data from events where type = 'invoice.overdue' and data->'object'->>'id' = ${partlyPaid}`;
    expect(event.data.object).toMatchObject({ status: 'overdue', amount_due: '19.20' });

    // The second run of the day finds nothing left to do: no second event.
    await runTask();
    expect(await overdueEvents(late)).toBe(1);
    expect(await overdueEvents(partlyPaid)).toBe(1);
    const read = await api.call('getInvoice', { key: t.key, params: { invoice: late } });
    expect(read.body.data.status).toBe('overdue');
  });

  it("judges by the company's own date: the same due date is past in Kiritimati, not yet in Pago Pago", async () => {
    const ahead = await tenantIn('Pacific/Kiritimati');
    const behind = await tenantIn('Pacific/Pago_Pago');
    // Yesterday in Kiritimati is today or later in Pago Pago (25 hours behind).
    const date = dayBefore(ahead.today);
    expect(date >= behind.today).toBe(true);
    const aheadInvoice = await sentInvoice(ahead, date);
    const behindInvoice = await sentInvoice(behind, date);
    const aheadQuote = await quoteValidUntil(ahead, date);
    const behindQuote = await quoteValidUntil(behind, date);

    await runTask();
    expect(await statusOf('invoices', aheadInvoice)).toBe('overdue');
    expect(await statusOf('invoices', behindInvoice)).toBe('sent');
    expect(await statusOf('quotes', aheadQuote)).toBe('expired');
    expect(await statusOf('quotes', behindQuote)).toBe('sent');
    expect(await overdueEvents(behindInvoice)).toBe(0);
  });
});
