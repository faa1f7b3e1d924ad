// Work of many companies on a few shared slots (the PDF rendering threads), served in turn: each company waits in a
// queue of its own, and a free slot goes to the waiting company served longest ago (one never served first). A
// burst of one company so waits behind itself, while another company's single document is next in line.
// Deterministic: the order depends only on the order of `run` calls and of completions, never on timing.

/** The queue is full: `waiting` tasks of all companies wait already. */
export class FairQueueFullError extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} tasks wait already`);
  }
}

type Waiting = { start: () => void };

export class FairQueue {
  /** Each company's waiting tasks, first come first; a company without waiting tasks has no entry. */
  readonly #queues = new Map<string, Waiting[]>();
  /** When each company was last given a slot (a counter, not a clock). */
  readonly #servedAt = new Map<string, number>();
  #served = 0;
  #running = 0;
  #waiting = 0;

  constructor(
    /** Tasks running at once. */
    readonly slots: number,
    /** Most tasks that may wait for a slot, all companies together; one more is refused. */
    readonly maxWaiting: number,
  ) {}

  get running() {
    return this.#running;
  }

  get waiting() {
    return this.#waiting;
  }

  /** Runs `task` when `company`'s turn comes; FairQueueFullError (at once) when the queue is full. */
  run<T>(company: string, task: () => Promise<T>): Promise<T> {
    if (this.#running < this.slots && this.#waiting === 0) return this.#start(company, task);
    if (this.#waiting >= this.maxWaiting) return Promise.reject(new FairQueueFullError(this.#waiting));
    return new Promise<T>((resolve, reject) => {
      const queue = this.#queues.get(company) ?? [];
      queue.push({ start: () => this.#start(company, task).then(resolve, reject) });
      this.#queues.set(company, queue);
      this.#waiting++;
    });
  }

  #start<T>(company: string, task: () => Promise<T>): Promise<T> {
    this.#running++;
    this.#servedAt.set(company, ++this.#served);
    // Started now (the order of starts is the queue's promise); a task that throws at once still frees its slot.
    let done: Promise<T>;
    try {
      done = task();
    } catch (error) {
      done = Promise.reject(error);
    }
    return done.finally(() => {
      this.#running--;
      this.#next();
    });
  }

  /** Gives free slots to the waiting companies served longest ago. */
  #next() {
    while (this.#running < this.slots && this.#waiting > 0) {
      let chosen: string | undefined;
      let chosenAt = Number.POSITIVE_INFINITY;
      for (const company of this.#queues.keys()) {
        const at = this.#servedAt.get(company) ?? 0;
        if (at < chosenAt) [chosen, chosenAt] = [company, at];
      }
      if (chosen === undefined) return;
      const queue = this.#queues.get(chosen) ?? [];
      const first = queue.shift();
      if (queue.length === 0) this.#queues.delete(chosen);
      this.#waiting--;
      first?.start();
    }
    // Companies with nothing waiting or running forget their turn, so the map stays as small as the queue.
    if (this.#running === 0 && this.#waiting === 0) this.#servedAt.clear();
  }
}
