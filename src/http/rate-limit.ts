// Per-key rate limits in named windows (memory on one node, Redis when REDIS_URL is set), reported as IETF
// RateLimit / RateLimit-Policy structured fields on every response.
import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export type Window = { name: string; limit: number; windowSeconds: number };

// ioredis is loaded when a Redis client is made (REDIS_URL set), not with this module: as the AWS SDK in
// files/s3-storage.ts, so that a node counting in its own memory (and every test file) does not load it.
const require = createRequire(import.meta.url);
const ioredis = () => require('ioredis') as typeof IoRedis;

export const KEY_WINDOWS: Window[] = [
  { name: 'minute', limit: 600, windowSeconds: 60 },
  { name: 'hour', limit: 20_000, windowSeconds: 3600 },
];
/** Test messages per webhook endpoint (the contract), so the API cannot be used to hammer a receiver. */
export const WEBHOOK_TEST_WINDOWS: Window[] = [{ name: 'webhook_test', limit: 10, windowSeconds: 60 }];
/** Downloads through signed links (they need no key) per client address. */
export const DOWNLOAD_WINDOWS: Window[] = [{ name: 'downloads', limit: 300, windowSeconds: 60 }];
/** The web-chat widget's visitor API (no key) per client address: a polling widget asks every few seconds. */
export const WIDGET_WINDOWS: Window[] = [{ name: 'widget', limit: 120, windowSeconds: 60 }];
/** New widget sessions (each a lead and a conversation) per client address: keeps the inbox from being flooded. */
export const WIDGET_SESSION_WINDOWS: Window[] = [{ name: 'widget_sessions', limit: 10, windowSeconds: 3600 }];
/** The public review feed and widget (they need no key) per client address. */
export const PUBLIC_WINDOWS: Window[] = [{ name: 'public', limit: 120, windowSeconds: 60 }];
/**
 * The review pages (`/review/{token}`, each visit a database lookup that locks the request's row) per client
 * address: a customer opens a page a few times, a script opening thousands is held back.
 */
export const REVIEW_PAGE_WINDOWS: Window[] = [{ name: 'review_pages', limit: 60, windowSeconds: 60 }];
/** The online quote and invoice pages (outside the API), per client address: each visit reads the document. */
export const DOCUMENT_PAGE_WINDOWS: Window[] = [{ name: 'document_pages', limit: 60, windowSeconds: 60 }];
/**
 * "Pay now" clicks per invoice link (`/invoice/{token}/pay`, also counted per address in DOCUMENT_PAGE_WINDOWS):
 * each may ask the payment provider, so a link shared or scripted cannot make the company's provider account busy.
 */
export const PAY_START_WINDOWS: Window[] = [{ name: 'pay_starts', limit: 20, windowSeconds: 600 }];
/**
 * PDF renders caused through public links (a kept PDF is not counted: src/pdf/rendered-pdfs.ts), per client
 * address and per document, in 10 minutes; the limits are the config's PUBLIC_PDF_RENDERS_PER_*.
 */
export const publicRenderWindows = (limit: number): Window[] => [{ name: 'pdf_renders', limit, windowSeconds: 600 }];
/** Failed authentications per client address: keeps key guessing slow. */
export const AUTH_FAILURE_WINDOWS: Window[] = [{ name: 'auth', limit: 60, windowSeconds: 60 }];

/**
 * How long a Redis command may take before the insurance limiter answers instead: a Redis that stopped answering
 * (stalled, a network partition) must not hold requests, and a lost connection fails at once (no offline queue).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

/** The Redis client the rate limits use. */
export function rateLimitRedis(url: string): Redis {
  return new (ioredis().Redis)(url, { enableOfflineQueue: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
}

export type RateDecision = { allowed: boolean; headers: Record<string, string>; retryAfter: number };

type Limiter = { window: Window; limiter: RateLimiterMemory | RateLimiterRedis };

/** A window's limit set for one subject (a company's, CLI `company limits`); null: the window's own. */
export type LimitOverrides = Partial<Record<string, number | null>>;

/**
 * The counters count every request and never refuse by themselves; the limit is applied per request
 * (`overrides`), so a subject's limit can change without its count starting over.
 */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

export class RateLimits {
  private readonly limiters: Limiter[];
  constructor(
    readonly windows: Window[],
    prefix: string,
    redis?: Redis,
  ) {
    this.limiters = windows.map((window) => {
      const options = {
        keyPrefix: `rl:${prefix}:${window.name}`,
        points: UNLIMITED,
        duration: window.windowSeconds,
      };
      // While Redis cannot be reached, each node counts in its own memory (rate-limiter-flexible's insurance
      // limiter): the limits hold per node instead of every request failing with 500.
      return {
        window,
        limiter: redis
          ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
          : new RateLimiterMemory(options),
      };
    });
  }

  /** The windows with the limits of `overrides` (GET /me, the headers). */
  windowsWith(overrides: LimitOverrides = {}): Window[] {
    return this.windows.map((w) => ({ ...w, limit: overrides[w.name] ?? w.limit }));
  }

  policyHeader(overrides: LimitOverrides = {}): string {
    return this.windowsWith(overrides)
      .map((w) => `"${w.name}";q=${w.limit};w=${w.windowSeconds}`)
      .join(', ');
  }

  /** Counts one request for `subject` in every window; the tightest window is reported. */
  async consume(subject: string, overrides: LimitOverrides = {}): Promise<RateDecision> {
    const results = await Promise.all(
      this.limiters.map(async ({ window, limiter }) => {
        const res = await limiter.consume(subject);
        const limit = overrides[window.name] ?? window.limit;
        return { window, limit, res, allowed: res.consumedPoints <= limit };
      }),
    );
    const denied = results.filter((r) => !r.allowed);
    return {
      allowed: denied.length === 0,
      retryAfter: Math.max(...denied.map((d) => Math.ceil(d.res.msBeforeNext / 1000)), 0),
      headers: this.headersOf(denied.length ? denied : results, overrides),
    };
  }

  /** The headers for `subject` without counting a request (an answer that is not the subject's doing). */
  async peek(subject: string, overrides: LimitOverrides = {}): Promise<Record<string, string>> {
    return (await this.check(subject, overrides)).headers;
  }

  /** Whether `subject` has requests left, without counting one: a window used up refuses the next request. */
  async check(subject: string, overrides: LimitOverrides = {}): Promise<RateDecision> {
    const results = await Promise.all(
      this.limiters.map(async ({ window, limiter }) => {
        const limit = overrides[window.name] ?? window.limit;
        // Nothing counted yet: the whole window is left.
        const res = (await limiter.get(subject)) ?? new RateLimiterRes(UNLIMITED, window.windowSeconds * 1000, 0);
        return { window, limit, res };
      }),
    );
    const usedUp = results.filter((r) => remaining(r) === 0);
    return {
      allowed: usedUp.length === 0,
      retryAfter: Math.max(...usedUp.map((d) => Math.ceil(d.res.msBeforeNext / 1000)), 0),
      headers: this.headersOf(usedUp.length ? usedUp : results, overrides),
    };
  }

  /** The tightest window (fewest requests left, then the longest wait) as RateLimit, with the policy. */
  private headersOf(results: Counted[], overrides: LimitOverrides): Record<string, string> {
    const tightest = results.reduce((a, b) =>
      remaining(b) < remaining(a) || (remaining(b) === remaining(a) && b.res.msBeforeNext > a.res.msBeforeNext) ? b : a,
    );
    const seconds = Math.ceil(tightest.res.msBeforeNext / 1000);
    return {
      RateLimit: `"${tightest.window.name}";r=${remaining(tightest)};t=${seconds}`,
      'RateLimit-Policy': this.policyHeader(overrides),
    };
  }
}

type Counted = { window: Window; limit: number; res: RateLimiterRes };
const remaining = (r: Counted) => Math.max(0, r.limit - r.res.consumedPoints);
