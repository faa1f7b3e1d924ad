// One webhook POST to an address the SSRF guard has already checked. The socket connects to exactly that
// address (the `lookup` option answers with it, no second DNS query), while the Host header, TLS SNI and
// certificate verification still use the URL's hostname. Redirects are never followed, the whole exchange
// (connect, TLS, headers, body) is bounded by one timer, and at most maxResponseBytes of the answer are read.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
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

export function postJson(
  target: PostTarget,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { url } = target;
  const isHttps = url.protocol === 'https:';
  if (!isHttps && url.protocol !== 'http:') {
    return Promise.resolve({ statusCode: null, durationMs: 0, error: 'url_not_allowed', responseBody: null });
  }

  // Answers every lookup with the checked address; both callback shapes, as net asks with `all: true` when
  // it tries several address families.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    let connected = false;
    let statusCode: number | null = null;
    let responseBody: string | null = null;

    const finish = (error: DeliveryError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
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
        responseBody += decoder.end();
        finish(outcome);
      });
      // An answer cut off mid-body still counts as the answer received so far.
      res.on('error', () => finish(outcome));
      res.on('aborted', () => finish(outcome));
    };

    const requestOptions = {
      method: 'POST',
      protocol: url.protocol,
      host: hostname,
      port: url.port === '' ? (isHttps ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: {
        ...headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
      },
      lookup,
      // A fresh connection per delivery: a pooled socket might have been opened to another address.
      agent: false as const,
      // SNI and certificate checks by hostname (not sent for IP-literal hosts, as TLS requires).
      ...(isHttps && isIP(hostname) === 0 ? { servername: hostname } : {}),
    };
    const req = isHttps ? httpsRequest(requestOptions, onResponse) : httpRequest(requestOptions, onResponse);
    const timer = setTimeout(() => finish('timeout'), opts.timeoutMs);

    req.on('socket', (socket) => {
      socket.once(isHttps ? 'secureConnect' : 'connect', () => {
        connected = true;
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish(classify(error, connected)));
    req.end(body);
  });
}
