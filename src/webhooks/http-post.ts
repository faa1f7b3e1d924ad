// One webhook POST to an address the SSRF guard has already checked, sent with undici (about half the CPU per
// request of node:http, measured in the webhooks benchmark) through its dispatch interface: a handler that
// keeps the status and the excerpt, with no response stream, async iteration or AbortSignal per request
// (undici's request() cost ~75% more CPU per message in the sending thread in a micro-benchmark here). The
// socket connects to exactly that address (the connector's `lookup` answers with it, no second DNS query),
// while the Host header, TLS SNI and certificate verification still use the URL's hostname. Redirects are
// never followed, the whole exchange (connect, TLS, headers, body) is bounded by one timer, and at most
// maxResponseBytes of the answer are read.
//
// Connections are kept alive per pinned target: one undici Pool per (protocol, checked address, port,
// hostname), whose connector answers every lookup with that address only, so a pooled connection can only ever
// be one that was opened to the address checked for this very request. A connection is reused only after an
// answer was read to its end; one whose answer was cut off (size limit, timeout, error) is destroyed. Idle
// connections are closed after the receiver's Keep-Alive hint (minus a margin) or IDLE_SOCKET_MS, before the
// receiver closes them under a request; if it does anyway, that attempt fails and the retry schedule sends
// the message again (same webhook-id).
import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { type Dispatcher, Pool } from 'undici';
import { DELIVERY_TIMEOUT_MS } from './schedule.ts';

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
  /**
   * The first maxResponseBytes of the body as UTF-8 text (an incomplete last character is dropped; bytes that are
   * not UTF-8, and NUL, which PostgreSQL text cannot hold, become U+FFFD).
   */
  responseBody: string | null;
};

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;
const TIMEOUT_CODE = new Set([
  'ETIMEDOUT',
  'UND_ERR_ABORTED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function classify(error: unknown, timedOut: boolean): DeliveryError {
  if (timedOut) return 'timeout';
  const { code = '', message = '' } = (error ?? {}) as { code?: string; message?: string };
  if (TLS_CODE.test(code) || /certificate|ssl|tls/i.test(message)) return 'tls_error';
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'connection_refused';
  if (TIMEOUT_CODE.has(code)) return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns_failure';
  // UND_ERR_SOCKET ("other side closed"), ECONNRESET, EPIPE and anything else once a connection existed.
  return 'connection_reset';
}

/** Pools kept (least recently used dropped first), and how long a connection may idle. */
const MAX_POOLS = 128;
// Below the 5 s keep-alive timeout of Node's HTTP server (and most others); undici also honours a shorter
// `Keep-Alive: timeout=` hint of the receiver (minus its own margin).
const IDLE_SOCKET_MS = 4_000;

/** Answers every lookup with the checked address; both callback shapes, as net asks with `all: true` when it
 * tries several address families. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * The kept-alive connections of a sender, one undici Pool per pinned target (see above); the least recently used
 * pool is closed beyond MAX_POOLS.
 */
export class ConnectionPools {
  private readonly pools = new Map<string, Pool>();

  post(
    target: PostTarget,
    body: string | Buffer,
    headers: Record<string, string>,
    opts: PostOptions,
  ): Promise<PostResult> {
    if (target.url.protocol !== 'https:' && target.url.protocol !== 'http:') {
      return Promise.resolve({ statusCode: null, durationMs: 0, error: 'url_not_allowed', responseBody: null });
    }
    return new Promise<PostResult>((resolve) => {
      const exchange = new Exchange(opts, resolve);
      try {
        const { url } = target;
        this.poolFor(target).dispatch(
          {
            method: 'POST',
            path: `${url.pathname}${url.search}`,
            headers: { ...headers, 'Content-Type': 'application/json' },
            body,
            // The exchange's one timer bounds it all; these only must not cut it shorter.
            headersTimeout: opts.timeoutMs,
            bodyTimeout: opts.timeoutMs,
          },
          exchange,
        );
      } catch (error) {
        exchange.fail(error);
      }
    });
  }

  /** Closes every pool (requests in flight finish first). */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => {})));
  }

  private poolFor(target: PostTarget): Pool {
    const { url } = target;
    const key = `${url.protocol}|${target.address}|${url.port}|${url.hostname}`;
    const found = this.pools.get(key);
    if (found) {
      // Most recently used last.
      this.pools.delete(key);
      this.pools.set(key, found);
      return found;
    }
    // The origin keeps the URL's hostname: it is the Host header and, over TLS, the SNI name and the name the
    // certificate must match (none is sent for an IP literal, as TLS requires). Only the lookup is pinned.
    const pool = new Pool(url.origin, {
      // No cap here: the delivery task bounds the requests in flight per endpoint, and a request waiting in a
      // pool's queue would spend its time limit before it is sent.
      connections: null,
      pipelining: 1,
      keepAliveTimeout: IDLE_SOCKET_MS,
      keepAliveMaxTimeout: IDLE_SOCKET_MS,
      // The longest any attempt may take, not this request's limit: the pool outlives the request, and a request
      // whose limit was shortened (by a slow DNS answer) must not shorten every later one to the target. Each
      // exchange's own timer answers sooner; this only ends a connection attempt nobody waits for any more.
      connect: { lookup: pinnedLookup(target.address, target.family), timeout: DELIVERY_TIMEOUT_MS },
    });
    this.pools.set(key, pool);
    if (this.pools.size > MAX_POOLS) {
      const [oldestKey, oldest] = this.pools.entries().next().value as [string, Pool];
      this.pools.delete(oldestKey);
      // Requests in flight finish; no connection of it is kept or reused any more.
      void oldest.close().catch(() => {});
    }
    return pool;
  }
}

/**
 * One POST's answer as undici hands it over: the final status and the first maxResponseBytes of the body,
 * within one timer for the whole exchange. A class, not closures: this runs for every message.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  // Made when a body arrives: most answers (204) have none.
  private decoder: StringDecoder | null = null;
  // Known once undici starts the request on a connection; a timer firing before that (still connecting)
  // answers at once, and the pool's connect timeout ends the connection attempt.
  private controller: Dispatcher.DispatchController | null = null;
  private statusCode: number | null = null;
  private outcome: DeliveryError | null = null;
  private responseBody: string | null = null;
  private received = 0;
  private timedOut = false;
  private answered = false;

  constructor(
    private readonly opts: PostOptions,
    private readonly resolve: (result: PostResult) => void,
  ) {
    this.timer = setTimeout(() => this.timeUp(), opts.timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.answered) controller.abort(new Error('the attempt is already answered'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // Informational 1xx answers are handled by undici and never reach here (tested with a 103).
    this.statusCode = statusCode;
    this.outcome = statusCode < 300 ? null : statusCode < 400 ? 'redirect' : 'http_status';
    this.responseBody = '';
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const take = chunk.subarray(0, this.opts.maxResponseBytes - this.received);
    this.received += take.length;
    this.decoder ??= new StringDecoder('utf8');
    this.responseBody = (this.responseBody ?? '') + this.decoder.write(take);
    if (this.received >= this.opts.maxResponseBytes) {
      // Enough: the answer is what was read; the connection is dropped rather than drain an unbounded body.
      this.onResponseEnd();
      controller.abort(new Error('the answer is longer than the excerpt kept'));
    }
  }

  onResponseEnd(): void {
    this.responseBody = (this.responseBody ?? '') + (this.decoder?.end() ?? '');
    this.answer(this.outcome);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** An answer cut off mid-body (time limit, reset) still counts as the answer received so far. */
  fail(error: unknown): void {
    this.answer(classify(error, this.timedOut));
  }

  private timeUp(): void {
    this.timedOut = true;
    this.controller?.abort(new Error('the time limit of the attempt is over'));
    this.fail(null);
  }

  private answer(error: DeliveryError | null): void {
    if (this.answered) return;
    this.answered = true;
    clearTimeout(this.timer);
    const durationMs = Math.round(performance.now() - this.started);
    this.resolve({ statusCode: this.statusCode, durationMs, error, responseBody: recordable(this.responseBody) });
  }
}

/**
 * The excerpt as PostgreSQL text can store it: a NUL in a receiver's answer made the attempt's INSERT fail, so
 * the attempt went unrecorded and the message was sent again on the queue's own backoff, not the schedule.
 */
function recordable(text: string | null): string | null {
  return text?.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
}
