// After a 413 the server reads and discards the rest of the body for a bounded time and amount before it closes
// (a lingering close), over real sockets on 127.0.0.1 against the server as src/main.ts builds it:
// - A client that sends its whole 5 MiB body before it reads anything gets the complete 413, not a reset (closing
//   with its bytes unread made the kernel answer with RST, and the client's write failed before it read the 413).
// - A client that never stops sending is cut off at the bounds: after the time bound when it sends slowly, sooner
//   when it sends fast (the amount bound).
// - The contract states the bounds the code has.

import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { LINGER_BYTES, LINGER_MS } from '../../src/http/lingering-close.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { listenOnLoopback } from '../harness/loopback-server.ts';

let api: TestApi;
let key: string;
let port: number;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  ({ port } = await listenOnLoopback(api.app, api.config));
});

type Client = {
  socket: Socket;
  received: () => string;
  /** The first error the connection saw (ECONNRESET, EPIPE), if any. */
  error: () => Error | undefined;
  /** Resolves with the time (ms since connecting) the connection closed. */
  closed: Promise<number>;
  started: number;
};

async function open(): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let data = '';
  let failure: Error | undefined;
  socket.on('data', (chunk) => {
    data += chunk;
  });
  socket.on('error', (error) => {
    failure ??= error;
  });
  const started = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, received: () => data, error: () => failure, closed, started };
}

/** Writes `chunk`, resolving once it is handed to the kernel, or with false when the connection failed first. */
const write = (socket: Socket, chunk: string) =>
  new Promise<boolean>((resolve) => {
    if (socket.destroyed) return resolve(false);
    socket.write(chunk, (error) => resolve(!error));
  });

/** The head of a POST whose body has `contentLength` bytes, or is sent chunked (null). */
const requestHead = (contentLength: number | null) =>
  `POST /api/v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${
    contentLength === null ? 'Transfer-Encoding: chunked' : `Content-Length: ${contentLength}`
  }\r\n\r\n`;

const CHUNK = 'x'.repeat(64 * 1024);
const MiB = 1024 * 1024;

function expect413(raw: string) {
  const end = raw.indexOf('\r\n\r\n');
  expect(end, raw.slice(0, 200)).toBeGreaterThan(0);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const body = raw.slice(end + 4);
  expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large');
  expect(headers.connection).toBe('close');
  expect(body.length).toBe(Number(headers['content-length']));
  expect(JSON.parse(body)).toMatchObject({ status: 413, code: 'payload_too_large' });
}

describe('a body over the limit', () => {
  it.each([
    ['declared by Content-Length', false],
    ['sent chunked', true],
  ])('of 5 MiB %s, sent whole before the client reads anything: the client reads the complete 413', async (_, chunked) => {
    const client = await open();
    client.socket.pause(); // reads nothing until it has sent everything, as many simple clients do
    const size = 5 * MiB;
    let sent = await write(client.socket, requestHead(chunked ? null : size));
    for (let at = 0; sent && at < size; at += CHUNK.length) {
      const part = CHUNK.slice(0, Math.min(CHUNK.length, size - at));
      sent = await write(client.socket, chunked ? `${part.length.toString(16)}\r\n${part}\r\n` : part);
      if (at % MiB === 0) await new Promise((r) => setTimeout(r, 10)); // a network, not a memory copy
    }
    if (chunked && sent) sent = await write(client.socket, '0\r\n\r\n');
    expect(client.error()).toBeUndefined();
    expect(sent).toBe(true);
    client.socket.resume();
    await client.closed;
    expect(client.error()).toBeUndefined();
    expect413(client.received());
  });

  it('that never ends, sent slowly: the connection is cut off at the time bound', async () => {
    const client = await open();
    await write(client.socket, requestHead(1024 * MiB));
    let closedAt: number | undefined;
    void client.closed.then((at) => {
      closedAt = at;
    });
    // 64 KiB every 25 ms (2.5 MiB/s): under the amount bound within the time bound.
    while (closedAt === undefined && Date.now() - client.started < LINGER_MS + 5000) {
      client.socket.write(CHUNK, () => {});
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(closedAt).toBeDefined();
    expect413(client.received());
    // Read and discarded until the bound (so the server did linger), then closed at it, with room for a loaded machine.
    expect(closedAt).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(closedAt).toBeLessThan(LINGER_MS + 1500);
  });

  it('that never ends, sent fast: the connection is cut off at the amount bound, before the time bound', async () => {
    const client = await open();
    await write(client.socket, requestHead(1024 * MiB));
    let closedAt: number | undefined;
    void client.closed.then((at) => {
      closedAt = at;
    });
    let sent = 0;
    while (closedAt === undefined && sent < 10 * LINGER_BYTES && (await write(client.socket, CHUNK))) {
      sent += CHUNK.length;
    }
    await client.closed;
    expect413(client.received());
    expect(sent).toBeGreaterThanOrEqual(LINGER_BYTES);
    expect(sent).toBeLessThan(10 * LINGER_BYTES);
    expect(closedAt).toBeLessThan(LINGER_MS);
  });
});

describe('the contract', () => {
  it('states the bounds of the lingering close in the 413 answer', () => {
    const bundle = new URL('../../generated/openapi.en.json', import.meta.url);
    const { description } = JSON.parse(readFileSync(bundle, 'utf8')).components.responses.PayloadTooLarge;
    const text = description.replace(/\s+/g, ' ');
    expect(text).toContain('`Connection: close`');
    expect(text).toContain(`at most ${LINGER_BYTES / MiB} MiB for at most ${LINGER_MS / 1000} seconds`);
  });
});
