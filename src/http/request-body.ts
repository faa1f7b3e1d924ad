// A request body read whole, once, within a limit, and kept for everything after the body rules (the route's
// validator, an Idempotency-Key's hash, a handler reading raw bytes). Served by @hono/node-server, it is read from
// the Node IncomingMessage into one Buffer: going through the Web Request's stream built that Request, a web stream
// over the socket and a second Request around it, and took most of the pipeline's time for a small JSON POST
// (scripts/bench/README.md, "Issue 40: reading a JSON body without a Web Request"). Without an IncomingMessage
// (app.request() in tests) the body is read through the Web Request as before. Uploads are not read here: their
// handler streams them (upload.ts).
import { IncomingMessage } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { discardRestOfIncoming, keepBodyReader } from './lingering-close.ts';
import type { ApiProblem } from './problems.ts';

/** What refuses a body over the limit; handed what discards the rest of it (a lingering close), to use or not. */
export type OverLimit = (discardRest: () => Promise<void>) => ApiProblem;

/**
 * The request's IncomingMessage while its body is still unread by anyone (node-server reads it only when asked),
 * or null: app.request() has none, and an HTTP/2 request is left to the Web path.
 */
function unreadIncoming(c: Context): IncomingMessage | null {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage)) return null;
  return incoming.readableDidRead || incoming.readableFlowing !== null ? null : incoming;
}

/**
 * Whether the request may carry a body. Over HTTP/1.1 a body is announced by Content-Length or Transfer-Encoding;
 * node-server gives every other request than GET and HEAD a body stream, empty or not, and asking for it builds the
 * Web Request.
 */
export function mayHaveBody(c: Context): boolean {
  const incoming = unreadIncoming(c);
  if (incoming === null) return c.req.raw.body !== null;
  const length = incoming.headers['content-length'];
  return (length !== undefined && length !== '0') || incoming.headers['transfer-encoding'] !== undefined;
}

/**
 * The whole body, at most `max` bytes: a declared Content-Length over it is refused unread, and a body sent without
 * one (chunked) is refused as soon as it passes `max`, instead of being read whole into memory first. The bytes are
 * kept for the route (c.req.arrayBuffer(), text(), json()) and, with `text`, their decoding.
 */
export async function readBody(c: Context, max: number, overLimit: OverLimit): Promise<Uint8Array> {
  const incoming = unreadIncoming(c);
  if (incoming === null) {
    await limitBody(c, max, overLimit);
    return new Uint8Array(await c.req.arrayBuffer());
  }
  const length = incoming.headers['content-length'];
  if (length !== undefined && incoming.headers['transfer-encoding'] === undefined && Number(length) > max) {
    throw overLimit(() => discardRestOfIncoming(incoming));
  }
  const bytes = await readIncoming(incoming, max, overLimit);
  // node-server serves a body from `rawBody` when it is there (for hosts that read the body before the app does):
  // c.req.raw's own reads, and its Web Request should anything still build it, see these bytes.
  (incoming as IncomingMessage & { rawBody?: Buffer }).rawBody = bytes;
  cacheOf(c).arrayBuffer = Promise.resolve(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
  return bytes;
}

/** The body's text as the body rules decoded it: what validation parses and an Idempotency-Key hashes. */
export function keepBodyText(c: Context, text: string): void {
  cacheOf(c).text = Promise.resolve(text);
}

/**
 * hono's cache of the body's readings, by method name: c.req.text() and json() serve the kept text, arrayBuffer() the
 * bytes. It holds promises, which hono's type of it (Partial<Body>) does not say.
 */
const cacheOf = (c: Context) => c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer>; text?: Promise<string> };

function readIncoming(incoming: IncomingMessage, max: number, overLimit: OverLimit): Promise<Buffer> {
  // A client that went away before the body was asked for (its request waited for its company's turn): the 'close'
  // this reading would wait for has been and gone, so it would wait forever, holding the turn.
  if (incoming.destroyed) return Promise.reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > max) {
        stop();
        incoming.pause();
        reject(overLimit(() => discardRestOfIncoming(incoming)));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    // Node's own error for a client that went away mid-body (ECONNRESET "aborted"), as the Web stream passed it on.
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const onClose = () => {
      if (incoming.readableEnded) return onEnd();
      onError(incoming.errored ?? Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/**
 * The limit on the Web path (hono's bodyLimit), through a reader kept aside for the lingering close: a declared
 * Content-Length over `max` is refused unread, a chunked body read (and kept) until it passes `max`. An upload is only
 * limited with it, and then streamed by its handler.
 */
export async function limitBody(c: Context, max: number, overLimit: OverLimit): Promise<void> {
  const discardRest = keepBodyReader(c);
  await bodyLimit({
    maxSize: max,
    onError: () => {
      throw overLimit(discardRest);
    },
  })(c, async () => {});
}
