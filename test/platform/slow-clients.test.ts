// Clients that send slowly, hang up mid-body or send too much, over real sockets on 127.0.0.1 against the server
// as src/main.ts builds it (httpServerOptions), with short limits so the tests are quick.
// - Headers or a body sent a byte at a time are cut off with 408 at the configured limits (Node's defaults held such
//   a connection for minutes).
// - A client that hangs up mid-body is logged as a client abort (info), not as an unexpected failure (error).
// - A 413 says `Connection: close` and the client reads the whole problem before the connection ends.

import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';
import { listenOnLoopback } from '../harness/loopback-server.ts';

const HEADERS_TIMEOUT_MS = 400;
const REQUEST_TIMEOUT_MS = 1000;

let api: TestApi;
let key: string;
let port: number;
/** Every log line of the app, parsed. */
const logged: { level: number; msg: string }[] = [];

beforeAll(async () => {
  api = await setupApi({
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  ({ key } = await api.tenant());
  const capture = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      done();
    },
  });
  api.deps.log = pino({ level: 'debug' }, capture);
  ({ port } = await listenOnLoopback(api.app, api.config));
});

type Exchange = { socket: Socket; received: () => string; closed: Promise<number> };

/** A connection that records what it receives; `closed` resolves with the time (ms) it took the server to end it. */
async function open(): Promise<Exchange> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let data = '';
  socket.on('data', (chunk) => {
    data += chunk;
  });
  socket.on('error', () => {}); // a reset after the answer is the server's to choose; the answer is what counts
  const started = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, received: () => data, closed };
}

/** Waits (at most 2 s) until `done()`: the app logs after the connection has closed. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** Writes `text` a byte every `everyMs` until the socket closes. */
async function dribble(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(byte);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The status line, headers (lower-cased) and body of an HTTP/1.1 answer with a Content-Length. */
function parseAnswer(raw: string) {
  const end = raw.indexOf('\r\n\r\n');
  expect(end, raw).toBeGreaterThan(0);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { statusLine, headers, body: raw.slice(end + 4) };
}

const requestHead = (headers: Record<string, string>) =>
  `POST /api/v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${Object.entries(
    headers,
  )
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

describe('slow clients', () => {
  it('headers sent a byte at a time are answered 408 at the headers limit', async () => {
    const { socket, received, closed } = await open();
    void dribble(socket, requestHead({ 'X-Padding': 'x'.repeat(200) }), 50);
    const took = await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408 /);
    // The limit plus Node's check interval (a quarter of it), with room for a loaded machine.
    expect(took).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS);
    expect(took).toBeLessThan(HEADERS_TIMEOUT_MS * 2 + 500);
  });

  it('a body sent a byte at a time is answered 408 at the request limit, and logged as no failure of ours', async () => {
    const before = logged.length;
    const { socket, received, closed } = await open();
    const body = JSON.stringify({ email: 'langzaam@example.nl', name: 'x'.repeat(100) });
    socket.write(requestHead({ 'Content-Length': String(body.length) }));
    void dribble(socket, body, 50);
    const took = await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(took).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(REQUEST_TIMEOUT_MS * 2 + 500);
    const [{ count }] = await api.sql`select count(*)::int as count from customers`;
    expect(count).toBe(0);
    // The body read that the timeout cut off is the client's doing, not an unexpected failure.
    await until(() => logged.length > before);
    expect(logged.slice(before).filter((line) => line.level >= 40)).toEqual([]);
  });
});

describe('a client that hangs up mid-body', () => {
  it('is logged as a client abort at info level, never as an unexpected failure', async () => {
    const before = logged.length;
    const { socket, closed } = await open();
    socket.write(requestHead({ 'Content-Length': '5000' }));
    socket.write(`{"email": "weg@example.nl", "name": "${'x'.repeat(500)}`);
    await new Promise((r) => setTimeout(r, 100)); // the app is reading the body now
    socket.destroy();
    await closed;
    await until(() => logged.length > before);
    const lines = logged.slice(before);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, msg: 'client closed the connection' }));
  });
});

describe('a body over the limit', () => {
  it.each([
    ['declared by Content-Length', { 'Content-Length': String(2 * 1024 * 1024) }],
    ['sent chunked', { 'Transfer-Encoding': 'chunked' }],
  ])('%s is answered 413 with Connection: close, read whole by the client', async (_, headers) => {
    const { socket, received, closed } = await open();
    socket.write(requestHead(headers));
    const chunked = 'Transfer-Encoding' in headers;
    // The body as a client sends it: all of it, without waiting for an answer.
    const piece = `{"email": "groot@example.nl", "name": "${'x'.repeat(64 * 1024)}`;
    for (let sent = 0; sent < 2 * 1024 * 1024 && !socket.destroyed; sent += piece.length) {
      const part = piece.slice(0, Math.min(piece.length, 2 * 1024 * 1024 - sent));
      socket.write(chunked ? `${part.length.toString(16)}\r\n${part}\r\n` : part);
    }
    if (chunked && !socket.destroyed) socket.write('0\r\n\r\n');
    await closed;
    const answer = parseAnswer(received());
    expect(answer.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer.headers.connection).toBe('close');
    expect(answer.body.length).toBe(Number(answer.headers['content-length']));
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: 'payload_too_large' });
  });
});
