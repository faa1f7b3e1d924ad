// The Node HTTP server's limits on slow clients. Node waits 300 s for a request and checks only every 30 s, so a
// client sending a byte a second held a connection (and its memory) for minutes. A JSON body is at most 1 MiB and an
// upload 11 MiB: 30 s for the whole request is over 3 Mbit/s for the largest upload and ample for any JSON one;
// headers are a few hundred bytes, 10 s covers a slow network's round trips. Both are configurable (README).
import type { ServerOptions } from 'node:http';
import type { Config } from '../config.ts';

export function httpServerOptions(config: Config): ServerOptions {
  return {
    headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    // How often Node looks for requests past those limits (30 s by default, which made a 60 s limit 81 s).
    connectionsCheckingInterval: Math.min(1000, Math.ceil(config.HTTP_HEADERS_TIMEOUT_MS / 4)),
  };
}
