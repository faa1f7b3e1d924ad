// Groups concurrent calls into batches, so that jobs running at the same time share one database statement
// instead of one each. The first call of a group starts its batch on the next turn of the event loop; calls
// made while that batch runs wait for the next one, which starts as soon as the running one has ended. So a
// lone call waits for nothing, and under load the batches grow by themselves (no timer, no fixed size to
// tune). One batch runs at a time per group (e.g. per company: one tenant per statement) — unless a run lets
// the next one start early (`release`): a fan-out batch does once its sends are done, so that the company's
// next batch sends while this one writes.

type Waiting<I, O> = { item: I; resolve: (out: O) => void; reject: (error: unknown) => void };

export class Coalescer<I, O> {
  private readonly waiting = new Map<string, Waiting<I, O>[]>();
  private readonly running = new Set<string>();

  /**
   * `run` gets the items of one group in the order they were added and answers one result per item, in the
   * same order; if it throws, every call of that batch rejects with the error (their jobs are retried). It may
   * call `release` to let the group's next batch start before it ends (called for it when it ends).
   */
  constructor(
    private readonly run: (group: string, items: I[], release: () => void) => Promise<O[]>,
    private readonly maxBatch = 500,
  ) {}

  add(group: string, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queue = this.waiting.get(group) ?? [];
      queue.push({ item, resolve, reject });
      this.waiting.set(group, queue);
      this.start(group);
    });
  }

  private start(group: string): void {
    if (this.running.has(group) || !this.waiting.has(group)) return;
    this.running.add(group);
    setImmediate(() => void this.flush(group));
  }

  private async flush(group: string): Promise<void> {
    const queue = this.waiting.get(group) ?? [];
    const batch = queue.splice(0, this.maxBatch);
    if (queue.length === 0) this.waiting.delete(group);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.running.delete(group);
      this.start(group);
    };
    try {
      const results = await this.run(
        group,
        batch.map((w) => w.item),
        release,
      );
      if (results.length !== batch.length) throw new Error(`batch of ${batch.length} answered ${results.length}`);
      for (const [i, w] of batch.entries()) w.resolve(results[i] as O);
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      release();
    }
  }
}
