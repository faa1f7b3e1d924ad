// The installable SDK, `@crm-workflow/client` (`npm run build:client` packs it): every resource of the contract
// with its methods (generated/client-methods.ts, written from the contract by `npm run generate`), auto-paging
// lists, retries, timeouts, one error class for the service's problems and webhook verification. Its types are
// the contract cut to what it exposes (generated/client-api.d.ts).
import type { components, operations } from '../../generated/client-api.d.ts';
import { Resources } from '../../generated/client-methods.ts';
import { HttpCaller, retryingFetch } from './caller.ts';

export { newIdempotencyKey, retryingFetch } from './caller.ts';
export { type CustomFieldCondition, customFieldFilter } from './custom-fields.ts';
export { CrmError, CrmNetworkError, CrmTimeoutError, type Problem } from './errors.ts';
export { type HeaderRecord, type HeadersLike, verifyWebhook, type WebhookHeaders } from './webhooks.ts';
export type { components, operations };
/** The contract's objects by name: `Schemas['Customer']`, `Schemas['Deal']`, `Schemas['Event']`, … */
export type Schemas = components['schemas'];

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/api/v1';

export type SdkOptions = {
  /** An API key (`svc_…`), sent as `Authorization: Bearer` (default: CRM_API_KEY). */
  apiKey?: string;
  /** The API's base, ending in `/api/v1` (default: CRM_API_URL, else a local `npm start`). */
  baseUrl?: string;
  /** Language of problem titles and localized names (`Accept-Language`); else the company's language. */
  language?: 'nl' | 'en' | 'de' | 'fr';
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of 429, 503 and network errors (default 3), with backoff that honours `Retry-After`. */
  maxRetries?: number;
  /** Milliseconds per attempt before it is aborted and retried (default 30 000). */
  timeoutMs?: number;
  /** Another fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** How the backoff waits (default setTimeout); a test or a scheduler of its own can take the time. */
  sleep?: (ms: number) => Promise<void>;
};

/**
 * The SDK: `const crm = new Crm()` (key and base from CRM_API_KEY and CRM_API_URL, or the options). Every resource
 * of the contract is a property (`crm.customers`, `crm.invoices`, …) with a method per operation; methods answer
 * the contract's objects, lists are async iterables over every page, and problems are thrown as CrmError.
 */
export class Crm extends Resources {
  constructor(options: SdkOptions = {}) {
    const env = typeof process === 'undefined' ? {} : process.env;
    const apiKey = options.apiKey ?? env.CRM_API_KEY;
    if (!apiKey) throw new Error('no API key: pass { apiKey } or set CRM_API_KEY');
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, ...options.headers };
    if (options.language) headers['Accept-Language'] = options.language;
    const baseUrl = (options.baseUrl ?? env.CRM_API_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const fetcher = retryingFetch({
      maxRetries: options.maxRetries ?? 3,
      timeoutMs: options.timeoutMs ?? 30_000,
      fetch: options.fetch ?? globalThis.fetch,
      sleep: options.sleep,
    });
    super(new HttpCaller(baseUrl, headers, fetcher));
  }
}
