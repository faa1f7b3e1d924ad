// The typed client for integrators (`crm-workflow-service/client`): openapi-fetch over the contract's
// openapi-typescript types (generated/api.d.ts), so every path, parameter, header, body and answer is checked by
// the compiler against the same contract the service is generated from. It imports nothing of the service.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from '../../generated/api.d.ts';
import { serializeQuery } from './caller.ts';
import { CrmError } from './errors.ts';

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
    // The SDK's serializer: openapi-fetch's would send a range of filter[custom_fields] as `[employees[gte]]`.
    querySerializer: serializeQuery,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** The name of earlier versions for CrmError: one class for every problem the service answers. */
export const CrmApiError = CrmError;
export type CrmApiError = CrmError;

/** The body of a 2xx answer, or a thrown CrmError: `const { data } = ok(await client.GET('/me'))`. */
export function ok<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): NonNullable<R['data']> {
  if (result.response.ok && result.data !== undefined) return result.data as NonNullable<R['data']>;
  const problem = result.error && typeof result.error === 'object' ? (result.error as Problem) : undefined;
  throw new CrmError(result.response.status, problem, result.response.headers.get('X-Request-Id'));
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

// The installable SDK (every resource's methods, retries, errors, webhooks), also part of this export.
export * from './sdk.ts';
