// What a failed statement says about itself. drizzle wraps the driver's error (DrizzleQueryError), so the
// PostgreSQL fields are on the error or on one of its causes.

/** The error and its causes, outermost first. */
function* chainOf(error: unknown): Generator<object> {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = 'cause' in e ? e.cause : undefined) yield e;
}

/** The constraint a failed statement violated. */
export function violatedConstraint(error: unknown): string | undefined {
  for (const e of chainOf(error)) {
    if ('constraint_name' in e && typeof e.constraint_name === 'string') return e.constraint_name;
  }
  return undefined;
}

/** Whether the error or one of its causes carries one of `codes` (a SQLSTATE, or the driver's or Node's code). */
export function hasErrorCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (const e of chainOf(error)) {
    if ('code' in e && typeof e.code === 'string' && codes.has(e.code)) return true;
  }
  return false;
}

/**
 * Failures that say the database cannot be used for the moment, not that the request or the service is wrong:
 * it cannot be reached or refuses connections (starting, shutting down, too many connections), the connection was
 * lost, or it did not answer in time (statement_timeout, under overload). Answered 503 with Retry-After.
 */
const UNAVAILABLE = new Set([
  // Node's socket errors and postgres.js's own codes for a lost or unobtainable connection.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  // SQLSTATE: connection exceptions (class 08), shutdown and start-up (57P01–57P03), too many connections,
  // statement_timeout (57014).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  // A deadlock or serialization failure still there after withTenant's runs (transient.ts).
  '40P01',
  '40001',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  return hasErrorCode(error, UNAVAILABLE);
}
