import { tenantOf } from '../../db/tenant.ts';
import { findFile, readFile } from '../../files/records.ts';
import type { Handlers } from '../../http/handler.ts';
import { ApiProblem } from '../../http/problems.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { fileMessages } from './messages.ts';

/** One answer for every link that does not lead to a file: altered, expired, or its file deleted. */
const linkInvalid = () => new ApiProblem('not_found', fileMessages.message('file.link_invalid'));

export const handlers = {
  downloadFile: async (c) => {
    const { token } = c.req.valid('param');
    const deps = c.get('deps');
    const linked = deps.fileLinks.verify(token);
    if (!linked) throw linkInvalid();
    const tenant = tenantOf(deps, linked.companyId);
    const file = await findFile(tenant, linked.fileId);
    if (!file) throw linkInvalid();
    // Streamed a chunk at a time; a file deleted while it is sent ends the answer short of its Content-Length,
    // which the client sees as a failed download rather than a complete one (a file moved goes on: readFile).
    const chunks = readFile(deps.fileStorages, tenant, file)[Symbol.asyncIterator]();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (!next.done) {
          sent += next.value.byteLength;
          controller.enqueue(next.value);
        } else if (sent === file.size) controller.close();
        else controller.error(new Error(`file ${file.id} ended after ${sent} of ${file.size} bytes`));
      },
      async cancel() {
        await chunks.return?.();
      },
    });
    return c.body(body, 200, {
      'Content-Type': file.mimeType,
      'Content-Length': String(file.size),
      'Content-Disposition': attachmentDisposition(file.name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      // Opened directly in a browser tab (a PDF, an image), the file may run nothing and load nothing.
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  },
} satisfies Partial<Handlers>;
