// The request path of every API operation, once: request id → operation → key (401) → rate limit →
// address/account (403) → scope → feature → language → the company's turn (429) → concurrency slot (429) → body
// rules (413/415/422). Every answer, success or problem, leaves with X-Request-Id and the RateLimit headers.
import type { Context, MiddlewareHandler } from 'hono';
import { clientAddress } from '../auth/ip.ts';
import type { Deps } from '../deps.ts';
import { prefixedId } from '../ids.ts';
import { admit } from './admission.ts';
import type { AppEnv } from './app-env.ts';
import { checkRequestBody } from './body-rules.ts';
import { ConcurrencyLimited, concurrencyKindOf, type Slot } from './concurrency.ts';
import { answerOfFailure } from './failures.ts';
import { chooseLanguage } from './language.ts';
import { keepBodyReader } from './lingering-close.ts';
import { ApiProblem, problemResponse } from './problems.ts';
import { socketAddress } from './request-address.ts';
import { mayHaveBody } from './request-body.ts';

export { API_PREFIX } from './request-address.ts';

export function apiPipeline(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const headers: Record<string, string> = {};
    let slot: Slot | undefined;
    try {
      await admit(c, headers);
      const run = async () => {
        // Before the body is read: an upload's slot counts from its first byte, and one too many reads nothing.
        slot = await takeSlot(c);
        await checkRequestBody(c);
        await next();
      };
      const companyId = c.get('operation').authenticated ? c.get('tenant').companyId : undefined;
      if (companyId === undefined || !takesTurn(c)) await run();
      else await c.get('deps').requestTurns.run(companyId, run);
      // A PDF slot refused while the handler rendered (the renderer takes it: pdf/render-pool.ts) went to onError.
      if (c.error instanceof ApiProblem && c.error.code === 'concurrency_limited') c.set('concurrencyLimited', true);
    } catch (error) {
      // Handlers' failures reach onError inside next(); a failure of the checks themselves (a lost
      // database) is answered here, so its 503 or 500 still carries the request id and rate-limit headers.
      if (error instanceof ApiProblem) {
        if (error.code === 'concurrency_limited') c.set('concurrencyLimited', true);
        Object.assign(headers, error.headers);
        c.res = problemResponse(c, error);
      } else c.res = answerOfFailure(c, error);
    } finally {
      // After the handler, however it ended (the client gone mid-upload included).
      await slot?.release();
    }
    // Every response carries rate-limit headers (the contract's Rate limits section). One that no key's window
    // counted (no such operation, another method, an operation that needs no key) shows the client address's
    // window, read without counting.
    if (!('RateLimit' in headers)) Object.assign(headers, await addressWindow(c));
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/**
 * Whether the request waits for its company's turn on this process (request-turns.ts): every request with a key but
 * uploads and PDF renders, which wait for their bodies and the render threads, with limits of their own.
 */
function takesTurn(c: Context<AppEnv>): boolean {
  const kind = concurrencyKindOf(c.get('operationId'), () => new URL(c.req.url).searchParams);
  return kind !== 'uploads' && kind !== 'pdf_renders';
}

/**
 * The slot the request's operation holds while it runs (uploads, batches), if any. A PDF's slot is taken by the
 * renderer around a render only (deps-factory.ts): a kept PDF, downloaded again, costs a read and holds none.
 */
async function takeSlot(c: Context<AppEnv>): Promise<Slot | undefined> {
  const kind = concurrencyKindOf(c.get('operationId'), () => new URL(c.req.url).searchParams);
  if (kind === null || kind === 'pdf_renders' || !c.get('operation').authenticated) return undefined;
  try {
    return await c.get('deps').concurrency.take(c.get('tenant').companyId, kind);
  } catch (error) {
    if (!(error instanceof ConcurrencyLimited)) throw error;
    c.set('concurrencyLimited', true);
    if (!mayHaveBody(c)) throw error;
    // Refused before its body was read: the rest of it is discarded within bounds and the connection closed, as for
    // a body over the limit (lingering-close.ts), instead of the service reading a 10 MB upload it refused.
    const discardRest = keepBodyReader(c);
    throw new ApiProblem(error.code, error.detail, {}, { ...error.headers, Connection: 'close' }, discardRest());
  }
}

/** The client address's window, or none when it cannot be read: the answer itself must not fail for it. */
async function addressWindow(c: Context<AppEnv>): Promise<Record<string, string>> {
  const deps = c.get('deps');
  try {
    const clientIp = clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), deps.config.trustedProxies);
    return await deps.authFailureLimits.peek(clientIp);
  } catch (error) {
    deps.log.warn({ err: error, requestId: c.get('requestId') }, 'rate-limit window could not be read');
    return {};
  }
}

/** Every response of the service, API or not, carries a request id; problems need the errors base URL. */
export function requestContext(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = prefixedId('req');
    c.set('deps', deps);
    c.set('requestId', requestId);
    c.set('errorsUrl', `${deps.config.publicUrl}/errors`);
    c.set('language', chooseLanguage(c.req.header('accept-language')));
    await next();
    c.res.headers.set('X-Request-Id', requestId);
  };
}
