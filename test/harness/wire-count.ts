// A TCP relay between the service and PostgreSQL that counts what a request costs on the wire: the statements
// (a Sync or a simple Query message each) and the round trips (a client send while no earlier statement awaits
// its answer, i.e. a wait for PostgreSQL). The relay runs in the test's own process, on the same event loop as
// the service, so statements the service sends in one turn of the loop arrive together.

import type { AddressInfo } from 'node:net';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { atFileEnd } from './file-end.ts';

export type WireCount = { statements: number; roundTrips: number };

/** Calls `onMessage` with the type of each typed message in the stream (after `untyped` untyped ones). */
function messageReader(untyped: number, onMessage: (type: number, body: Buffer) => void) {
  let buffer = Buffer.alloc(0);
  let untypedLeft = untyped;
  return (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const typed = untypedLeft === 0;
      const header = typed ? 5 : 4;
      if (buffer.length < header) return;
      const length = buffer.readInt32BE(typed ? 1 : 0) + (typed ? 1 : 0);
      if (buffer.length < length) return;
      if (typed) onMessage(buffer[0], buffer.subarray(5, length));
      else untypedLeft--;
      buffer = buffer.subarray(length);
    }
  };
}

const SYNC = 'S'.charCodeAt(0);
const QUERY = 'Q'.charCodeAt(0);
const READY = 'Z'.charCodeAt(0);
const PARSE = 'P'.charCodeAt(0);
const BIND = 'B'.charCodeAt(0);

/** The C strings at the start of a message's body. */
const cStrings = (body: Buffer, n: number) => {
  const strings: string[] = [];
  let start = 0;
  while (strings.length < n) {
    const end = body.indexOf(0, start);
    strings.push(body.toString('utf8', start, end));
    start = end + 1;
  }
  return strings;
};

/** A relay to the database of `url`; `url` of the result goes through it. Closed after the test file. */
export async function wireCounter(url: string) {
  const target = new URL(url);
  const count: WireCount = { statements: 0, roundTrips: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    // Statements sent and not yet answered (ReadyForQuery) on this connection.
    let awaiting = 0;
    // WIRE_TRACE=1 prints each statement's text, with the round trip it starts: to see which statement waits.
    const texts = new Map<string, string>();
    const trace = (text: string) => {
      if (process.env.WIRE_TRACE)
        console.log(`  ${(performance.now() % 10000).toFixed(2)} ${text.replace(/\s+/g, ' ').slice(0, 110)}`);
    };
    // The startup message has no type byte (postgres.js sends no SSLRequest without `ssl`).
    const fromClient = messageReader(1, (type, body) => {
      if (type === PARSE) {
        const [name, text] = cStrings(body, 2);
        texts.set(name as string, text as string);
      }
      if (type === BIND) trace(texts.get(cStrings(body, 2)[1] as string) ?? '?');
      if (type === QUERY) trace(cStrings(body, 1)[0] as string);
      if (type !== SYNC && type !== QUERY) return;
      count.statements++;
      awaiting++;
    });
    const fromServer = messageReader(0, (type) => {
      if (type === READY && awaiting > 0) awaiting--;
    });
    client.on('data', (chunk) => {
      const before = awaiting;
      if (process.env.WIRE_TRACE && before === 0)
        console.log(`── a round trip ${(performance.now() % 10000).toFixed(2)}`);
      fromClient(chunk);
      if (before === 0 && awaiting > 0) count.roundTrips++;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      fromServer(chunk);
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  atFileEnd(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as AddressInfo).port);
  return {
    url: relayed.toString(),
    /** What `work` sent to the database. */
    async during(work: () => Promise<unknown>): Promise<WireCount> {
      const start = { ...count };
      await work();
      return { statements: count.statements - start.statements, roundTrips: count.roundTrips - start.roundTrips };
    },
  };
}
