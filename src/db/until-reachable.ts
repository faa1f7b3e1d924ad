// A process that starts while its database cannot be reached (restarting, failing over, or still starting next to
// it) waits for it instead of exiting. Found in the db-restart drill (issue 38, point 19): under load the worker
// was still starting when the drill stopped the database, and the first statement of its start (the key cache's
// LISTEN) rejected with ECONNREFUSED or 57P03 through main's top-level await — an exit with code 1 that looked like
// an unhandled rejection from postgres.js's re-listen path.
import { isConnectionLost } from './errors.ts';

/** How often the start is tried again, and for how long before it gives up (a supervisor then restarts it). */
export const START_RETRY_MS = 1_000;
export const START_GIVE_UP_MS = 5 * 60_000;

/**
 * Runs `start` again every `retryMs` while it fails only because the database cannot be reached (a connection
 * refused or lost), at most `giveUpMs`; any other failure, or the last one, is thrown. `start` must release what it
 * opened when it fails. `log` gets a line for the first failure and then one a minute.
 */
export async function untilDatabaseReachable<T>(
  start: () => Promise<T>,
  log: (line: string) => void,
  { retryMs = START_RETRY_MS, giveUpMs = START_GIVE_UP_MS } = {},
): Promise<T> {
  const begun = Date.now();
  let lastLogged = Number.NEGATIVE_INFINITY;
  for (;;) {
    try {
      return await start();
    } catch (error) {
      if (!isConnectionLost(error) || Date.now() - begun >= giveUpMs) throw error;
      if (Date.now() - lastLogged >= 60_000) {
        lastLogged = Date.now();
        log(`the database cannot be reached yet (${String(error)}): trying again every ${retryMs} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
}
