// What a failure that is not a problem of the request (not an ApiProblem) answers: 503 service_unavailable with
// Retry-After when the database cannot be used for the moment (a restart, a failover, an overload: the client
// should try again, and a load balancer may route elsewhere), otherwise 500 internal_error. Both are logged with
// the request id; neither is stored with an Idempotency-Key, so the request can be repeated.
import type { Context } from 'hono';
import { isDatabaseBusy, isDatabaseUnavailable } from '../db/errors.ts';
import type { AppEnv } from './app-env.ts';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';

/** How long a client should wait: postgres.js connects again at once, a restart or failover takes seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function problemOfFailure(c: Context<AppEnv>, error: unknown): ApiProblem {
  const log = c.get('deps').log;
  const requestId = c.get('requestId');
  if (isDatabaseUnavailable(error)) {
    log.warn({ err: error, requestId }, 'database unavailable');
    // A timeout or conflict rolled the transaction back: nothing was changed. A lost connection cannot say so.
    return new ApiProblem(
      'service_unavailable',
      message(isDatabaseBusy(error) ? 'request.database_busy' : 'request.database_unavailable'),
      {},
      { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    );
  }
  log.error({ err: error, requestId }, 'unexpected failure');
  return new ApiProblem('internal_error', message('request.internal_error'));
}
