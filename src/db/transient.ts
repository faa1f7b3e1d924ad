// A deadlock (40P01) or a serialization failure (40001) is PostgreSQL choosing one transaction to abort so that
// the others can go on. The aborted one was rolled back whole, so it may run again, and it then almost always
// succeeds: the winner's locks go with its commit. Answering such a request with 500 (or failing a worker job
// and sending its messages again after the job's backoff) would turn a rare lock-order race into an error the
// client has to handle. The cause stays visible to operators: PostgreSQL logs every deadlock it breaks.
import { CONFLICT_SQLSTATES, hasErrorCode } from './errors.ts';

/** Runs in all, the first one included. */
export const TRANSACTION_RUNS = 3;

/** Whether the failure is PostgreSQL aborting the transaction for another's sake. */
export function isTransientConflict(error: unknown): boolean {
  return hasErrorCode(error, CONFLICT_SQLSTATES);
}

/**
 * Runs a whole transaction (`run` begins and ends it) again when PostgreSQL aborted it for a deadlock or a
 * serialization failure, up to TRANSACTION_RUNS times, after a short random pause (two victims of the same
 * conflict should not meet again in the same order). `run` must have no effect outside the transaction.
 */
export async function retryingConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= TRANSACTION_RUNS || !isTransientConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
