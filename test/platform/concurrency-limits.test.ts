// Per-company concurrency limits (issue 46, point 2): uploads, PDF renders and batch requests in flight, counted in
// PostgreSQL for every API node. One too many is answered 429 concurrency_limited with Retry-After (in the contract:
// `call` checks every answer against it); the slot comes back when the request ends, also when its client goes away,
// and a lease its node stopped renewing (a crash) expires. The operator sets and shows the limits with
// `company limits`; /metrics counts the refusals and the slots in use.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/cli/args.ts';
import { runCommand } from '../../src/cli/commands.ts';
import { setConcurrencyLimits } from '../../src/services/companies.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { listenOnLoopback } from '../harness/loopback-server.ts';
import { slowUpload } from '../harness/slow-upload.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

let api: TestApi;
let origin: string;

beforeAll(async () => {
  api = await setupApi({ METRICS_TOKEN: TOKEN, HTTP_REQUEST_TIMEOUT_MS: '120000' });
  ({ origin } = await listenOnLoopback(api.app, api.config));
});

/** A company with a full key and a quote to attach files to. */
async function companyWithQuote() {
  const t = await api.tenant();
  const customer = await api.call('createCustomer', {
    key: t.key,
    body: { email: 'info@dekker.example.nl', name: 'Peter Dekker' },
  });
  const quote = await api.call('createQuote', {
    key: t.key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Warmtepomp',
      items: [{ name: 'Warmtepomp plaatsen', quantity: 1, unit_price: 9500, tax_rate: 21 }],
    },
  });
  return { ...t, quoteId: quote.body.data.id as string };
}

const attachment = () => {
  const form = new FormData();
  form.set('file', new Blob([Buffer.from('%PDF-1.7\nsmall')], { type: 'application/pdf' }), 'plan.pdf');
  return form;
};

const inUse = async (companyId: string) => api.deps.concurrency.inUse(companyId);

async function metricsText() {
  const response = await api.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  return response.text();
}
const metricValue = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
};

describe('concurrency limits', () => {
  it('an upload past the company’s limit is refused with 429 concurrency_limited and Retry-After', async () => {
    const slow = await companyWithQuote();
    const other = await companyWithQuote();
    await setConcurrencyLimits(api.db, slow.companyId, { uploads: 1 });
    const before = await metricsText();
    const upload = slowUpload(`${origin}/api/v1/quotes/${slow.quoteId}/attachments`, slow.key);
    try {
      await until(async () => (await inUse(slow.companyId)).uploads === 1, 'the slow upload holds its slot', 30_000);
      const refused = await api.call('createQuoteAttachment', {
        key: slow.key,
        params: { quote: slow.quoteId },
        rawBody: attachment(),
      });
      expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 429, code: 'concurrency_limited' });
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(refused.body.detail).toContain('1');
      // Another company's uploads are not its concern.
      const elsewhere = await api.call('createQuoteAttachment', {
        key: other.key,
        params: { quote: other.quoteId },
        rawBody: attachment(),
      });
      expect(elsewhere.status).toBe(201);
      // Counted by kind in /metrics, and not as a rate limit.
      const after = await metricsText();
      expect(metricValue(after, 'crm_concurrency_refusals_total{kind="uploads"}')).toBe(
        metricValue(before, 'crm_concurrency_refusals_total{kind="uploads"}') + 1,
      );
      expect(metricValue(after, 'crm_concurrency_slots_in_use{kind="uploads"}')).toBeGreaterThanOrEqual(1);
      expect(metricValue(after, 'crm_rate_limit_refusals_total{operation="createQuoteAttachment"}')).toBe(
        metricValue(before, 'crm_rate_limit_refusals_total{operation="createQuoteAttachment"}'),
      );
    } finally {
      upload.finish();
    }
    // The slot comes back once the upload is done.
    const done = await upload.result;
    expect(done === 'aborted' ? 0 : done.status).toBe(201);
    expect((await inUse(slow.companyId)).uploads).toBe(0);
    const next = await api.call('createQuoteAttachment', {
      key: slow.key,
      params: { quote: slow.quoteId },
      rawBody: attachment(),
    });
    expect(next.status).toBe(201);
  }, 120_000);

  it('releases the slot of an upload whose client goes away mid-body', async () => {
    const t = await companyWithQuote();
    await setConcurrencyLimits(api.db, t.companyId, { uploads: 1 });
    const upload = slowUpload(`${origin}/api/v1/quotes/${t.quoteId}/attachments`, t.key);
    await until(async () => (await inUse(t.companyId)).uploads === 1, 'the slow upload holds its slot', 30_000);
    upload.abort();
    await until(async () => (await inUse(t.companyId)).uploads === 0, 'the slot is released', 30_000);
    const next = await api.call('createQuoteAttachment', {
      key: t.key,
      params: { quote: t.quoteId },
      rawBody: attachment(),
    });
    expect(next.status).toBe(201);
  }, 120_000);

  it('PDFs (downloads, sends and public links) and batches hold slots of their own, on every node', async () => {
    const t = await companyWithQuote();
    await setConcurrencyLimits(api.db, t.companyId, { pdf_renders: 2, batches: 1 });
    // The slots taken as another API node would take them: the limits count across nodes.
    const second = await api.otherProcess();
    const held = [
      await second.deps.concurrency.take(t.companyId, 'pdf_renders'),
      await second.deps.concurrency.take(t.companyId, 'pdf_renders'),
      await second.deps.concurrency.take(t.companyId, 'batches'),
    ];
    const pdf = await api.call('getQuotePdf', { key: t.key, params: { quote: t.quoteId } });
    expect({ status: pdf.status, code: pdf.body.code }).toEqual({ status: 429, code: 'concurrency_limited' });
    expect(pdf.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    // Sent as by sendQuote (which itself renders): its public link answers its PDF.
    await api.sql`update quotes set status = 'sent', sent_at = now() where id = ${t.quoteId}`;
    const link = api.deps.documentLinks.url({ kind: 'quote', companyId: t.companyId, documentId: t.quoteId });
    const page = await api.app.request(`${new URL(link).pathname}/pdf`);
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const batch = await api.call('upsertCustomers', {
      key: t.key,
      body: { items: [{ email: 'jan@bakkerijjansen.example.nl', name: 'Jan Jansen' }] },
    });
    expect({ status: batch.status, code: batch.body.code }).toEqual({ status: 429, code: 'concurrency_limited' });
    // Other operations are not held back by those slots.
    const customers = await api.call('listCustomers', { key: t.key });
    expect(customers.status).toBe(200);

    for (const slot of held) await slot.release();
    expect((await api.call('getQuotePdf', { key: t.key, params: { quote: t.quoteId } })).status).toBe(200);
    expect((await api.app.request(`${new URL(link).pathname}/pdf`)).status).toBe(200);
    // A kept PDF costs a read, not a render: its download (public or with a key) takes no slot, even with the
    // company's slots all held.
    const again = [
      await second.deps.concurrency.take(t.companyId, 'pdf_renders'),
      await second.deps.concurrency.take(t.companyId, 'pdf_renders'),
    ];
    const kept = await api.app.request(`${new URL(link).pathname}/pdf`);
    expect(kept.status).toBe(200);
    expect((await api.call('getQuotePdf', { key: t.key, params: { quote: t.quoteId } })).status).toBe(200);
    expect(
      Buffer.from(await kept.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    for (const slot of again) await slot.release();
    const accepted = await api.call('upsertCustomers', {
      key: t.key,
      body: { items: [{ email: 'jan@bakkerijjansen.example.nl', name: 'Jan Jansen' }] },
    });
    expect(accepted.status).toBe(200);
    expect(await inUse(t.companyId)).toEqual({ uploads: 0, pdf_renders: 0, batches: 0 });
  }, 120_000);

  it('frees the slots of a node that stopped renewing them (a crash) once their lease expires', async () => {
    const t = await companyWithQuote();
    await setConcurrencyLimits(api.db, t.companyId, { pdf_renders: 1 });
    // Taken and never released, as by a node that died.
    await api.deps.concurrency.take(t.companyId, 'pdf_renders');
    expect((await api.call('getQuotePdf', { key: t.key, params: { quote: t.quoteId } })).status).toBe(429);
    // Its lease runs out (no renewal comes from a dead node).
    await api.sql`update concurrency_leases set expires_at = clock_timestamp() - interval '1 second'
                  where company = ${t.companyId}`;
    expect((await api.call('getQuotePdf', { key: t.key, params: { quote: t.quoteId } })).status).toBe(200);
  }, 120_000);

  it('company limits sets, shows (--json) and resets the concurrency limits', async () => {
    const t = await api.tenant();
    const run = async (...args: string[]) => {
      const command = parseCommand(['company', 'limits', t.companyId, ...args]);
      if (command.name !== 'company limits') throw new Error(`parsed as ${command.name}`);
      const output = await runCommand(api.deps, command, async () => {});
      if (!output) throw new Error('company limits printed nothing');
      return output;
    };
    const shown = (await run('--json')).json;
    expect(shown.concurrency_limits).toEqual({ uploads: null, pdf_renders: null, batches: null });
    expect(shown.concurrency_limits_in_force).toEqual(api.deps.concurrency.defaults);
    expect(shown.concurrency_slots_in_use).toEqual({ uploads: 0, pdf_renders: 0, batches: 0 });

    const set = (await run('--uploads', '2', '--pdf-renders', '7', '--batches', '1', '--json')).json;
    expect(set.concurrency_limits).toEqual({ uploads: 2, pdf_renders: 7, batches: 1 });
    expect(set.concurrency_limits_in_force).toEqual({ uploads: 2, pdf_renders: 7, batches: 1 });
    // The rate limits are left as they were.
    expect(set.rate_limits).toEqual({ per_minute: null, per_hour: null });
    const text = (await run()).text;
    expect(text).toContain('uploads 2, 0 in use now');

    const reset = (await run('--pdf-renders', 'default', '--json')).json;
    expect(reset.concurrency_limits).toEqual({ uploads: 2, pdf_renders: null, batches: 1 });
    expect(reset.concurrency_limits_in_force).toMatchObject({ pdf_renders: api.deps.concurrency.defaults.pdf_renders });
    expect(() => parseCommand(['company', 'limits', t.companyId, '--uploads', '0'])).toThrow(/--uploads/);
  });

  it('defaults to a share of each pool: a quarter of the connections for uploads, a fifth for batches', () => {
    expect(api.deps.concurrency.defaults.uploads).toBe(Math.ceil(api.config.DATABASE_POOL_SIZE / 4));
    expect(api.deps.concurrency.defaults.batches).toBe(Math.ceil(api.config.DATABASE_POOL_SIZE / 5));
    expect(api.deps.concurrency.defaults.pdf_renders).toBeGreaterThanOrEqual(2);
  });
});
