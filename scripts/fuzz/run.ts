// Sends the generated requests of every operation through the test client (which checks each answer against
// the contract) and judges the answers: valid requests get a declared 2xx/4xx that is not a refusal of the
// input itself; invalid ones get the declared 4xx with the right code naming the bad input.
import type { OperationId } from '../../generated/operations.ts';
import { operations } from '../../generated/operations.ts';
import type { CallOptions, CallResult } from '../../test/harness/api.ts';
import { casesFor, extremeCases, type Fixtures, type FuzzCase, type FuzzRequest, type Refusal } from './requests.ts';

export type Call = (id: OperationId, opts: CallOptions) => Promise<CallResult>;

export type Failure = { operation: OperationId; seed: number; index: number; problem: string; request: string };
export type OperationReport = {
  operation: OperationId;
  valid: number;
  invalid: number;
  statuses: Record<number, number>;
};
export type FuzzReport = { seed: number; operations: OperationReport[]; failures: Failure[]; timedOut: boolean };

/**
 * Field codes only the schema check gives: a request the contract accepts must not get them. (Handlers reuse
 * invalid_enum, too_big and too_small for documented rules the schema cannot express — an unknown event
 * type, `*` combined with other types, a recovery window in the future — so those are not on the list.)
 */
const SCHEMA_CODES = new Set([
  'required',
  'invalid_type',
  'invalid_format',
  'too_long',
  'too_short',
  'unknown_field',
  'unknown_parameter',
  'invalid_json',
]);

type FieldError = { pointer: string | null; parameter: string | null; code: string };

/**
 * Fields an operation's description makes required depending on other fields (a recipient's `name` without a
 * `customer_id`, `email` for channel `email`): a schema cannot say so, so the generator's valid requests may
 * lack them and their `required` refusal is the contract's answer, not a schema violation.
 */
const CONDITIONALLY_REQUIRED: Partial<Record<OperationId, readonly string[]>> = {
  createReviewRequest: ['/name', '/email', '/phone'],
  // `items` without `term_percentage`, `quote_id` with it.
  createInvoice: ['/items', '/quote_id'],
  // A new external_ref's deal needs its customer (an item matched on it does not); `*` stands for any index.
  upsertDeals: ['/items/*/customer_id'],
};
type ProblemBody = { code?: string; errors?: FieldError[] };

/** A stable per-operation seed, so one operation's cases do not depend on which others run. */
export function operationSeed(seed: number, id: string): number {
  let h = seed | 0;
  for (const ch of id) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

const clip = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** The request as a reader can replay it. */
export function describeRequest(id: OperationId, r: FuzzRequest): string {
  const op = operations[id];
  let path: string = op.path;
  for (const [k, v] of Object.entries(r.params)) path = path.replace(`{${k}}`, encodeURIComponent(v));
  const q = new URLSearchParams(r.query).toString();
  const body = r.rawBody !== undefined ? r.rawBody : r.body !== undefined ? JSON.stringify(r.body) : '';
  return clip(
    `${op.method.toUpperCase()} /api/v1${path}${q ? `?${q}` : ''} headers=${JSON.stringify(r.headers)}${body ? ` body=${body}` : ''}`,
  );
}

function toCall(r: FuzzRequest, key: string): CallOptions {
  const headers = { ...r.headers };
  if (r.rawBody !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  return {
    key,
    params: r.params,
    query: r.query,
    headers,
    ...(r.rawBody !== undefined ? { rawBody: r.rawBody } : r.body !== undefined ? { body: r.body } : {}),
  };
}

function names(error: FieldError, at: NonNullable<Refusal['at']>): boolean {
  if ('pointer' in at) return error.pointer === at.pointer || (error.pointer ?? '').startsWith(`${at.pointer}/`);
  return (error.parameter ?? '').toLowerCase() === at.parameter.toLowerCase();
}

/** Why the answer is wrong for the case, or null. */
export function judge(c: FuzzCase, result: CallResult, operation?: OperationId): string | null {
  const body = (result.body ?? {}) as ProblemBody;
  if (result.status >= 500) return `answered ${result.status} ${body.code ?? ''}`;
  if (c.kind === 'valid') {
    // 429 stays possible: some operations have limits of their own (test pings per endpoint).
    if ([401, 403].includes(result.status)) return `a full-access key was refused: ${result.status} ${body.code}`;
    if (result.status === 422) {
      const conditional = (operation && CONDITIONALLY_REQUIRED[operation]) ?? [];
      const refused = (body.errors ?? []).filter(
        (e) =>
          SCHEMA_CODES.has(e.code) &&
          !(e.code === 'required' && conditional.includes((e.pointer ?? '').replace(/\/\d+(?=\/|$)/g, '/*'))),
      );
      if (refused.length)
        return `a request the contract accepts was refused as invalid: ${JSON.stringify(refused).slice(0, 400)}`;
    }
    return null;
  }
  if (c.kind === 'odd') {
    return c.statuses.includes(result.status)
      ? null
      : `answered ${result.status} ${body.code ?? ''}, expected one of ${c.statuses}`;
  }
  if (operation && operations[operation].validatedPerItem && result.status === 200 && c.expect.status === 422) {
    // A batch validates item by item: a bad item fails on its own (outcome `failed` with its problem) and the
    // others go on, so the refusal is that item's problem, naming the field.
    const items = ((result.body ?? {}) as { items?: { outcome: string; problem?: ProblemBody }[] }).items ?? [];
    const failed = items.filter((item) => item.outcome === 'failed' && item.problem);
    const at = c.expect.at;
    if (failed.length === 0) return 'answered 200 with no failed item, expected the bad item to fail';
    if (at && !failed.some((item) => (item.problem?.errors ?? []).some((e) => names(e, at))))
      return `no failed item's problem names ${JSON.stringify(at)}: ${JSON.stringify(failed).slice(0, 300)}`;
    return null;
  }
  const accepted = [{ status: c.expect.status, code: c.expect.code }, ...(c.expect.or ?? [])];
  const match = accepted.find((a) => a.status === result.status && a.code === body.code);
  if (!match) {
    const errors = body.errors ? ` ${JSON.stringify(body.errors).slice(0, 300)}` : '';
    return `answered ${result.status} ${body.code ?? ''}${errors}, expected ${accepted.map((a) => `${a.status} ${a.code}`).join(' or ')}`;
  }
  if (match.status !== c.expect.status || !c.expect.at) return null;
  const at = c.expect.at;
  const named = (body.errors ?? []).filter((e) => names(e, at));
  if (named.length === 0) return `the problem does not name ${JSON.stringify(at)}: ${JSON.stringify(body.errors)}`;
  if (c.expect.fieldCode && !named.some((e) => e.code === c.expect.fieldCode))
    return `the error for ${JSON.stringify(at)} has code ${named.map((e) => e.code).join(',')}, expected ${c.expect.fieldCode}`;
  return null;
}

export type FuzzOptions = {
  seed: number;
  valid: number;
  invalid: number;
  /** Also every text field with NUL, a lone surrogate and 10 000 characters, every date with its extremes. */
  extremes?: boolean;
  /** Send nothing more after this moment (ms since epoch). */
  deadline?: number;
  log?: (line: string) => void;
};

/**
 * How many requests fuzzing `id` sends with these options: what a time limit of its run follows. Fixtures only pick
 * path values, so none are needed to count.
 */
export function requestCount(
  id: OperationId,
  opts: Pick<FuzzOptions, 'seed' | 'valid' | 'invalid' | 'extremes'>,
): number {
  const seed = operationSeed(opts.seed, id);
  const fixtures = { paramSets: [] };
  const cases = casesFor(id, fixtures, { seed, valid: opts.valid, invalid: opts.invalid }).length;
  return cases + (opts.extremes ? extremeCases(id, fixtures, seed).length : 0);
}

/** Fuzzes the operations in order (deleting ones last is the caller's choice) and reports. */
export async function fuzz(
  call: Call,
  key: string,
  ids: OperationId[],
  fixtures: () => Fixtures,
  opts: FuzzOptions,
): Promise<FuzzReport> {
  const report: FuzzReport = { seed: opts.seed, operations: [], failures: [], timedOut: false };
  for (const id of ids) {
    if (opts.deadline && Date.now() > opts.deadline) {
      report.timedOut = true;
      break;
    }
    const seed = operationSeed(opts.seed, id);
    const cases = casesFor(id, fixtures(), { seed, valid: opts.valid, invalid: opts.invalid });
    if (opts.extremes) cases.push(...extremeCases(id, fixtures(), seed));
    const entry: OperationReport = { operation: id, valid: 0, invalid: 0, statuses: {} };
    for (const [index, c] of cases.entries()) {
      if (opts.deadline && Date.now() > opts.deadline) {
        report.timedOut = true;
        break;
      }
      let problem: string | null;
      try {
        const result = await call(id, toCall(c.request, key));
        entry.statuses[result.status] = (entry.statuses[result.status] ?? 0) + 1;
        problem = judge(c, result, id);
      } catch (error) {
        problem = error instanceof Error ? error.message.slice(0, 1500) : String(error);
      }
      if (c.kind === 'valid') entry.valid++;
      else entry.invalid++;
      if (problem) {
        const label = c.kind === 'valid' ? 'valid request' : c.mistake;
        const failure = {
          operation: id,
          seed,
          index,
          problem: `${label}: ${problem}`,
          request: describeRequest(id, c.request),
        };
        report.failures.push(failure);
        opts.log?.(`FAIL ${id} #${index} (seed ${seed}) ${failure.problem}\n     ${failure.request}`);
      }
    }
    report.operations.push(entry);
    const statuses = Object.entries(entry.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    opts.log?.(`${id}: ${entry.valid} valid + ${entry.invalid} invalid requests (${statuses})`);
  }
  return report;
}
