// What a failed statement says about itself. drizzle wraps the driver's error (DrizzleQueryError), so the
// PostgreSQL fields are on the error or on one of its causes.

/**
 * A COMMIT handed to the connection whose answer never came, because the connection was lost: PostgreSQL may have
 * committed or not. Its cause is the connection's error.
 */
export class CommitOutcomeUnknown extends Error {
  constructor(cause: unknown) {
    super('the connection was lost before COMMIT was answered: the transaction may or may not have committed', {
      cause,
    });
    this.name = 'CommitOutcomeUnknown';
  }
}

/** Whether the failure is (or was caused by) a COMMIT of unknown outcome. */
export function isCommitOutcomeUnknown(error: unknown): boolean {
  for (const e of chainOf(error)) if (e instanceof CommitOutcomeUnknown) return true;
  return false;
}

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
 * it cannot be reached or refuses connections (starting, shutting down, too many connections, a standby after a
 * failover), the connection was lost, or it did not answer in time (statement_timeout, under overload). Answered
 * 503 with Retry-After.
 */
/** PostgreSQL aborting a transaction for another's sake: a deadlock, a serialization failure (see transient.ts). */
export const CONFLICT_SQLSTATES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** The connection to the database refused or lost: class 08, a server shutting down or starting. */
const CONNECTION_SQLSTATES: ReadonlySet<string> = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
]);

const UNAVAILABLE_SQLSTATES = new Set([
  // A lost connection, too many connections, statement_timeout, a read-only transaction (a standby promoted or not
  // yet: failover), and a deadlock or serialization failure still there after withTenant's runs (transient.ts).
  ...CONNECTION_SQLSTATES,
  '53300',
  '57014',
  '25006',
  ...CONFLICT_SQLSTATES,
]);
/** postgres.js's own codes for a connection it lost or could not make. */
const DRIVER_CODES = new Set(['CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']);
/** Node's socket errors, when they come from a connection of ours (they name its syscall: connect, read, DNS…). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** The database answered but gave up on the statement: statement_timeout, or a conflict still there after the runs. */
const BUSY_SQLSTATES = new Set(['57014', ...CONFLICT_SQLSTATES]);

/** Whether the database gave up on the request's work (busy or in conflict) rather than being out of reach. */
export function isDatabaseBusy(error: unknown): boolean {
  return hasErrorCode(error, BUSY_SQLSTATES);
}

/**
 * Whether the failure is a database connection refused or lost — and nothing else the database answered (a
 * deadlock, a timeout, a constraint): what a process may outlive when nobody awaited it.
 */
export function isConnectionLost(error: unknown): boolean {
  return failedWith(error, CONNECTION_SQLSTATES);
}

/**
 * Whether the failure is the database being unavailable. The webhook sender and the URL guard answer their own
 * socket and DNS errors, so a socket error that reaches here with a syscall is the database's; Node's error for a
 * client that went away while sending its request (`aborted`, ECONNRESET) has none, and is not counted.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return failedWith(error, UNAVAILABLE_SQLSTATES);
}

/** A SQLSTATE of `sqlstates`, a connection the driver lost, or a socket error of a connection of ours (a syscall). */
function failedWith(error: unknown, sqlstates: ReadonlySet<string>): boolean {
  for (const e of chainOf(error)) {
    const code = 'code' in e && typeof e.code === 'string' ? e.code : undefined;
    if (code === undefined) continue;
    if (sqlstates.has(code) || DRIVER_CODES.has(code)) return true;
    if (SOCKET_CODES.has(code) && 'syscall' in e) return true;
  }
  return false;
}
