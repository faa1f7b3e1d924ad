// What a failure that is not a problem of the request (not an ApiProblem) answers: 503 service_unavailable with
// Retry-After when the database cannot be used for the moment (a restart, a failover, an overload: the client
// should try again, and a load balancer may route elsewhere), 503 outcome_unknown when the connection was lost at
// COMMIT (the change may be made: repeat only with the same Idempotency-Key), otherwise 500 internal_error. Both are logged with
// the request id; neither is stored with an Idempotency-Key, so the request can be repeated.
import type { Context } from 'hono';
import { isCommitOutcomeUnknown, isDatabaseBusy, isDatabaseUnavailable } from '../db/errors.ts';
import type { AppEnv } from './app-env.ts';
import { message } from './messages.ts';
import { ApiProblem, problemResponse } from './problems.ts';

/** How long a client should wait: postgres.js connects again at once, a restart or failover takes seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function problemOfFailure(c: Context<AppEnv>, error: unknown): ApiProblem {
  const log = c.get('deps').log;
  const requestId = c.get('requestId');
  if (isCommitOutcomeUnknown(error)) {
    // Not "try again": the change may be made already. Only a repeat with the same Idempotency-Key or If-Match is
    // safe (the key's stored answer commits with the change, so it replays the change if it was made).
    log.warn({ err: error, requestId }, 'commit outcome unknown');
    return new ApiProblem(
      'outcome_unknown',
      message('request.outcome_unknown'),
      {},
      { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    );
  }
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

/**
 * nginx's "client closed request": the status of an answer that reaches nobody, so that whatever reads it (a log, a
 * proxy) does not count it as a failure of the service.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Node's error for a request whose client went away (or was cut off at the request timeout) while it was being
 * read: ECONNRESET "aborted", raised on the request itself, so without the `syscall` of a socket of ours.
 */
function isClientAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === 'ECONNRESET' &&
    !('syscall' in error) &&
    error.message === 'aborted'
  );
}

/** The answer to a failure that is not a problem of the request: a client gone away is no failure of ours. */
export function answerOfFailure(c: Context<AppEnv>, error: unknown): Response {
  if (isClientAbort(error)) {
    // Anyone can hang up mid-body at will: at error level it would flood the log and hide real failures.
    c.get('deps').log.info({ requestId: c.get('requestId') }, 'client closed the connection');
    return new Response(null, { status: CLIENT_CLOSED_REQUEST });
  }
  return problemResponse(c, problemOfFailure(c, error));
}
