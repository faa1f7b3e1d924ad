// What the client throws: CrmError for every answer of the service that is not a success (a problem, RFC 9457),
// CrmNetworkError when no answer came at all (after the retries), CrmTimeoutError when the answer took too long.
import type { components } from '../../generated/client-api.d.ts';

export type Problem = components['schemas']['Problem'];

/** A non-2xx answer: its status, `code`, field `errors[]` and the `request_id` to quote to support. */
export class CrmError extends Error {
  /** The problem's code (`validation_failed`, `not_found`, …); undefined when the answer was no problem. */
  readonly code: Problem['code'] | undefined;
  /** Per field what was wrong, with a JSON Pointer into the request (`/email`); empty when not about fields. */
  readonly errors: NonNullable<Problem['errors']>;
  /** The request's id (`req_…`) from the problem or the `X-Request-Id` header; null when neither came. */
  readonly request_id: string | null;
  /** The same id as `request_id` (the name of earlier versions). */
  readonly requestId: string | null;
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    requestId: string | null,
  ) {
    super(
      problem
        ? `${status} ${problem.code}: ${problem.title}${problem.detail ? ` (${problem.detail})` : ''}`
        : `HTTP ${status}`,
    );
    this.name = 'CrmError';
    this.code = problem?.code;
    this.errors = problem?.errors ?? [];
    this.request_id = problem?.request_id ?? requestId;
    this.requestId = this.request_id;
  }
}

/** No answer (connection refused or dropped, DNS), after every retry; `cause` is the last failure. */
export class CrmNetworkError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly attempts: number,
    options: { cause?: unknown; message?: string } = {},
  ) {
    super(
      options.message ??
        `${method} ${url}: no answer after ${attempts} attempt${attempts === 1 ? '' : 's'} (${causeText(options.cause)})`,
      { cause: options.cause },
    );
    this.name = 'CrmNetworkError';
  }
}

/** An attempt that got no answer within `timeoutMs`, after its retries (a kind of CrmNetworkError). */
export class CrmTimeoutError extends CrmNetworkError {
  constructor(
    readonly timeoutMs: number,
    attempts: number,
    method = 'GET',
    url = '',
  ) {
    super(method, url, attempts, { message: `no answer within ${timeoutMs} ms (${attempts} attempts)` });
    this.name = 'CrmTimeoutError';
  }
}

/** The innermost reason of a fetch failure (`fetch failed` hides `ECONNREFUSED 127.0.0.1:3000` in its cause). */
function causeText(cause: unknown): string {
  let reason = cause;
  while (reason instanceof Error && reason.cause !== undefined) reason = reason.cause;
  if (reason instanceof Error) return reason.message;
  return String(reason);
}
