// How the package's methods reach the service: the URL from the path and query, the key, JSON or multipart bodies,
// retries with backoff and a timeout per attempt, and the answer as data, bytes or a thrown CrmError.
import type { Answer, Call, Caller } from '../../generated/client-methods.ts';
import { CrmError, CrmNetworkError, CrmTimeoutError, type Problem } from './errors.ts';

/** A fresh `Idempotency-Key` for one creation: keep it with the request and send the same key when retrying. */
export const newIdempotencyKey = (): string => crypto.randomUUID();

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

export type RetryOptions = {
  maxRetries: number;
  timeoutMs: number;
  fetch: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
};

/**
 * fetch with retries of 429, 503 and network failures and a timeout per attempt. A POST gets one
 * `Idempotency-Key` (unless it has one) before the first attempt, so every retry of a creation is the same request
 * to the service: it is never created twice. Without any answer it throws CrmNetworkError (CrmTimeoutError when
 * the attempts timed out).
 */
export function retryingFetch(options: RetryOptions) {
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
        throw timedOut
          ? new CrmTimeoutError(options.timeoutMs, attempt + 1, request.method, request.url)
          : new CrmNetworkError(request.method, request.url, attempt + 1, { cause: failure });
      }
      await response?.body?.cancel();
      await wait(backoffMs(response, attempt));
    }
  };
}

/** A non-2xx answer as the CrmError it is (its problem when the body is one). */
export async function errorOf(response: Response): Promise<CrmError> {
  const text = await response.text().catch(() => '');
  let problem: Problem | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'code' in parsed) problem = parsed as Problem;
  } catch {
    // Not JSON (a proxy's page): the status alone.
  }
  return new CrmError(response.status, problem, response.headers.get('X-Request-Id'));
}

/**
 * A query as the contract's parameters are serialized: form style (a list as repeated names), and an object (the
 * deepObject filters `metadata` and `filter[custom_fields]`) as one `name[key]=value` per key; a key with an
 * operator (`employees[gte]`, customFieldFilter) as `name[employees][gte]`. Without the leading `?`.
 */
export function serializeQuery(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, one] of Object.entries(value)) {
        const [, base = key, operator = ''] = /^([^[]+)(\[[a-z]+\])?$/.exec(key) ?? [];
        params.append(`${name}[${base}]${operator}`, String(one));
      }
      continue;
    }
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  return params.toString();
}

const queryString = (query: object | undefined) => {
  const text = serializeQuery(query);
  return text ? `?${text}` : '';
};

export class HttpCaller implements Caller {
  constructor(
    private readonly baseUrl: string,
    private readonly headers: Record<string, string>,
    private readonly fetch: (request: Request) => Promise<Response>,
  ) {}

  private url(call: Call, path: Record<string, string | number>, query: object | undefined): string {
    const filled = call.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(path[name])));
    return `${this.baseUrl}${filled}${queryString(query)}`;
  }

  private async request(
    call: Call,
    url: string,
    body: { json: unknown } | { form: FormData } | undefined,
    options: { header?: object; idempotencyKey?: string } = {},
  ): Promise<Response> {
    const headers = new Headers(this.headers);
    for (const [name, value] of Object.entries(options.header ?? {})) {
      if (value !== undefined && value !== null) headers.set(name, String(value));
    }
    if (options.idempotencyKey) headers.set('Idempotency-Key', options.idempotencyKey);
    let payload: string | FormData | undefined;
    if (body && 'json' in body) {
      headers.set('Content-Type', 'application/json');
      payload = JSON.stringify(body.json);
    } else if (body) payload = body.form;
    const response = await this.fetch(new Request(url, { method: call.method, headers, body: payload }));
    if (!response.ok) throw await errorOf(response);
    return response;
  }

  async send<T>(
    call: Call,
    path: Record<string, string | number>,
    body: { json: unknown } | { form: FormData } | undefined,
    options: { query?: object; header?: object; idempotencyKey?: string } | undefined,
    answer: Answer,
  ): Promise<T> {
    const response = await this.request(call, this.url(call, path, options?.query), body, options);
    if (answer === 'bytes') return new Uint8Array(await response.arrayBuffer()) as T;
    const json = (await response.json()) as T | { data: T };
    return answer === 'data' ? (json as { data: T }).data : (json as T);
  }

  /** Every item of a list, page after page (`meta.next_cursor` until null); leaving the loop stops the paging. */
  async *list<T>(call: Call, path: Record<string, string | number>, query: object | undefined): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const url = this.url(call, path, { ...query, cursor });
      const response = await this.request(call, url, undefined);
      const page = (await response.json()) as { data: T[]; meta?: { next_cursor?: string | null } };
      yield* page.data;
      cursor = page.meta?.next_cursor ?? undefined;
    } while (cursor);
  }
}
