// A real webhook receiver on 127.0.0.1: records every request (headers and the raw body, as a receiver must
// verify before parsing) and answers with what the test sets.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { closeServerAtFileEnd } from '../../harness/file-end.ts';

export type Received = { method: string; path: string; headers: IncomingHttpHeaders; rawBody: string };

export async function startReceiver() {
  const received: Received[] = [];
  let answer = { status: 204, body: '' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver has no TCP address');
  const { port } = address;
  closeServerAtFileEnd(server);
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    answerWith(status: number, body = '') {
      answer = { status, body };
    },
    reset() {
      received.length = 0;
      answer = { status: 204, body: '' };
    },
  };
}

/** The header of a received request as one string (node gives arrays only for repeated headers). */
export function header(r: Received, name: string): string {
  const value = r.headers[name];
  if (typeof value !== 'string') throw new Error(`header ${name} missing or repeated`);
  return value;
}

export function signatureHeaders(r: Received) {
  return {
    'webhook-id': header(r, 'webhook-id'),
    'webhook-timestamp': header(r, 'webhook-timestamp'),
    'webhook-signature': header(r, 'webhook-signature'),
  };
}
