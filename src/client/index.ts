// The typed client for integrators (`crm-workflow-service/client`): openapi-fetch over the contract's
// openapi-typescript types (generated/api.d.ts), so every path, parameter, header, body and answer is checked by
// the compiler against the same contract the service is generated from. It imports nothing of the service.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { Webhook } from 'standardwebhooks';
import type { components, operations, paths } from '../../generated/api.d.ts';

export type { components, operations, paths };
/** The contract's objects by name: `Schemas['Customer']`, `Schemas['Deal']`, `Schemas['Event']`, … */
export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];
export type CrmClient = Client<paths>;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/api/v1';

export type CrmClientOptions = {
  /** An API key (`svc_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** The API's base, ending in `/api/v1`: `PUBLIC_URL` + `/api/v1` (default: a local `npm start`). */
  baseUrl?: string;
  /** Language of problem titles and localized names (`Accept-Language`); else the company's language. */
  language?: 'nl' | 'en' | 'de' | 'fr';
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Another fetch (tests, proxies, retries). */
  fetch?: ClientOptions['fetch'];
};

/**
 * A client of one company's API key. Calls are `client.GET('/customers/{customer}', { params: { path: {
 * customer } } })`; the answer is `{ data, error, response }`: `data` for a 2xx, else `error` (a Problem).
 */
export function createCrmClient(options: CrmClientOptions): CrmClient {
  const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, ...options.headers };
  if (options.language) headers['Accept-Language'] = options.language;
  return createClient<paths>({
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** A non-2xx answer as an error: its status, the Problem (RFC 9457) and the request id to quote to support. */
export class CrmApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly requestId: string | null,
  ) {
    super(
      problem
        ? `${status} ${problem.code}: ${problem.title}${problem.detail ? ` (${problem.detail})` : ''}`
        : `HTTP ${status}`,
    );
    this.name = 'CrmApiError';
  }
}

/** The body of a 2xx answer, or a thrown CrmApiError: `const { data } = ok(await client.GET('/me'))`. */
export function ok<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): NonNullable<R['data']> {
  if (result.response.ok && result.data !== undefined) return result.data as NonNullable<R['data']>;
  const problem = result.error && typeof result.error === 'object' ? (result.error as Problem) : undefined;
  throw new CrmApiError(result.response.status, problem, result.response.headers.get('X-Request-Id'));
}

/** One page of a list: the list envelope every list operation answers. */
type Page<T> = { data: T[]; meta: { next_cursor: string | null } };

/**
 * Every item of a list, page after page: `page(cursor)` fetches one page (the first with `undefined`), and the
 * next is requested with the answer's `meta.next_cursor` until it is `null`. Lists are keyset-paginated, so an
 * item created meanwhile neither repeats nor shifts the pages.
 */
export async function* listAll<T>(
  page: (cursor: string | undefined) => Promise<{ data?: Page<T>; error?: unknown; response: Response }>,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { data, meta } = ok(await page(cursor));
    yield* data;
    cursor = meta.next_cursor ?? undefined;
  } while (cursor);
}

/** A fresh `Idempotency-Key` for one creation: keep it with the request and send the same key when retrying. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

// ---------------------------------------------------------------------------------------------------------------
// The installable SDK (`npm run build:client` packs it): resources with auto-paging, retries, timeouts, typed errors.

/** A problem answer thrown by the SDK: its `code`, field `errors[]` and `request_id` to quote to support. */
export class CrmError extends CrmApiError {
  readonly code: string | undefined;
  readonly errors: NonNullable<Problem['errors']>;
  readonly request_id: string | null;
  constructor(status: number, problem: Problem | undefined, requestId: string | null) {
    super(status, problem, requestId);
    this.name = 'CrmError';
    this.code = problem?.code;
    this.errors = problem?.errors ?? [];
    this.request_id = problem?.request_id ?? requestId;
  }
}

export type SdkOptions = Partial<Omit<CrmClientOptions, 'fetch'>> & {
  /** Retries of 429, 503 and network errors (default 3), with backoff that honours `Retry-After`. */
  maxRetries?: number;
  /** Milliseconds per attempt before it is aborted and retried (default 30 000). */
  timeoutMs?: number;
  /** Another fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** How the backoff waits (default setTimeout); a test or a scheduler of its own can take the time. */
  sleep?: (ms: number) => Promise<void>;
};

/** An attempt that got no answer within `timeoutMs` (after its retries): thrown instead of the fetch's AbortError. */
export class CrmTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly attempts: number,
  ) {
    super(`no answer within ${timeoutMs} ms (${attempts} attempts)`);
    this.name = 'CrmTimeoutError';
  }
}

const RETRY_STATUSES = new Set([429, 503]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds of `Retry-After` (seconds or an HTTP date), else exponential backoff with jitter from 0.5 s, at most 20 s. */
function backoffMs(response: Response | undefined, attempt: number): number {
  const header = response?.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (ms >= 0) return Math.min(ms, 60_000);
  }
  return Math.min(20_000, 500 * 2 ** attempt) * (0.5 + Math.random() / 2);
}

/**
 * fetch with retries and a timeout per attempt. A POST gets one `Idempotency-Key` (unless it has one) before the
 * first attempt, so every retry of a creation is the same request to the service: it is never created twice.
 */
export function retryingFetch(options: {
  maxRetries: number;
  timeoutMs: number;
  fetch: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}) {
  const wait = options.sleep ?? sleep;
  return async (input: Request): Promise<Response> => {
    const request = input.clone();
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', newIdempotencyKey());
    }
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await options.fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        failure = error;
      }
      const retryable = response === undefined || RETRY_STATUSES.has(response.status);
      if (!retryable && response) return response;
      if (attempt >= options.maxRetries) {
        if (response) return response;
        const timedOut = failure instanceof Error && failure.name === 'TimeoutError';
        throw timedOut ? new CrmTimeoutError(options.timeoutMs, attempt + 1) : failure;
      }
      await response?.body?.cancel();
      await wait(backoffMs(response, attempt));
    }
  };
}

/** The body of a 2xx answer, or a thrown CrmError. */
function data<R extends { data?: unknown; error?: unknown; response: Response }>(result: R): NonNullable<R['data']> {
  if (result.response.ok && result.data !== undefined) return result.data as NonNullable<R['data']>;
  const problem = result.error && typeof result.error === 'object' ? (result.error as Problem) : undefined;
  throw new CrmError(result.response.status, problem, result.response.headers.get('X-Request-Id'));
}

type ListCustomersQuery = NonNullable<operations['listCustomers']['parameters']['query']>;
type CustomerCreate = Schemas['CustomerCreate'];
type CustomerUpdate = Schemas['CustomerUpdate'];
type CustomerBatchItem = Schemas['CustomerBatchItem'];
type ListDealsQuery = NonNullable<operations['listDeals']['parameters']['query']>;
type DealBatchItem = Schemas['DealBatchItem'];

type BatchOptions = { atomic?: boolean; idempotencyKey?: string };
/** A batch's query and headers: all or nothing or item by item, and the caller's Idempotency-Key if any. */
const batchParams = (opts: BatchOptions) => ({
  query: { atomic: opts.atomic ?? false },
  header: opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {},
});

/**
 * The SDK: `const crm = new Crm()` (key and base from CRM_API_KEY and CRM_API_URL, or the options). Resources
 * answer the contract's objects and throw CrmError; `crm.api` is the typed client of every operation.
 */
export class Crm {
  readonly api: CrmClient;
  constructor(options: SdkOptions = {}) {
    const env = typeof process === 'undefined' ? {} : process.env;
    const apiKey = options.apiKey ?? env.CRM_API_KEY;
    if (!apiKey) throw new Error('no API key: pass { apiKey } or set CRM_API_KEY');
    const fetcher = retryingFetch({
      maxRetries: options.maxRetries ?? 3,
      timeoutMs: options.timeoutMs ?? 30_000,
      fetch: options.fetch ?? globalThis.fetch,
      sleep: options.sleep,
    });
    this.api = createCrmClient({ ...options, apiKey, baseUrl: options.baseUrl ?? env.CRM_API_URL, fetch: fetcher });
  }

  readonly customers = {
    /** Every customer matching `query`, page after page: `for await (const c of crm.customers.list())`. */
    list: (query: Omit<ListCustomersQuery, 'cursor'> = {}) =>
      listAll((cursor) => this.api.GET('/customers', { params: { query: { ...query, cursor } } })),
    get: async (id: string) =>
      data(await this.api.GET('/customers/{customer}', { params: { path: { customer: id } } })).data,
    /** A lead; retried safely (one Idempotency-Key for every attempt, or yours). */
    create: async (body: CustomerCreate, opts: { idempotencyKey?: string } = {}) =>
      data(
        await this.api.POST('/customers', {
          body,
          params: { header: opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {} },
        }),
      ).data,
    update: async (id: string, body: CustomerUpdate) =>
      data(await this.api.PATCH('/customers/{customer}', { params: { path: { customer: id } }, body })).data,
    /** Up to 100 customers created or updated (POST /customers/batch). */
    batch: async (items: CustomerBatchItem[], opts: BatchOptions = {}) =>
      data(await this.api.POST('/customers/batch', { body: { items }, params: batchParams(opts) })),
  };

  readonly deals = {
    /** Every deal matching `query`, page after page (`filter[external_ref]` finds one by its reference). */
    list: (query: Omit<ListDealsQuery, 'cursor'> = {}) =>
      listAll((cursor) => this.api.GET('/deals', { params: { query: { ...query, cursor } } })),
    get: async (id: string) => data(await this.api.GET('/deals/{deal}', { params: { path: { deal: id } } })).data,
    /** Up to 100 deals created or updated, matched on `id` or `external_ref` (POST /deals/batch). */
    batch: async (items: DealBatchItem[], opts: BatchOptions = {}) =>
      data(await this.api.POST('/deals/batch', { body: { items }, params: batchParams(opts) })),
  };
}

/**
 * Checks a webhook message's Standard Webhooks signature (and its timestamp: at most 5 minutes off) on the raw
 * body, and answers the parsed event; throws when the message is not from the service.
 */
export function verifyWebhook(
  body: string,
  headers: Headers | Record<string, string>,
  secret: string,
): Schemas['Event'] {
  const plain = headers instanceof Headers ? Object.fromEntries(headers.entries()) : headers;
  return new Webhook(secret).verify(body, plain) as Schemas['Event'];
}
