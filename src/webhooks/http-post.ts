// One webhook POST to an address the SSRF guard has already checked. The socket connects to exactly that
// address (the `lookup` option answers with it, no second DNS query), while the Host header, TLS SNI and
// certificate verification still use the URL's hostname. Redirects are never followed, the whole exchange
// (connect, TLS, headers, body) is bounded by one timer, and at most maxResponseBytes of the answer are read.
//
// Connections are kept alive per pinned target: one keep-alive Agent per (protocol, checked address, port,
// hostname), whose lookup answers with that address only, so a pooled socket can only ever be one that was
// opened to the address checked for this very request. A connection is handed back to the pool only after an
// answer was read to its end; one whose answer was cut off (size limit, timeout, error) is destroyed.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';

export type PostTarget = { url: URL; address: string; family: 4 | 6 };

export type PostOptions = { timeoutMs: number; maxResponseBytes: number };

export type DeliveryError =
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'dns_failure'
  | 'tls_error'
  | 'redirect'
  | 'http_status'
  | 'url_not_allowed';

export type PostResult = {
  /** The answer's status, null when no answer (status line) was received. */
  statusCode: number | null;
  durationMs: number;
  /** null on a 2xx answer. */
  error: DeliveryError | null;
  /** The first maxResponseBytes of the body as UTF-8 text (an incomplete last character is dropped). */
  responseBody: string | null;
};

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

function classify(error: NodeJS.ErrnoException, connected: boolean): DeliveryError {
  const code = error.code ?? '';
  if (TLS_CODE.test(code) || /certificate|ssl|tls/i.test(error.message)) return 'tls_error';
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'connection_refused';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns_failure';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset';
  return connected ? 'connection_reset' : 'connection_refused';
}

/** Agents kept (least recently used dropped first), idle connections per agent, and how long one may idle. */
const MAX_AGENTS = 128;
const MAX_FREE_SOCKETS = 32;
// Below the 5 s keep-alive timeout of Node's HTTP server (and most others): a connection is closed by us
// before the receiver closes it under a request. Node's agent also honours a shorter `Keep-Alive: timeout=`.
const IDLE_SOCKET_MS = 4_000;

type PinnedAgent = HttpAgent | HttpsAgent;
const agents = new Map<string, PinnedAgent>();

/** Answers every lookup with the checked address; both callback shapes, as net asks with `all: true` when it
 * tries several address families. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function agentFor(target: PostTarget, isHttps: boolean, hostname: string, port: number): PinnedAgent {
  const key = `${isHttps ? 'https' : 'http'}|${target.address}|${port}|${hostname}`;
  const found = agents.get(key);
  if (found) {
    // Most recently used last.
    agents.delete(key);
    agents.set(key, found);
    return found;
  }
  const options = {
    keepAlive: true,
    maxFreeSockets: MAX_FREE_SOCKETS,
    timeout: IDLE_SOCKET_MS,
    scheduling: 'lifo' as const,
    lookup: pinnedLookup(target.address, target.family),
  };
  const agent = isHttps ? new HttpsAgent(options) : new HttpAgent(options);
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const [oldestKey, oldest] = agents.entries().next().value as [string, PinnedAgent];
    agents.delete(oldestKey);
    retire(oldest);
  }
  return agent;
}

/** A dropped agent: requests in flight finish, but no connection of it is kept or reused any more. */
function retire(agent: PinnedAgent) {
  (agent as unknown as { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

/** Closes every pooled connection (tests, shutdown). */
export function closeIdleConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export async function postJson(
  target: PostTarget,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const { url } = target;
  const isHttps = url.protocol === 'https:';
  if (!isHttps && url.protocol !== 'http:') {
    return { statusCode: null, durationMs: 0, error: 'url_not_allowed', responseBody: null };
  }
  const first = await exchange(target, body, headers, opts, started, true);
  if (first !== 'stale') return first;
  // A kept-alive connection that the receiver had closed while idle: the request never reached it. Send it
  // once more on a new connection, within the same time limit.
  const again = await exchange(target, body, headers, opts, started, false);
  return again === 'stale' ? { statusCode: null, durationMs: 0, error: 'connection_reset', responseBody: null } : again;
}

function exchange(
  target: PostTarget,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions,
  started: number,
  pooled: boolean,
): Promise<PostResult | 'stale'> {
  const elapsed = () => Math.round(performance.now() - started);
  const { url } = target;
  const isHttps = url.protocol === 'https:';
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? (isHttps ? 443 : 80) : Number(url.port);

  return new Promise<PostResult | 'stale'>((resolve) => {
    let settled = false;
    let connected = false;
    let statusCode: number | null = null;
    let responseBody: string | null = null;

    /** `reusable`: the answer was read to its end, so the connection may go back to the pool. */
    const finish = (error: DeliveryError | null, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!reusable) req.destroy();
      resolve({ statusCode, durationMs: elapsed(), error, responseBody });
    };

    const onResponse = (res: IncomingMessage) => {
      statusCode = res.statusCode ?? null;
      const outcome: DeliveryError | null =
        statusCode !== null && statusCode >= 200 && statusCode < 300
          ? null
          : statusCode !== null && statusCode >= 300 && statusCode < 400
            ? 'redirect'
            : 'http_status';
      const decoder = new StringDecoder('utf8');
      let received = 0;
      responseBody = '';
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const take = chunk.subarray(0, opts.maxResponseBytes - received);
        received += take.length;
        responseBody += decoder.write(take);
        if (received >= opts.maxResponseBytes) {
          // Enough: stop reading and drop the connection rather than drain an unbounded body.
          res.destroy();
          finish(outcome);
        }
      });
      res.on('end', () => {
        if (settled) return;
        responseBody += decoder.end();
        // Read to its end: the connection is clean and goes back to its agent (when it keeps it alive).
        finish(outcome, res.complete);
      });
      // An answer cut off mid-body still counts as the answer received so far.
      res.on('error', () => finish(outcome));
      res.on('aborted', () => finish(outcome));
    };

    const requestOptions = {
      method: 'POST',
      protocol: url.protocol,
      host: hostname,
      port,
      path: `${url.pathname}${url.search}`,
      headers: {
        ...headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
      },
      lookup: pinnedLookup(target.address, target.family),
      // Pooled only among requests to the same checked address, port and hostname (see agentFor); a fresh
      // connection when a pooled one turned out to be closed.
      agent: pooled ? agentFor(target, isHttps, hostname, port) : (false as const),
      // SNI and certificate checks by hostname (not sent for IP-literal hosts, as TLS requires).
      ...(isHttps && isIP(hostname) === 0 ? { servername: hostname } : {}),
    };
    const req = isHttps ? httpsRequest(requestOptions, onResponse) : httpRequest(requestOptions, onResponse);
    const timer = setTimeout(() => finish('timeout'), Math.max(0, opts.timeoutMs - elapsed()));

    req.on('socket', (socket) => {
      if (req.reusedSocket) {
        connected = true;
        return;
      }
      socket.once(isHttps ? 'secureConnect' : 'connect', () => {
        connected = true;
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      const code = error.code ?? '';
      if (req.reusedSocket && statusCode === null && (code === 'ECONNRESET' || code === 'EPIPE')) {
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve('stale');
        return;
      }
      finish(classify(error, connected));
    });
    req.end(body);
  });
}
