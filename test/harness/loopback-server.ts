// An app served over a real socket on 127.0.0.1 (for tests of what only a socket shows: timeouts, closes,
// connection headers, a browser), with the production server options unless told otherwise.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { createApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { httpServerOptions } from '../../src/http/server.ts';
import { atFileEnd } from './file-end.ts';

/**
 * Listens on a free port until the test file ends; `config` gives the server's timeouts. `app` is the service's app,
 * or anything with its `fetch` (a test that looks at the requests node-server hands it).
 */
export async function listenOnLoopback(app: Pick<ReturnType<typeof createApp>, 'fetch'>, config?: Config) {
  const server = serve({
    fetch: app.fetch,
    port: 0,
    hostname: '127.0.0.1',
    // Without a config, idle connections outlive the client's (undici keeps one ~4 s): with Node's default of 5 s,
    // a busy machine's late client timer reused a connection the server was closing (ECONNRESET in the docs test).
    serverOptions: config ? httpServerOptions(config) : { keepAliveTimeout: 120_000 },
  });
  await new Promise((resolve) => server.once('listening', resolve));
  atFileEnd(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { port, origin: `http://127.0.0.1:${port}` };
}
