// Invoices: creation (also from an accepted quote), drafts-only update and delete, send, cancel, payments with
// amount_paid/amount_due and their states, and the events.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

async function invoiceOf(body: Record<string, unknown> = {}) {
  const customer_id = (body.customer_id as string | undefined) ?? (await customerOf(api, key));
  const res = await api.call<'createInvoice'>('createInvoice', {
    key,
    body: {
      customer_id,
      title: 'Vervanging cv-ketel',
      items: [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }],
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const eventIds = async (type: string) =>
  (
    await api.sql<{ data: { object: { id: string } } }[]>`
      select data from events where company_id = ${companyId} and type = ${type}`
  ).map((e) => e.data.object.id);

describe('createInvoice', () => {
  it('2 × 10.00 at 21 % → 20.00 / 4.20 / 24.20, due after the company term, invoice.created', async () => {
    const invoice = await invoiceOf({ invoice_date: '2026-03-14' });
    expect(invoice).toMatchObject({
      number: expect.stringMatching(/^F\d{4}-\d{4}$/),
      status: 'draft',
      subtotal: '20.00',
      tax_amount: '4.20',
      total: '24.20',
      amount_paid: '0.00',
      amount_due: '24.20',
      invoice_date: '2026-03-14',
      due_date: '2026-03-28',
      payment_term_days: 14,
      is_term_invoice: false,
      term_percentage: null,
      payments: [],
    });
    expect(await eventIds('invoice.created')).toContain(invoice.id);
  });

  it('from an accepted quote: takes its deal, the quote becomes completed with this invoice', async () => {
    const customer = await customerOf(api, key);
    const quote = await api.call('createQuote', {
      key,
      body: { customer_id: customer, title: 'Offerte', items: [{ name: 'A', unit_price: 100 }] },
    });
    await api.call('sendQuote', { key, params: { quote: quote.body.data.id } });
    await api.call('acceptQuote', { key, params: { quote: quote.body.data.id } });
    const invoice = await invoiceOf({ customer_id: customer, quote_id: quote.body.data.id });
    expect(invoice.quote_id).toBe(quote.body.data.id);
    const after = await api.call('getQuote', { key, params: { quote: quote.body.data.id } });
    expect(after.body.data).toMatchObject({ status: 'completed', invoice_id: invoice.id });
    // A quote of another customer is not a reference this invoice may make.
    const other = await api.call('createInvoice', {
      key,
      body: {
        customer_id: await customerOf(api, key),
        title: 'X',
        items: [{ name: 'A' }],
        quote_id: quote.body.data.id,
      },
    });
    expect(other.status).toBe(422);
    expect(other.body.errors[0]).toMatchObject({ pointer: '/quote_id', code: 'invalid_reference' });
  });
});

describe('updateInvoice and deleteInvoice', () => {
  it('change and delete only drafts', async () => {
    const invoice = await invoiceOf();
    const updated = await api.call<'updateInvoice'>('updateInvoice', {
      key,
      params: { invoice: invoice.id },
      body: { payment_term_days: 30, invoice_date: '2026-03-01' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ due_date: '2026-03-31', payment_term_days: 30, total: '24.20' });
    const removed = await api.call('deleteInvoice', { key, params: { invoice: invoice.id } });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ object: 'invoice', id: invoice.id, deleted: true });
    expect((await api.call('getInvoice', { key, params: { invoice: invoice.id } })).status).toBe(404);

    const sent = await invoiceOf();
    await api.call('sendInvoice', { key, params: { invoice: sent.id } });
    expect((await api.call('updateInvoice', { key, params: { invoice: sent.id }, body: { title: 'Y' } })).status).toBe(
      409,
    );
    expect((await api.call('deleteInvoice', { key, params: { invoice: sent.id } })).status).toBe(409);
  });
});

describe('sendInvoice and cancelInvoice', () => {
  it('sends by email, emits invoice.sent once; cancels an unpaid invoice with invoice.cancelled', async () => {
    const invoice = await invoiceOf();
    const sent = await api.call<'sendInvoice'>('sendInvoice', {
      key,
      params: { invoice: invoice.id },
      body: { to: 'boekhouding@example.nl', cc: ['kopie@example.nl'] },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.data.status).toBe('sent');
    const [email] = await api.sql<{ to: string[]; subject: string; body: string }[]>`
      select "to", subject, body from outbound_emails where company_id = ${companyId} and kind = 'invoice_sent'
        and subject like ${`%${invoice.number}%`}`;
    expect(email.to).toEqual(['boekhouding@example.nl', 'kopie@example.nl']);
    expect(email.body).toContain('24.20');
    await api.call('sendInvoice', { key, params: { invoice: invoice.id } });
    expect((await eventIds('invoice.sent')).filter((id) => id === invoice.id)).toHaveLength(1);
    const cancelled = await api.call<'cancelInvoice'>('cancelInvoice', { key, params: { invoice: invoice.id } });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', amount_due: '0.00' });
    expect(await eventIds('invoice.cancelled')).toContain(invoice.id);
    expect((await api.call('sendInvoice', { key, params: { invoice: invoice.id } })).status).toBe(409);
  });

  it('shares the 250-per-hour outgoing limit with quotes: 429 past it, the invoice stays a draft, nothing queued', async () => {
    const invoice = await invoiceOf();
    await api.sql`
      insert into outgoing_message_counts (company_id, scope, hour_start, count)
      values (${companyId}, 'company', date_trunc('hour', now()), 250)
      on conflict (company_id, scope, hour_start) do update set count = 250`;
    try {
      const res = await api.call('sendInvoice', { key, params: { invoice: invoice.id } });
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('rate_limited');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const [row] = await api.sql`select status from invoices where id = ${invoice.id}`;
      expect(row.status).toBe('draft');
      const emails = await api.sql`select 1 from outbound_emails where subject like ${`%${invoice.number}%`}`;
      expect(emails).toHaveLength(0);
    } finally {
      await api.sql`delete from outgoing_message_counts where company_id = ${companyId}`;
    }
  });
});

describe('createInvoicePayment', () => {
  it('partial → partial, the rest → paid with invoice.paid; above the amount due → 422; on paid → 409', async () => {
    const invoice = await invoiceOf();
    expect(
      (await api.call('createInvoicePayment', { key, params: { invoice: invoice.id }, body: { amount: 5 } })).status,
    ).toBe(409);
    await api.call('sendInvoice', { key, params: { invoice: invoice.id } });
    const partial = await api.call<'createInvoicePayment'>('createInvoicePayment', {
      key,
      params: { invoice: invoice.id },
      body: { amount: 10, payment_method: 'ideal', notes: 'Eerste termijn' },
    });
    expect(partial.status).toBe(201);
    expect(partial.body.data).toMatchObject({ status: 'partial', amount_paid: '10.00', amount_due: '14.20' });
    expect(partial.body.data.payments).toMatchObject([{ amount: '10.00', type: 'partial', status: 'paid' }]);
    expect(partial.body.data.notes).toMatch(/10\.00: Eerste termijn$/);
    const tooMuch = await api.call('createInvoicePayment', {
      key,
      params: { invoice: invoice.id },
      body: { amount: 14.21 },
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors[0]).toMatchObject({ pointer: '/amount', code: 'too_big' });
    const rest = await api.call<'createInvoicePayment'>('createInvoicePayment', {
      key,
      params: { invoice: invoice.id },
      body: { amount: 14.2 },
    });
    expect(rest.body.data).toMatchObject({ status: 'paid', amount_paid: '24.20', amount_due: '0.00' });
    expect(rest.body.data.paid_at).not.toBeNull();
    expect(rest.body.data.payments.map((p) => p.type)).toEqual(['partial', 'full']);
    expect(await eventIds('invoice.paid')).toContain(invoice.id);
    expect(
      (await api.call('createInvoicePayment', { key, params: { invoice: invoice.id }, body: { amount: 1 } })).status,
    ).toBe(409);
    const refund = await api.call<'createInvoicePayment'>('createInvoicePayment', {
      key,
      params: { invoice: invoice.id },
      body: { amount: 24.2, type: 'refund' },
    });
    expect(refund.body.data).toMatchObject({ status: 'refunded', amount_paid: '0.00', amount_due: '0.00' });
  });
});
