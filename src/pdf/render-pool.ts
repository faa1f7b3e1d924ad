// Renders document PDFs on a bounded pool of worker threads (piscina), so that laying out a long document never
// holds the event loop that answers every other request. Each document has a time limit (counted from when a
// thread starts it, not while it waits for one; at the limit the thread is terminated and replaced), a memory limit
// (the thread's V8 heap: past it the thread dies and is replaced) and a page bound; a full queue is refused at
// once. Each of these is a PdfRenderLimitError, which the API answers as `503 pdf_render_limit_exceeded`.
// Documents wait in a queue per company in front of the pool, served in turn (fair-queue.ts), so a company's burst
// waits behind itself; the pool is only handed a document when a thread is free.
// The pool is started at the first render, so a process that renders nothing starts no thread.
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { DocumentPdfView } from './document-view.ts';
import { FairQueue, FairQueueFullError } from './fair-queue.ts';
import { MAX_PAGES } from './page-limit.ts';
import type { PortMessage, RenderResult, RenderTask } from './render-task.ts';

export type PdfRenderLimits = {
  /** Worker threads rendering at once. */
  threads: number;
  /** Documents that may wait for a thread; one more is refused. */
  queue: number;
  /** Most milliseconds one document may render. */
  timeoutMs: number;
  /** Most megabytes of JavaScript heap one rendering thread may use. */
  memoryMb: number;
  maxPages: number;
};

/** One thread fewer than the machine's cores, at least one: the event loop keeps a core to answer requests. */
export const defaultRenderThreads = () => Math.max(1, availableParallelism() - 1);

export const DEFAULT_RENDER_LIMITS: Omit<PdfRenderLimits, 'threads' | 'queue'> = {
  timeoutMs: 20_000,
  memoryMb: 512,
  maxPages: MAX_PAGES,
};

export type RenderLimit = 'time' | 'memory' | 'pages' | 'queue';

/** A document that could not be rendered within one of the limits. */
export class PdfRenderLimitError extends Error {
  constructor(
    readonly limit: RenderLimit,
    /** The limit's value: milliseconds, megabytes, pages or queued documents. */
    readonly value: number,
  ) {
    super(`PDF rendering stopped at its ${limit} limit (${value})`);
  }
}

const WORKER_FILE = new URL('./render-worker.mjs', import.meta.url);

export class PdfRenderer {
  #pool: Piscina | undefined;
  readonly #queue: FairQueue;
  readonly #inFlight = new Map<string, Promise<Buffer>>();
  #renders = 0;

  constructor(
    readonly limits: PdfRenderLimits,
    /**
     * Holds one of the company's PDF slots while its document waits and renders (the per-company concurrency limit,
     * src/http/concurrency.ts): around a render only, so that a kept PDF costs none. Throws to refuse.
     */
    private readonly holdSlot?: (company: string, render: () => Promise<Buffer>) => Promise<Buffer>,
  ) {
    this.#queue = new FairQueue({ slots: limits.threads, maxWaiting: limits.queue });
  }

  /** Documents this renderer has started to render (the render cache's tests and /metrics count them). */
  get renders() {
    return this.#renders;
  }

  /** Documents rendering now and waiting for a thread. */
  get load() {
    return { running: this.#queue.running, waiting: this.#queue.waiting };
  }

  #start(): Piscina {
    this.#pool ??= new Piscina({
      filename: WORKER_FILE.href,
      minThreads: this.limits.threads,
      maxThreads: this.limits.threads,
      // The fair queue holds the waiting documents; the pool's own queue only bridges a thread being replaced.
      maxQueue: this.limits.threads,
      // Heap limits per thread: a document past them ends its thread (ERR_WORKER_OUT_OF_MEMORY), not the process.
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
    });
    return this.#pool;
  }

  /**
   * The PDF of `view`, rendered on a worker thread when `company`'s turn comes; PdfRenderLimitError when a limit is
   * hit. `company` is the queue it waits in (one shared queue when not given).
   */
  async render(view: DocumentPdfView, company = ''): Promise<Buffer> {
    const inTurn = () => this.#queue.run(company, () => this.#render(view));
    try {
      return await (this.holdSlot && company ? this.holdSlot(company, inTurn) : inTurn());
    } catch (error) {
      if (error instanceof FairQueueFullError) throw new PdfRenderLimitError('queue', this.limits.queue);
      throw error;
    }
  }

  /**
   * `work`'s PDF, shared by every caller asking for the same `key` while it runs: downloads of one document's same
   * content at once (six through one public link) wait for one render instead of making six.
   */
  shared(key: string, work: () => Promise<Buffer>): Promise<Buffer> {
    const running = this.#inFlight.get(key);
    if (running) return running;
    const started = work().finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, started);
    return started;
  }

  async #render(view: DocumentPdfView): Promise<Buffer> {
    const pool = this.#start();
    this.#renders++;
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const pdf = new Promise<Uint8Array>((resolve) => {
      port1.on('message', (message: PortMessage) => {
        if ('started' in message) timer = setTimeout(() => abort.abort(), this.limits.timeoutMs);
        else resolve(message.pdf);
      });
    });
    const task: RenderTask = { view, maxPages: this.limits.maxPages, port: port2 };
    try {
      const result: RenderResult = await pool.run(task, { transferList: [port2], signal: abort.signal });
      if (!result.ok) throw new PdfRenderLimitError('pages', result.maxPages);
      const bytes = await pdf;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      throw this.#limitOf(error, abort.signal.aborted) ?? error;
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  #limitOf(error: unknown, timedOut: boolean): PdfRenderLimitError | undefined {
    if (error instanceof PdfRenderLimitError) return error;
    if (timedOut) return new PdfRenderLimitError('time', this.limits.timeoutMs);
    if (!(error instanceof Error)) return undefined;
    if ('code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new PdfRenderLimitError('memory', this.limits.memoryMb);
    }
    // piscina's TaskQueueAtLimit: the error has no code of its own.
    if (error.message === 'Task queue is at limit') return new PdfRenderLimitError('queue', this.limits.queue);
    return undefined;
  }

  /** Ends the threads (after the documents they are rendering). */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.close();
  }
}
