// "Pay now" through Mollie (issue 52), against a local fake of Mollie's API (test/harness/mollie.ts) with the
// official client pointed at it: connecting the provider with the CLI (the key sealed, never shown again, not in
// exports), the checkout redirect (one open payment per invoice and amount), the webhook (fetched, never trusted:
// paid, failed, expired, canceled, partial, duplicates, unknown ids, a wrong token) and a provider that is down
// (answered 200, retried by the invoice_payment_sync job).
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAY_START_WINDOWS } from '../../../src/http/rate-limit.ts';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { until } from '../../harness/async.ts';
import { cliInProcess } from '../../harness/cli.ts';
import { queuedJobsOf } from '../../harness/jobs.ts';
import { type FakeMollie, startFakeMollie } from '../../harness/mollie.ts';
import { customerOf } from '../deals/fixtures.ts';

let api: TestApi;
let mollie: FakeMollie;
let key: string;
let companyId: string;
let webhookToken: string;

const MOLLIE_KEY = 'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM';
const env = () => ({ DATABASE_URL: api.url, PUBLIC_URL: 'http://api.test', LOG_LEVEL: 'silent' });

beforeAll(async () => {
  mollie = await startFakeMollie();
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  const connected = await cliInProcess(
    env(),
    'company',
    'payments',
    companyId,
    '--mollie-key',
    MOLLIE_KEY,
    '--mollie-base-url',
    mollie.apiUrl,
    '--json',
  );
  expect(connected.code, connected.stderr).toBe(0);
  const out = JSON.parse(connected.stdout);
  webhookToken = String(out.webhook_url).split('/').pop() ?? '';
});
afterAll(() => mollie.close());

let visitor = 0;
const visit = (url: string, init: RequestInit = {}) =>
  api.app.request(new URL(url).pathname + new URL(url).search, {
    ...init,
    headers: { 'x-forwarded-for': `198.51.100.${++visitor % 250}`, ...init.headers },
  });

async function sentInvoice(prices: number[] = [100], k = key) {
  const customer_id = await customerOf(api, k);
  const created = await api.call<'createInvoice'>('createInvoice', {
    key: k,
    body: {
      customer_id,
      title: 'Schilderwerk',
      items: prices.map((p) => ({ name: 'Werk', quantity: 1, unit_price: p, tax_rate: 0 })),
    },
  });
  expect(created.status).toBe(201);
  const sent = await api.call<'sendInvoice'>('sendInvoice', {
    key: k,
    params: { invoice: created.body.data.id },
    body: { to: 'klant@example.nl' },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body.data;
}

const readInvoice = async (id: string, k = key) =>
  (await api.call<'getInvoice'>('getInvoice', { key: k, params: { invoice: id } })).body.data;

/** "Pay now": answers the provider's checkout address (303). */
async function payNow(payUrl: string) {
  const res = await visit(payUrl);
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

const webhook = (id: string, token = webhookToken) =>
  api.call('receiveMollieWebhook', {
    params: { webhook_token: token },
    rawBody: new URLSearchParams({ id }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

const checkoutPayment = (location: string | null) => {
  const id = location?.split('/').pop() ?? '';
  const payment = mollie.payments.get(id);
  if (!payment) throw new Error(`no fake payment behind ${location}`);
  return payment;
};

const eventsOf = async (type: string, invoiceId: string) =>
  api.sql`select id from events where company_id = ${companyId} and type = ${type}
          and data->'object'->>'id' = ${invoiceId}`;

describe('company payments (CLI)', () => {
  it('stores the key sealed (never the key), shows only its mode, and leaves it out of exports', async () => {
    const [row] = await api.sql`select * from payment_providers where company_id = ${companyId}`;
    expect(row.provider).toBe('mollie');
    expect(row.api_key_mode).toBe('test');
    expect(row.api_key_sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(JSON.stringify(row)).not.toContain(MOLLIE_KEY.slice(5));
    const shown = await cliInProcess(env(), 'company', 'payments', companyId);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Mollie (test key, stored encrypted; not shown again)');
    expect(shown.stdout).not.toContain(MOLLIE_KEY.slice(5));
    const exported = await cliInProcess(env(), 'company', 'export', companyId);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toContain('payment_providers');
    expect(exported.stdout).not.toContain(row.api_key_sealed);
  });

  it('refuses a key that is no Mollie key, and a plain-http base URL off this machine, without echoing the key', async () => {
    const bad = await cliInProcess(env(), 'company', 'payments', companyId, '--mollie-key', 'sk_live_secretvalue12345');
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('secretvalue');
    const http = await cliInProcess(
      env(),
      'company',
      'payments',
      companyId,
      '--mollie-key',
      MOLLIE_KEY,
      '--mollie-base-url',
      'http://mollie.example.com/v2/',
    );
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('--mollie-base-url must be an https URL');
  });

  it('a sealed key copied onto another company does not open (bound to its company)', async () => {
    const other = await api.tenant();
    const set = await cliInProcess(env(), 'company', 'payments', other.companyId, '--mollie-key', MOLLIE_KEY);
    expect(set.code).toBe(0);
    const [mine] = await api.sql`select api_key_sealed from payment_providers where company_id = ${companyId}`;
    const { paymentAccountOf } = await import('../../../src/payments/accounts.ts');
    const { withTenant } = await import('../../../src/db/tenant.ts');
    const box = await api.deps.paymentKeys();
    await api.sql`update payment_providers set api_key_sealed = ${mine.api_key_sealed}
                  where company_id = ${other.companyId}`;
    await expect(
      withTenant(api.db, other.companyId, (tx) => paymentAccountOf(tx, other.companyId, box)),
    ).rejects.toThrow(/altered or belongs to another company/);
    const removed = await cliInProcess(env(), 'company', 'payments', other.companyId, '--none', '--json');
    expect(JSON.parse(removed.stdout)).toMatchObject({ provider: null, webhook_url: null });
  });
});

describe('pay now', () => {
  it('the invoice offers pay_url; opening it creates one Mollie payment for the amount due and redirects (303)', async () => {
    const invoice = await sentInvoice([100, 21.5]);
    expect(invoice.pay_url).toBe(`${invoice.public_url}/pay`);
    const first = await payNow(String(invoice.pay_url));
    expect(first.status).toBe(303);
    const payment = checkoutPayment(first.location);
    expect(payment).toMatchObject({
      amount: { value: '121.50', currency: 'EUR' },
      description: `Factuur ${invoice.number}`,
      redirectUrl: invoice.public_url,
      webhookUrl: `http://api.test/api/v1/payment-webhooks/mollie/${webhookToken}`,
      locale: 'nl_NL',
      metadata: { invoice_id: invoice.id, invoice_number: invoice.number, company_id: companyId },
    });
    expect(mollie.calls.at(-1)?.authorization).toBe(`Bearer ${MOLLIE_KEY}`);
    // A second click while it is open: the same payment, nothing new at Mollie.
    const creates = mollie.calls.filter((call) => call.method === 'POST').length;
    const again = await payNow(String(invoice.pay_url));
    expect(again.location).toBe(first.location);
    expect(mollie.calls.filter((call) => call.method === 'POST').length).toBe(creates);
  });

  it('the online invoice shows a "pay now" button and the sent email carries the link, in the invoice’s language', async () => {
    const invoice = await sentInvoice();
    const page = await (await visit(String(invoice.public_url))).text();
    expect(page).toContain('Nu betalen');
    expect(page).toContain(`${new URL(String(invoice.pay_url)).pathname}`);
    const fr = await (await visit(`${invoice.public_url}?lang=fr`)).text();
    expect(fr).toContain('Payer maintenant');
    const [email] = await api.sql`select body from outbound_emails where company_id = ${companyId}
                                  order by created_at desc limit 1`;
    expect(email.body).toContain(`Nu online betalen: ${invoice.pay_url}`);
  });

  it('without a provider or anything due, pay_url leads back to the invoice page; a draft has no pay_url', async () => {
    const other = await api.tenant();
    const invoice = await sentInvoice([50], other.key);
    const res = await payNow(String(invoice.pay_url));
    expect(res.status).toBe(303);
    expect(res.location).toBe(new URL(String(invoice.public_url)).pathname);
    const page = await (await visit(String(invoice.public_url))).text();
    expect(page).not.toContain('/pay"');
    const customer_id = await customerOf(api, key);
    const draft = await api.call<'createInvoice'>('createInvoice', {
      key,
      body: { customer_id, title: 'Concept', items: [{ name: 'Werk', quantity: 1, unit_price: 10 }] },
    });
    expect(draft.body.data.pay_url).toBeNull();
  });
});

describe('the webhook', () => {
  it('paid: fetched from Mollie, recorded once with method and time, invoice paid with invoice.paid; duplicates change nothing', async () => {
    const invoice = await sentInvoice([80]);
    const payment = checkoutPayment((await payNow(String(invoice.pay_url))).location);
    // Before the customer paid: nothing to record.
    expect((await webhook(payment.id)).body.data.outcome).toBe('unchanged');
    mollie.settle(payment.id, 'paid', 'ideal');
    const first = await webhook(payment.id);
    expect(first.status).toBe(200);
    expect(first.body.data.outcome).toBe('recorded');
    const paid = await readInvoice(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '80.00', amount_due: '0.00', pay_url: null });
    expect(paid.payments).toEqual([
      expect.objectContaining({
        amount: '80.00',
        type: 'full',
        status: 'paid',
        payment_method: 'ideal',
        provider: 'mollie',
        provider_payment_id: payment.id,
        paid_at: new Date(String(mollie.payments.get(payment.id)?.paidAt)).toISOString(),
      }),
    ]);
    for (let i = 0; i < 3; i++) expect((await webhook(payment.id)).body.data.outcome).toBe('unchanged');
    expect((await readInvoice(invoice.id)).payments).toHaveLength(1);
    expect(await eventsOf('invoice.paid', invoice.id)).toHaveLength(1);
    // Paid: "pay now" leads back to the page, which says so.
    expect((await payNow(String(invoice.pay_url))).location).toBe(new URL(String(invoice.public_url)).pathname);
  });

  it('failed, expired and canceled move the status on and record nothing; a late webhook never moves it back', async () => {
    for (const status of ['failed', 'expired', 'canceled'] as const) {
      const invoice = await sentInvoice([30]);
      const payment = checkoutPayment((await payNow(String(invoice.pay_url))).location);
      mollie.settle(payment.id, status, 'creditcard');
      expect((await webhook(payment.id)).body.data.outcome).toBe('updated');
      expect((await webhook(payment.id)).body.data.outcome).toBe('unchanged');
      const [row] = await api.sql`select status from provider_payments where provider_payment_id = ${payment.id}`;
      expect(row.status).toBe(status);
      const after = await readInvoice(invoice.id);
      expect(after).toMatchObject({ status: 'sent', amount_paid: '0.00', payments: [] });
      // A new "pay now" makes a new payment (the old one is no longer open).
      const next = checkoutPayment((await payNow(String(invoice.pay_url))).location);
      expect(next.id).not.toBe(payment.id);
    }
  });

  it('partial: a payment recorded by hand, then "pay now" for the rest: two payments, invoice paid', async () => {
    const invoice = await sentInvoice([100]);
    const byHand = await api.call('createInvoicePayment', {
      key,
      params: { invoice: invoice.id },
      body: { amount: 40, payment_method: 'bank_transfer' },
    });
    expect(byHand.body.data.status).toBe('partial');
    const payment = checkoutPayment((await payNow(String(invoice.pay_url))).location);
    expect(payment.amount.value).toBe('60.00');
    mollie.settle(payment.id, 'paid', 'bancontact');
    expect((await webhook(payment.id)).body.data.outcome).toBe('recorded');
    const paid = await readInvoice(invoice.id);
    expect(paid.status).toBe('paid');
    expect(paid.payments.map((p) => [p.amount, p.type, p.payment_method, p.provider])).toEqual([
      ['40.00', 'partial', 'bank_transfer', null],
      ['60.00', 'full', 'bancontact', 'mollie'],
    ]);
  });

  it('partial by the provider: paid while less was due (paid by hand meanwhile) is kept as not applied', async () => {
    const invoice = await sentInvoice([100]);
    const payment = checkoutPayment((await payNow(String(invoice.pay_url))).location);
    await api.call('createInvoicePayment', { key, params: { invoice: invoice.id }, body: { amount: 100 } });
    mollie.settle(payment.id, 'paid');
    expect((await webhook(payment.id)).body.data.outcome).toBe('not_applied');
    const after = await readInvoice(invoice.id);
    expect(after.payments).toHaveLength(1);
    const [row] =
      await api.sql`select not_applied_reason from provider_payments where provider_payment_id = ${payment.id}`;
    expect(row.not_applied_reason).toContain('paid');
  });

  it('an unknown id answers 200 unknown without asking Mollie; a wrong token 404; no id 422', async () => {
    const calls = mollie.calls.length;
    expect((await webhook('tr_doesnotexist')).body.data).toEqual({
      object: 'payment_webhook_receipt',
      outcome: 'unknown',
    });
    expect(mollie.calls.length).toBe(calls);
    const [company] = webhookToken.split('.');
    const wrong = await webhook('tr_x', `${company}.${'A'.repeat(32)}`);
    expect(wrong.status).toBe(404);
    expect((await webhook('tr_x', 'garbage')).status).toBe(404);
    const empty = await api.call('receiveMollieWebhook', {
      params: { webhook_token: webhookToken },
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(empty.status).toBe(422);
    const json = await api.call('receiveMollieWebhook', {
      params: { webhook_token: webhookToken },
      body: { id: 'tr_x' },
    });
    expect(json.status).toBe(415);
  });

  it('Mollie down: "pay now" answers 503 and creates nothing; a webhook answers 200 queued and the job records it later', async () => {
    const invoice = await sentInvoice([25]);
    mollie.down('refuse');
    const refused = await payNow(String(invoice.pay_url));
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('Online betalen is nu niet mogelijk');
    mollie.down('up');
    const payment = checkoutPayment((await payNow(String(invoice.pay_url))).location);
    mollie.settle(payment.id, 'paid');
    mollie.down('503');
    const queued = await webhook(payment.id);
    expect(queued.status).toBe(200);
    expect(queued.body.data.outcome).toBe('queued');
    expect((await readInvoice(invoice.id)).status).toBe('sent');
    const jobs = await queuedJobsOf(api, 'invoice_payment_sync', companyId);
    const job = jobs.find((j) => j.payload.providerPaymentId === payment.id);
    expect(job).toBeDefined();
    // A second webhook during the outage replaces the job rather than adding one.
    await webhook(payment.id);
    expect(
      (await queuedJobsOf(api, 'invoice_payment_sync', companyId)).filter(
        (j) => j.payload.providerPaymentId === payment.id,
      ),
    ).toHaveLength(1);
    const task = taskList({ ...api.deps, config: api.config }).invoice_payment_sync;
    await expect(task({ companyId, providerPaymentId: payment.id }, {} as JobHelpers)).rejects.toThrow(/unavailable/);
    mollie.down('up');
    await task({ companyId, providerPaymentId: payment.id }, {} as JobHelpers);
    const paid = await readInvoice(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '25.00' });
    expect(paid.payments[0]).toMatchObject({ provider: 'mollie', provider_payment_id: payment.id });
  });

  it('a key that no longer opens (PAYMENT_KEYS_SECRET changed): pay now 503, a webhook 200 queued, never a 5xx for Mollie', async () => {
    const invoice = await sentInvoice([15]);
    const payment = checkoutPayment((await payNow(String(invoice.pay_url))).location);
    mollie.settle(payment.id, 'paid');
    const { SecretBox } = await import('../../../src/payments/secret-box.ts');
    const kept = api.deps.paymentKeys;
    api.deps.paymentKeys = async () => new SecretBox('another-installation-secret-of-at-least-32-chars');
    try {
      expect((await payNow(String(invoice.pay_url))).status).toBe(503);
      const queued = await webhook(payment.id);
      expect(queued.status).toBe(200);
      expect(queued.body.data.outcome).toBe('queued');
    } finally {
      api.deps.paymentKeys = kept;
    }
    expect((await webhook(payment.id)).body.data.outcome).toBe('recorded');
  });
});

describe('pay now holds nothing while Mollie answers (fair shares)', () => {
  const creations = () => mollie.calls.filter((c) => c.method === 'POST' && c.path === '/v2/payments').length;

  it('a slow Mollie: no transaction, row lock or pool connection is held; the invoice and another company go on', async () => {
    const invoice = await sentInvoice([70]);
    const other = await api.tenant();
    const before = creations();
    const release = mollie.holdPayments();
    let click: Promise<Awaited<ReturnType<typeof payNow>>> | undefined;
    try {
      click = payNow(String(invoice.pay_url));
      await until(() => creations() > before, 'Mollie was asked for the payment');
      // Held at Mollie: no session of this database is inside a transaction (the old pay now kept one, with the
      // invoice's row lock and a pool connection, for as long as Mollie took).
      const open = await api.sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`;
      expect(open[0].n).toBe(0);
      // The invoice's row lock is free: an update of the invoice goes through at once.
      const patched = await api.call('updateInvoice', {
        key,
        params: { invoice: invoice.id },
        body: { metadata: { checked: 'while Mollie was slow' } },
      });
      expect(patched.status).toBe(200);
      // Another company's requests are answered meanwhile.
      const customer = await api.call('createCustomer', {
        key: other.key,
        body: { type: 'business', company_name: 'Buren BV', email: 'buren@example.nl' },
      });
      expect(customer.status).toBe(201);
    } finally {
      release();
    }
    const answered = await click;
    expect(answered?.status).toBe(303);
    expect(checkoutPayment(answered?.location ?? null).amount.value).toBe('70.00');
  });

  it('concurrent clicks open one payment: the others wait for it and go to the same checkout', async () => {
    const invoice = await sentInvoice([45]);
    const before = creations();
    const release = mollie.holdPayments();
    let clicks: Promise<Awaited<ReturnType<typeof payNow>>[]> | undefined;
    try {
      clicks = Promise.all(Array.from({ length: 4 }, () => payNow(String(invoice.pay_url))));
      await until(() => creations() > before, 'Mollie was asked for the payment');
    } finally {
      release();
    }
    const answers = (await clicks) ?? [];
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 303]);
    expect(new Set(answers.map((a) => a.location)).size).toBe(1);
    expect(creations()).toBe(before + 1);
    const rows = await api.sql`select status from provider_payments where invoice_id = ${invoice.id}`;
    expect(rows.map((r) => r.status)).toEqual(['open']);
  });

  it('a claim left by a crash between the steps expires: the next click takes it over', async () => {
    const invoice = await sentInvoice([35]);
    // What a process that died after claiming (before Mollie answered) leaves behind, its claim past its time.
    await api.sql`insert into provider_payments (company_id, id, invoice_id, provider, amount, currency, status, expires_at)
      values (${companyId}, gen_random_uuid(), ${invoice.id}, 'mollie', 35, 'EUR', 'creating', now() - interval '1 second')`;
    const res = await payNow(String(invoice.pay_url));
    expect(res.status).toBe(303);
    const payment = checkoutPayment(res.location);
    const rows =
      await api.sql`select status, provider_payment_id from provider_payments where invoice_id = ${invoice.id}`;
    expect(rows).toEqual([{ status: 'open', provider_payment_id: payment.id }]);
  });

  it('Mollie refusing: the claim is released, so the next click asks again', async () => {
    const invoice = await sentInvoice([20]);
    mollie.down('503');
    try {
      expect((await payNow(String(invoice.pay_url))).status).toBe(503);
    } finally {
      mollie.down('up');
    }
    expect(await api.sql`select 1 from provider_payments where invoice_id = ${invoice.id}`).toHaveLength(0);
    expect((await payNow(String(invoice.pay_url))).status).toBe(303);
  });
});

describe('pay now in the public links’ rate limits', () => {
  it('counts in the per-address window of the pages, and per link in its own window (then a 429 page)', async () => {
    const invoice = await sentInvoice([12]);
    const first = await visit(String(invoice.pay_url));
    expect(first.status).toBe(303);
    expect(first.headers.get('ratelimit')).toMatch(/^"document_pages";r=\d+;t=\d+$/);
    const limit = PAY_START_WINDOWS[0]?.limit ?? 0;
    // From ever new addresses: the link's own window is what runs out.
    for (let i = 1; i < limit; i++) expect((await visit(String(invoice.pay_url))).status).toBe(303);
    const refused = await visit(String(invoice.pay_url), { headers: { 'accept-language': 'de' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toMatch(/^"pay_starts";r=0;t=\d+$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.text()).toContain('Zu viele Anfragen');
    // The page itself is still served.
    expect((await visit(String(invoice.public_url))).status).toBe(200);
  });
});

describe('refunds of payments that came through Mollie', () => {
  const task = () => taskList({ ...api.deps, config: api.config }).invoice_refund_send;
  const refundPosts = (paymentId: string) =>
    mollie.calls.filter((c) => c.method === 'POST' && c.path === `/v2/payments/${paymentId}/refunds`);

  /** An invoice paid in full through "pay now": the invoice and its one payment. */
  async function paidThroughMollie(amount: number) {
    const invoice = await sentInvoice([amount]);
    const payment = checkoutPayment((await payNow(String(invoice.pay_url))).location);
    mollie.settle(payment.id, 'paid', 'ideal');
    expect((await webhook(payment.id)).body.data.outcome).toBe('recorded');
    const paid = await readInvoice(invoice.id);
    return { invoice: paid, paid: paid.payments[0], molliePayment: payment.id };
  }

  const refund = (invoiceId: string, body: Record<string, unknown>) =>
    api.call('createInvoicePayment', { key, params: { invoice: invoiceId }, body: { type: 'refund', ...body } });

  it('is recorded pending, sent by a job with its id as idempotency key, and counted once Mollie paid it back', async () => {
    const { invoice, paid, molliePayment } = await paidThroughMollie(100);
    const recorded = await refund(invoice.id, { amount: 40, refunded_payment_id: paid.id, description: 'Korting' });
    expect(recorded.status).toBe(201);
    // Not yet paid back: the invoice is as it was, the refund waits for the provider.
    expect(recorded.body.data).toMatchObject({ status: 'paid', amount_paid: '100.00' });
    const pending = recorded.body.data.payments.at(-1);
    expect(pending).toMatchObject({
      type: 'refund',
      amount: '40.00',
      status: 'pending',
      payment_method: 'ideal',
      paid_at: null,
      provider: 'mollie',
      provider_payment_id: null,
      refunded_payment_id: paid.id,
      provider_refund_id: null,
      provider_refund_status: 'queued',
      failure_reason: null,
    });
    const jobs = await queuedJobsOf(api, 'invoice_refund_send', companyId);
    expect(jobs.map((j) => j.payload.paymentId)).toContain(pending.id);
    expect(refundPosts(molliePayment)).toHaveLength(0);

    expect(await task()({ companyId, paymentId: pending.id }, {} as JobHelpers)).toBeUndefined();
    const sent = refundPosts(molliePayment);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.idempotencyKey).toBe(pending.id);
    const [atMollie] = [...mollie.refunds.values()].filter((r) => r.paymentId === molliePayment);
    expect(atMollie).toMatchObject({
      amount: { value: '40.00', currency: 'EUR' },
      metadata: { refund_id: pending.id },
    });
    expect((await readInvoice(invoice.id)).payments.at(-1)).toMatchObject({
      status: 'pending',
      provider_refund_id: atMollie?.id,
      provider_refund_status: 'pending',
    });

    // Crash after Mollie made the refund, before it was recorded: the retried job finds it, makes none.
    await api.sql`update invoice_payments set provider_refund_id = null, provider_refund_status = 'queued'
                  where id = ${pending.id}`;
    await task()({ companyId, paymentId: pending.id }, {} as JobHelpers);
    expect(refundPosts(molliePayment)).toHaveLength(1);
    expect((await readInvoice(invoice.id)).payments.at(-1)?.provider_refund_id).toBe(atMollie?.id);

    mollie.settleRefund(String(atMollie?.id), 'refunded');
    // The payment's webhook brings the refund's next look forward from an hour away to now.
    const [later] = (await queuedJobsOf(api, 'invoice_refund_send', companyId)).filter(
      (j) => j.payload.paymentId === pending.id,
    );
    expect(later?.runAt.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect((await webhook(molliePayment)).status).toBe(200);
    const [soon] = (await queuedJobsOf(api, 'invoice_refund_send', companyId)).filter(
      (j) => j.payload.paymentId === pending.id,
    );
    expect(soon?.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    await task()({ companyId, paymentId: pending.id }, {} as JobHelpers);
    const after = await readInvoice(invoice.id);
    expect(after).toMatchObject({ status: 'partial', amount_paid: '60.00', amount_due: '40.00' });
    const done = after.payments.at(-1);
    expect(done).toMatchObject({ status: 'paid', provider_refund_status: 'refunded', failure_reason: null });
    expect(done?.paid_at).not.toBeNull();
    // Done: another run changes nothing and asks Mollie nothing.
    const calls = mollie.calls.length;
    await task()({ companyId, paymentId: pending.id }, {} as JobHelpers);
    expect(mollie.calls.length).toBe(calls);
    expect((await readInvoice(invoice.id)).amount_paid).toBe('60.00');
    expect(refundPosts(molliePayment)).toHaveLength(1);
  });

  it('refused by Mollie: failed with Mollie’s reason, never counted, invoice.refund_failed emitted', async () => {
    const { invoice, paid } = await paidThroughMollie(50);
    const recorded = await refund(invoice.id, { amount: 50, refunded_payment_id: paid.id });
    const pending = recorded.body.data.payments.at(-1);
    mollie.refuseRefunds('The amount is higher than the balance on your account');
    try {
      await task()({ companyId, paymentId: pending.id }, {} as JobHelpers);
    } finally {
      mollie.refuseRefunds(null);
    }
    const after = await readInvoice(invoice.id);
    expect(after).toMatchObject({ status: 'paid', amount_paid: '50.00' });
    expect(after.payments.at(-1)).toMatchObject({
      status: 'failed',
      paid_at: null,
      provider_refund_status: 'failed',
      failure_reason: 'The amount is higher than the balance on your account',
    });
    const events = await api.sql`select data from events where company_id = ${companyId}
      and type = 'invoice.refund_failed' and data->'object'->>'id' = ${invoice.id}`;
    expect(events).toHaveLength(1);
    expect(events[0].data.object.payments.at(-1)).toMatchObject({ id: pending.id, status: 'failed' });
    // A failed refund holds nothing back: the whole amount can be refunded again.
    const again = await refund(invoice.id, { amount: 50, refunded_payment_id: paid.id });
    expect(again.status).toBe(201);
  });

  it('a manual refund (no refunded_payment_id) is unchanged: paid back at once, nothing sent to Mollie', async () => {
    const { invoice, molliePayment } = await paidThroughMollie(30);
    const jobs = (await queuedJobsOf(api, 'invoice_refund_send', companyId)).length;
    const recorded = await refund(invoice.id, { amount: 30, payment_method: 'bank_transfer' });
    expect(recorded.status).toBe(201);
    expect(recorded.body.data).toMatchObject({ status: 'refunded', amount_paid: '0.00' });
    expect(recorded.body.data.payments.at(-1)).toMatchObject({
      status: 'paid',
      provider: null,
      refunded_payment_id: null,
      provider_refund_status: null,
    });
    expect(await queuedJobsOf(api, 'invoice_refund_send', companyId)).toHaveLength(jobs);
    expect(refundPosts(molliePayment)).toHaveLength(0);
  });

  it('refuses a refund above what is left of the payment or pending, an unknown payment, and a payment naming one', async () => {
    const { invoice, paid } = await paidThroughMollie(80);
    const first = await refund(invoice.id, { amount: 60, refunded_payment_id: paid.id });
    expect(first.status).toBe(201);
    const aboveLeft = await refund(invoice.id, { amount: 30, refunded_payment_id: paid.id });
    expect(aboveLeft.status).toBe(422);
    expect(aboveLeft.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: '/amount', code: 'too_big' })]),
    );
    // Without naming the payment, the pending 60 still counts as on its way back.
    const abovePaid = await refund(invoice.id, { amount: 30 });
    expect(abovePaid.status).toBe(422);
    const unknown = await refund(invoice.id, { amount: 5, refunded_payment_id: first.body.data.payments.at(-1).id });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: '/refunded_payment_id', code: 'invalid_reference' });
    const notRefund = await api.call('createInvoicePayment', {
      key,
      params: { invoice: invoice.id },
      body: { amount: 5, refunded_payment_id: paid.id },
    });
    expect(notRefund.status).toBe(422);
    expect(notRefund.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/refunded_payment_id', code: 'invalid_combination' }),
      ]),
    );
  });
});
