// Schema-driven fuzzing of every built operation (scripts/fuzz): requests generated from the contract's
// schemas, valid ones and ones with one deliberate mistake, and every text field with NUL, a lone surrogate and
// 10 000 characters and every date field with the ends of the calendar (never a 5xx); each answer checked against
// the contract by the test client. Short and seeded here; `npm run fuzz` runs the same with more requests and a time bound.
// Replay a failure with FUZZ_SEED=<seed printed below>.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OperationId, operations } from '../../generated/operations.ts';
import type { Fixtures } from '../../scripts/fuzz/requests.ts';
import { type Failure, fuzz, type OperationReport, requestCount } from '../../scripts/fuzz/run.ts';
import { takesUpload } from '../../src/http/upload.ts';
import { builtOperations } from '../../src/resources/index.ts';
import { pipelineOf, userOf } from '../features/deals/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 7_2024);
const VALID = Number(process.env.FUZZ_VALID ?? 12);
const INVALID = Number(process.env.FUZZ_INVALID ?? 20);
/** `npm run fuzz` bounds the whole run in time: operations not reached are reported, not failed. */
const DEADLINE = process.env.FUZZ_SECONDS ? Date.now() + Number(process.env.FUZZ_SECONDS) * 1000 : undefined;
/**
 * Each operation's time limit follows its work: its number of requests times what one request may take on a loaded
 * machine, so a slow machine gives a slow run and only a hanging request fails (`npm run fuzz` sets the whole budget).
 */
const PER_REQUEST_MS = 5_000;
const timeLimitOf = (id: OperationId) =>
  process.env.FUZZ_OPERATION_TIMEOUT_MS
    ? Number(process.env.FUZZ_OPERATION_TIMEOUT_MS)
    : requestCount(id, { seed: SEED, valid: VALID, invalid: INVALID, extremes: true }) * PER_REQUEST_MS;

/**
 * Left to their own tests: file uploads (multipart; test/features/quote-attachments), whose body generated from a
 * 10 MB binary schema costs minutes, and operations without a key (signed download links; test/features/files),
 * whose path parameter no fixture provides (the fuzzer would wait for one forever).
 */
const fuzzable = (id: OperationId) => !takesUpload(id) && operations[id].authenticated;
const FUZZED = builtOperations.filter(fuzzable);
/** Deleting operations last, so the records the others point at exist while they run. */
const ORDER: OperationId[] = [
  ...FUZZED.filter((id) => !id.startsWith('delete')),
  ...FUZZED.filter((id) => id.startsWith('delete')),
];

let api: TestApi;
let key: string;
const fixtures: Fixtures = { paramSets: [] };
const reports: OperationReport[] = [];
const failures: Failure[] = [];
let skipped = 0;

beforeAll(async () => {
  api = await setupApi(
    { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    { keyWindows: [{ name: 'minute', limit: 1_000_000, windowSeconds: 60 }] },
  );
  const tenant = await api.tenant();
  key = tenant.key;
  await pipelineOf(api, tenant.companyId);
  await userOf(api, tenant.companyId);
  await userOf(api, tenant.companyId, 'inactive');
  const created = async (id: OperationId, opts: Parameters<TestApi['call']>[1]) => {
    const res = await api.call(id, { key, ...opts });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: string };
  };
  for (let i = 0; i < 4; i++) {
    const customer = await created('createCustomer', { body: { email: `fuzz-${i}@example.nl`, name: `Klant ${i}` } });
    fixtures.paramSets.push({ customer: customer.id });
    for (let n = 0; n < 2; n++) {
      const note = await created('createCustomerNote', {
        params: { customer: customer.id },
        body: { content: `Note ${n}` },
      });
      fixtures.paramSets.push({ customer: customer.id, note: note.id });
    }
    if (i < 3) {
      const deal = await created('createDeal', { body: { customer_id: customer.id, title: `Deal ${i}` } });
      fixtures.paramSets.push({ deal: deal.id });
      for (let n = 0; n < 2; n++) {
        const note = await created('createDealNote', {
          params: { deal: deal.id },
          body: { content: `Deal note ${n}` },
        });
        fixtures.paramSets.push({ deal: deal.id, note: note.id });
      }
    }
  }
  for (let i = 0; i < 3; i++) {
    // Port 9 (discard) is closed: a test ping fails at once instead of waiting.
    const endpoint = await created('createWebhookEndpoint', {
      body: { url: `http://127.0.0.1:9/hook-${i}`, events: ['*'] },
    });
    fixtures.paramSets.push({ endpoint: endpoint.id });
  }
  const events = await api.call('listEvents', { key, query: { limit: 5 } });
  for (const event of events.body.data as { id: string }[]) fixtures.paramSets.push({ event: event.id });
});

afterAll(() => {
  const requests = reports.reduce((n, r) => n + r.valid + r.invalid, 0);
  console.log(
    [
      `fuzz: seed ${SEED}, ${reports.length} operations covered${skipped ? ` (${skipped} not reached in time)` : ''}, ` +
        `${VALID} valid + ${INVALID} invalid requests per operation, ${requests} requests, ${failures.length} failures`,
      ...failures.map((f) => `  ${f.operation} #${f.index} (seed ${f.seed}): ${f.problem}\n    ${f.request}`),
    ].join('\n'),
  );
});

describe(`fuzzing every built operation (seed ${SEED})`, () => {
  it('covers every built operation', () => {
    expect(ORDER.length).toBe(builtOperations.filter(fuzzable).length);
    expect(ORDER.length).toBeGreaterThan(0);
  });

  for (const id of ORDER) {
    it(
      `${id} answers generated requests within the contract`,
      async () => {
        if (DEADLINE && Date.now() > DEADLINE) {
          skipped++;
          return;
        }
        const report = await fuzz(api.call, key, [id], () => fixtures, {
          seed: SEED,
          valid: VALID,
          invalid: INVALID,
          extremes: true,
          deadline: DEADLINE,
          log: process.env.FUZZ_VERBOSE ? (line) => console.log(line) : undefined,
        });
        reports.push(...report.operations);
        failures.push(...report.failures);
        expect(report.failures.map((f) => `${f.problem}\n    ${f.request}`)).toEqual([]);
      },
      timeLimitOf(id),
    );
  }
});
