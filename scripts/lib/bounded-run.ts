// A benchmark's or drill's run, bounded and undone: what it makes (databases, servers, pools, child processes) is
// registered as a cleanup and undone in reverse order at its end, on Ctrl-C or SIGTERM (exit 130; a second signal
// exits at once), or when the run outlives its budget (exit 2). Each cleanup runs even when one before it failed.
export type Cleanup = { name: string; run: () => Promise<unknown> };

export function boundedRun(budgetMs: number, log: (line: string) => void) {
  const cleanups: Cleanup[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c.run();
      } catch (error) {
        log(`cleanup ${c.name} failed: ${String(error)}`);
      }
    }
    cleanups.length = 0;
  };
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log('interrupted: cleaning up');
    void cleanup().then(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const hardStop = setTimeout(() => {
    log(`still running after ${Math.round(budgetMs / 1000)} s: giving up`);
    void cleanup().then(() => process.exit(2));
  }, budgetMs);
  hardStop.unref();
  return {
    cleanups,
    /** Whether a signal came: loops stop early. */
    get interrupted() {
      return interrupted;
    },
    /** The end of the run: everything undone, the signal handlers and the time limit lifted. */
    async finish() {
      await cleanup();
      clearTimeout(hardStop);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
