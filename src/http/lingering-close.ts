// A lingering close (Apache's and nginx's name for it) after a refused body. Closing a connection while request
// bytes are still unread makes the kernel answer them with a reset (RST), and a reset destroys an answer still in
// transit or unread in the client's buffer: a client that sends its whole body before reading (many simple clients
// do) saw its write fail (EPIPE, ECONNRESET) instead of the 413. So the refusal is sent at once, the rest of the
// body is read and thrown away, chunk by chunk, never kept, and the connection closes only when that is done.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The bounds, whichever comes first. 2 s (as Apache lingers) lets a client notice the answer and stop, or finish a
 * body it had nearly sent, and holds the connection for less than any slow client may anyway (the request timeout,
 * 30 s). 8 MiB lets a client that reads only after sending get its answer for a body up to that much past the
 * limit (a JSON body of a few MiB, an upload somewhat over 11 MiB), and caps what a fast client makes the server
 * read for nothing. A client still sending after that is cut off; the reset is then its own doing.
 */
export const LINGER_MS = 2_000;
export const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * From here on the request body is read through a reader kept aside, so that what stays unread after a refusal can
 * be discarded. The returned function starts that and settles when it is over (end of body, a bound, a hang-up).
 */
export function keepBodyReader(c: Context): () => Promise<void> {
  const source = c.req.raw.body;
  if (source === null) return async () => {};
  const reader = source.getReader();
  // highWaterMark 0: nothing is read ahead of the one reading the body, so the reader's position is theirs.
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  // Node requires `duplex` with a stream body; the DOM's RequestInit type does not know it yet.
  const init = { body, duplex: 'half' };
  c.req.raw = new Request(c.req.raw, init);
  return () => discardRest(reader);
}

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<'time up'>((resolve) => {
    timer = setTimeout(() => resolve('time up'), LINGER_MS);
  });
  try {
    for (let discarded = 0; discarded < LINGER_BYTES; ) {
      const next = await Promise.race([reader.read(), timeUp]);
      if (next === 'time up' || next.done) return;
      discarded += next.value.byteLength;
    }
  } catch {
    // The client hung up: nothing is left to discard.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The same for a body read straight from Node's IncomingMessage (request-body.ts): the rest is read and dropped until
 * its end, a bound, or a hang-up.
 */
export function discardRestOfIncoming(incoming: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let discarded = 0;
    const stop = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', stop);
      incoming.off('error', stop);
      incoming.off('close', stop);
      incoming.pause();
      resolve();
    };
    const timer = setTimeout(stop, LINGER_MS);
    const onData = (chunk: Buffer) => {
      discarded += chunk.byteLength;
      if (discarded >= LINGER_BYTES) stop();
    };
    incoming.on('data', onData);
    incoming.on('end', stop);
    incoming.on('error', stop);
    incoming.on('close', stop);
    if (incoming.readableEnded || incoming.destroyed) stop();
    else incoming.resume();
  });
}

/**
 * `text` as the whole answer, sent at once with its length, while the answer itself (and with `Connection: close`,
 * the connection) ends only when `lingering` settles: Node closes the connection as soon as the answer ends.
 */
export function answerWhileLingering(text: string, init: ResponseInit, lingering: Promise<void>): Response {
  const bytes = new TextEncoder().encode(text);
  const headers = new Headers(init.headers);
  headers.set('Content-Length', String(bytes.byteLength));
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        return controller.enqueue(bytes);
      }
      await lingering;
      controller.close();
    },
  });
  return new Response(body, { ...init, headers });
}
