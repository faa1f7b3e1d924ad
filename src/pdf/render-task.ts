// The task a render worker thread runs (render-pool.ts): one document view in (plain data, cloned across the
// thread boundary), the PDF's bytes out through the task's port, moved rather than copied, or the limit it hit.
import type { MessagePort } from 'node:worker_threads';
import { PageLimitError, renderDocumentPdf } from './document-pdf.ts';
import type { DocumentPdfView } from './document-view.ts';

export type RenderTask = {
  view: DocumentPdfView;
  maxPages: number;
  /** Gets `started` when the render starts (the pool's time limit counts rendering, not waiting), then the PDF. */
  port: MessagePort;
};

export type PortMessage = { started: true } | { pdf: Uint8Array };

export type RenderResult = { ok: true } | { ok: false; limit: 'pages'; maxPages: number };

export default async function render(task: RenderTask): Promise<RenderResult> {
  const { port } = task;
  port.postMessage({ started: true } satisfies PortMessage);
  try {
    const pdf = await renderDocumentPdf(task.view, { maxPages: task.maxPages });
    // A buffer of its own (Buffer.concat may answer a slice of a shared pool), so it can be moved, not copied.
    const bytes = new Uint8Array(pdf);
    port.postMessage({ pdf: bytes } satisfies PortMessage, [bytes.buffer]);
    return { ok: true };
  } catch (error) {
    if (error instanceof PageLimitError) return { ok: false, limit: 'pages', maxPages: error.maxPages };
    throw error;
  } finally {
    port.close();
  }
}
