import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionPools } from '../../src/webhooks/http-post.ts';

const opts = { timeoutMs: 2_000, maxResponseBytes: 4096 };
const servers: Server[] = [];

type Received = { method?: string; url?: string; headers: IncomingHttpHeaders; body: string; socket: Socket };

/** A real receiver on 127.0.0.1; records every request it gets. */
async function receiver(handler: RequestListener) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        socket: req.socket,
      });
      handler(req, res);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { port, received, server, connections: () => connections };
}

const target = (url: string) => ({ url: new URL(url), address: '127.0.0.1', family: 4 as const });

/** A TLS URL whose server accepts the TCP connection and says nothing: a request never gets onto a connection. */
async function withSilentServer(run: (url: string) => Promise<void>) {
  const sockets: Socket[] = [];
  const silent = createNetServer((socket) => sockets.push(socket));
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const { port } = silent.address() as AddressInfo;
  try {
    await run(`https://receiver.test:${port}/`);
  } finally {
    silent.close();
    for (const socket of sockets.splice(0)) socket.destroy();
  }
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

// Each test has its own kept-alive connections.
let pools: ConnectionPools;
beforeEach(() => {
  pools = new ConnectionPools();
});
afterEach(() => pools.close());

describe('ConnectionPools.post', () => {
  it('a 2xx answer is a success with its status and body excerpt', async () => {
    const { port, received } = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks ✓');
    });
    const body = JSON.stringify({ type: 'customer.created', data: { name: 'Dekker' } });
    const result = await pools.post(target(`http://127.0.0.1:${port}/hook?a=1`), body, { 'webhook-id': 'msg_1' }, opts);
    expect(result).toMatchObject({ statusCode: 200, error: null, responseBody: 'thanks ✓' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hook?a=1', body });
    expect(received[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'webhook-id': 'msg_1',
    });
    // Only the given headers, Content-Type/Length and what HTTP/1.1 itself needs (Host, Connection).
    expect(Object.keys(received[0]?.headers ?? {}).sort()).toEqual(
      ['connection', 'content-length', 'content-type', 'host', 'webhook-id'].sort(),
    );
  });

  it('an empty 204 answer is a success with an empty body', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts)).toMatchObject({
      statusCode: 204,
      error: null,
      responseBody: '',
    });
  });

  it('an informational 103 before the answer is not the answer: the final status counts', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.writeHead(202);
      res.end('accepted');
    });
    expect(await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts)).toMatchObject({
      statusCode: 202,
      error: null,
      responseBody: 'accepted',
    });
  });

  it('a 500 answer is http_status with the body excerpt', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(500);
      res.end('Internal Server Error');
    });
    expect(await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts)).toMatchObject({
      statusCode: 500,
      error: 'http_status',
      responseBody: 'Internal Server Error',
    });
  });

  it('a 302 is a redirect error and the Location target receives nothing', async () => {
    const elsewhere = await receiver((_req, res) => res.end('should never be called'));
    const { port, received } = await receiver((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/internal` });
      res.end();
    });
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: 302, error: 'redirect' });
    expect(received).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(elsewhere.received).toHaveLength(0);
  });

  it('a receiver that never answers times out within timeoutMs', async () => {
    const { port } = await receiver(() => {});
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, { ...opts, timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: null, error: 'timeout', responseBody: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(280);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it('the limit holds while still connecting: a TLS handshake that never ends times out at each request’s own limit', async () => {
    await withSilentServer(async (url) => {
      // The first request makes the pool; the second, with 300 ms, ends at its own limit while still connecting.
      const long = pools.post(target(url), '{}', {}, { ...opts, timeoutMs: 1_500 });
      const short = await pools.post(target(url), '{}', {}, { ...opts, timeoutMs: 300 });
      expect(short).toMatchObject({ statusCode: null, error: 'timeout', responseBody: null });
      expect(short.durationMs).toBeGreaterThanOrEqual(280);
      expect(short.durationMs).toBeLessThan(1_000);
      expect(await long).toMatchObject({ statusCode: null, error: 'timeout' });
    });
  });

  it('a short limit of the request that made the pool does not shorten later requests to that target', async () => {
    await withSilentServer(async (url) => {
      // A request whose limit a slow DNS answer cut short makes the pool…
      expect(await pools.post(target(url), '{}', {}, { ...opts, timeoutMs: 100 })).toMatchObject({ error: 'timeout' });
      // …and the next one still gets its whole limit (it used to inherit the 100 ms connect timeout).
      const next = await pools.post(target(url), '{}', {}, { ...opts, timeoutMs: 1_200 });
      expect(next).toMatchObject({ statusCode: null, error: 'timeout' });
      expect(next.durationMs).toBeGreaterThanOrEqual(1_150);
    });
  });

  it('a body that trickles in counts against the same timeout', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('slow');
      const tick = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(tick));
    });
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, { ...opts, timeoutMs: 300 });
    expect(result).toMatchObject({ statusCode: 200, error: 'timeout' });
    expect(result.responseBody?.startsWith('slow')).toBe(true);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it('a 1 MB answer: only maxResponseBytes are kept and the call returns quickly', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(1024 * 1024));
    });
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(result.responseBody).toHaveLength(4096);
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it('an endless answer is cut off at maxResponseBytes, not read to the timeout', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(200);
      const chunk = 'y'.repeat(1024);
      const pump = () => {
        while (res.write(chunk)) {}
      };
      res.on('drain', pump);
      pump();
    });
    // Read to the timeout, the endless answer would end in a timeout error; cut off, it ends without one (the
    // outcome, not the time it took, so that a slow machine cannot fail it).
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, { ...opts, timeoutMs: 60_000 });
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(result.responseBody).toHaveLength(4096);
  });

  it('the excerpt never ends in half a UTF-8 character', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(200);
      res.end(`a${'€'.repeat(2000)}`); // 1 + 3 × 2000 bytes: the 4096-byte cut falls inside a "€"
    });
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts);
    expect(result.responseBody).toBe(`a${'€'.repeat(1365)}`);
  });

  it('a NUL in the answer is kept as U+FFFD: PostgreSQL text cannot hold it, and the attempt must be recorded', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(500);
      res.end('ok\u0000tail\u0000');
    });
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: 500, error: 'http_status', responseBody: 'ok\uFFFDtail\uFFFD' });
  });

  it('a closed port is connection_refused', async () => {
    const { port, server } = await receiver(() => {});
    server.close();
    await once(server, 'close');
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: null, error: 'connection_refused', responseBody: null });
  });

  it('a connection dropped before the answer is connection_reset', async () => {
    const { port } = await receiver((req) => req.socket.destroy());
    const result = await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: null, error: 'connection_reset', responseBody: null });
  });

  it('connects to the checked address without resolving the hostname; Host stays the hostname', async () => {
    // receiver.test does not exist (.test is reserved): reaching the server proves no DNS lookup happened.
    const { port, received } = await receiver((_req, res) => res.end('ok'));
    const result = await pools.post(target(`http://receiver.test:${port}/x`), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: 200, error: null, responseBody: 'ok' });
    expect(received).toHaveLength(1);
    expect(received[0]?.url).toBe('/x');
    expect(received[0]?.headers.host).toBe(`receiver.test:${port}`);
  });

  it('https to a receiver that does not speak TLS is tls_error (the https path uses the checked address too)', async () => {
    const { port, received } = await receiver((_req, res) => res.end('plain'));
    const result = await pools.post(target(`https://receiver.test:${port}/`), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: null, error: 'tls_error', responseBody: null });
    expect(received).toHaveLength(0);
  });

  it('a scheme other than http(s) is refused without a connection', async () => {
    const result = await pools.post(target('ftp://127.0.0.1/'), '{}', {}, opts);
    expect(result).toMatchObject({ statusCode: null, error: 'url_not_allowed', responseBody: null });
  });

  it('keeps connections alive: ten messages in a row do not open ten connections', async () => {
    const { port, received, connections } = await receiver((_req, res) => res.end('ok'));
    for (let i = 0; i < 10; i++) {
      expect(await pools.post(target(`http://127.0.0.1:${port}/`), '{}', {}, opts)).toMatchObject({ error: null });
    }
    expect(received).toHaveLength(10);
    // undici may open a second connection while the first is being handed back; never one per message.
    expect(connections()).toBeLessThanOrEqual(2);
  });

  it('a connection whose answer was cut off is not reused', async () => {
    const { port, received } = await receiver((req, res) => {
      res.writeHead(200);
      res.end(req.url === '/big' ? 'x'.repeat(1024 * 1024) : 'small');
    });
    for (const path of ['/small', '/big', '/small', '/small']) {
      expect(await pools.post(target(`http://127.0.0.1:${port}${path}`), '{}', {}, opts)).toMatchObject({
        error: null,
      });
    }
    expect(received.map((r) => r.url)).toEqual(['/small', '/big', '/small', '/small']);
    const cutOff = received[1]?.socket;
    expect(received.filter((r) => r.socket === cutOff)).toHaveLength(1);
    expect(cutOff?.destroyed).toBe(true);
  });

  it('a connection is pooled per checked address: a hostname that now resolves elsewhere gets a new one', async () => {
    const { port, connections } = await receiver((_req, res) => res.end('ok'));
    const url = new URL(`http://receiver.test:${port}/`);
    expect(await pools.post({ url, address: '127.0.0.1', family: 4 }, '{}', {}, opts)).toMatchObject({ error: null });
    // The same hostname and port, checked again, now at 127.0.0.2 (also this machine, nothing listens there on
    // this port's server): not sent over the kept connection to 127.0.0.1.
    expect(await pools.post({ url, address: '127.0.0.2', family: 4 }, '{}', {}, opts)).toMatchObject({
      error: 'connection_refused',
    });
    expect(connections()).toBe(1);
  });

  it('https: SNI is the hostname, the connection goes to the checked address, the certificate is verified', async () => {
    // A TLS server for receiver.test with a self-signed certificate (test/fixtures): the handshake fails on the
    // certificate (not trusted), after the client named receiver.test in its hello.
    const sni: string[] = [];
    const server = createTlsServer({
      key: readFileSync(new URL('../fixtures/receiver-test.key', import.meta.url)),
      cert: readFileSync(new URL('../fixtures/receiver-test.crt', import.meta.url)),
      SNICallback: (name, cb) => {
        sni.push(name);
        cb(null, undefined);
      },
    });
    server.on('tlsClientError', () => {});
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const result = await pools.post(target(`https://receiver.test:${port}/`), '{}', {}, opts);
      expect(result).toMatchObject({ statusCode: null, error: 'tls_error', responseBody: null });
      expect(sni).toEqual(['receiver.test']);
    } finally {
      server.close();
    }
  });
});
