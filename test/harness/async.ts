// Small helpers for tests of code that batches or queues work on the event loop.

/** One turn of the event loop: everything queued with setImmediate before this call has run. */
export const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

export type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void };

/** A promise with its resolve and reject in hand. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Polls `condition` every 10 ms until it holds; fails with `what` after `ms` (a minute: a limit for what never
 * happens, far above a loaded machine's wait for what does).
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Retries `check` (an assertion) every 20 ms until it passes; fails with its last error after `ms` (as until). */
export async function eventually(check: () => Promise<void>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/**
 * `promise`'s value, or `late` when it takes over `ms`. Its timer is cleared as soon as the race ends: one left
 * running keeps the file's leak check waiting (harness/leak-check.ts) for the rest of its `ms`.
 */
export async function within<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeUp = new Promise<L>((resolve) => {
      timer = setTimeout(() => resolve(late), ms);
    });
    return await Promise.race([promise, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
