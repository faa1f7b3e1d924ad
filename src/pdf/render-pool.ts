// Renders document PDFs on a bounded pool of worker threads (piscina), so that laying out a long document never
// holds the event loop that answers every other request. Each document has a time limit (counted from when a
// thread starts it, not while it waits for one; at the limit the thread is terminated and replaced), a memory limit
// (the thread's V8 heap: past it the thread dies and is replaced) and a page bound; a full queue is refused at
// once. Each of these is a PdfRenderLimitError, which the API answers as `503 pdf_render_limit_exceeded`.
// The pool is started at the first render, so a process that renders nothing starts no thread.
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { DocumentPdfView } from './document-pdf.ts';
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

  constructor(readonly limits: PdfRenderLimits) {}

  #start(): Piscina {
    this.#pool ??= new Piscina({
      filename: WORKER_FILE.href,
      minThreads: this.limits.threads,
      maxThreads: this.limits.threads,
      maxQueue: this.limits.queue,
      // Heap limits per thread: a document past them ends its thread (ERR_WORKER_OUT_OF_MEMORY), not the process.
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
    });
    return this.#pool;
  }

  /** The PDF of `view`, rendered on a worker thread; PdfRenderLimitError when a limit is hit. */
  async render(view: DocumentPdfView): Promise<Buffer> {
    const pool = this.#start();
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
