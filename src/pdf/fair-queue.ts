// Work of many companies on a few shared slots (the PDF rendering threads, the API's request turns), served in turn:
// each company waits in a queue of its own, and a free slot goes to the waiting company served longest ago (one never
// served first). A burst of one company so waits behind itself, while another company's single task is next in line.
// Deterministic: the order depends only on the order of `run` calls and of completions, never on timing.

/** The queue is full: `waiting` tasks wait already (of all companies, or of this company when `ofCompany`). */
export class FairQueueFullError extends Error {
  constructor(
    readonly waiting: number,
    readonly ofCompany = false,
  ) {
    super(`${waiting} tasks${ofCompany ? ' of this company' : ''} wait already`);
  }
}

type Waiting = { start: () => void };

export type FairQueueLimits = {
  /** Tasks running at once. */
  slots: number;
  /** Most tasks that may wait for a slot, all companies together; one more is refused. */
  maxWaiting: number;
  /** Most tasks of one company running at once (the rest of the slots stay for the others); all slots by default. */
  runningPerCompany?: number;
  /** Most tasks of one company waiting; one more is refused. */
  waitingPerCompany?: number;
};

export class FairQueue {
  /** Each company's waiting tasks, first come first; a company without waiting tasks has no entry. */
  readonly #queues = new Map<string, Waiting[]>();
  /** When each company was last given a slot (a counter, not a clock). */
  readonly #servedAt = new Map<string, number>();
  /** Each company's running tasks; a company with none has no entry. */
  readonly #runningOf = new Map<string, number>();
  #served = 0;
  #running = 0;
  #waiting = 0;
  readonly slots: number;
  readonly maxWaiting: number;
  readonly #runningPerCompany: number;
  readonly #waitingPerCompany: number;

  constructor(limits: FairQueueLimits) {
    this.slots = limits.slots;
    this.maxWaiting = limits.maxWaiting;
    this.#runningPerCompany = limits.runningPerCompany ?? limits.slots;
    this.#waitingPerCompany = limits.waitingPerCompany ?? limits.maxWaiting;
  }

  get running() {
    return this.#running;
  }

  get waiting() {
    return this.#waiting;
  }

  /** Runs `task` when `company`'s turn comes; FairQueueFullError (at once) when the queue is full. */
  run<T>(company: string, task: () => Promise<T>): Promise<T> {
    // A free slot with tasks waiting means every waiting company is at its share of running tasks (#next starts the
    // others): a company with nothing waiting and below its share starts now.
    if (this.#running < this.slots && !this.#queues.has(company) && this.#mayRun(company)) {
      return this.#start(company, task);
    }
    if (this.#waiting >= this.maxWaiting) return Promise.reject(new FairQueueFullError(this.#waiting));
    const queue = this.#queues.get(company) ?? [];
    if (queue.length >= this.#waitingPerCompany) return Promise.reject(new FairQueueFullError(queue.length, true));
    return new Promise<T>((resolve, reject) => {
      queue.push({ start: () => this.#start(company, task).then(resolve, reject) });
      this.#queues.set(company, queue);
      this.#waiting++;
    });
  }

  #mayRun(company: string): boolean {
    return (this.#runningOf.get(company) ?? 0) < this.#runningPerCompany;
  }

  #start<T>(company: string, task: () => Promise<T>): Promise<T> {
    this.#running++;
    this.#runningOf.set(company, (this.#runningOf.get(company) ?? 0) + 1);
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
      const left = (this.#runningOf.get(company) ?? 1) - 1;
      if (left === 0) this.#runningOf.delete(company);
      else this.#runningOf.set(company, left);
      this.#next();
    });
  }

  /** Gives free slots to the waiting companies served longest ago, each within its share of running tasks. */
  #next() {
    while (this.#running < this.slots && this.#waiting > 0) {
      let chosen: string | undefined;
      let chosenAt = Number.POSITIVE_INFINITY;
      for (const company of this.#queues.keys()) {
        const at = this.#servedAt.get(company) ?? 0;
        if (at < chosenAt && this.#mayRun(company)) [chosen, chosenAt] = [company, at];
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
