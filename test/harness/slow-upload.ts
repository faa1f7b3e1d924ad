// A client that uploads a file the slow way, on a real socket: the form's head and a PDF's first bytes, then one byte
// every 100 ms until told to finish or its byte budget is spent, then the rest at once and the form's end. The body's
// length is declared (Content-Length), as browsers and curl send a file: a chunked body is read whole by the body
// rules before the handler (hono's bodyLimit), which is not the path this measures.
// What issue 46 measured: such uploads used to hold a database connection each for as long as they lasted.
import { request } from 'node:http';

export type SlowUpload = {
  /** Bytes of the file sent so far. */
  sent: () => number;
  /** Whether the answer has arrived. */
  answered: () => boolean;
  /** Sends the rest of the form now. */
  finish: () => void;
  /** Goes away mid-body: the socket is destroyed. */
  abort: () => void;
  /** The answer (status and body), or `aborted`. */
  result: Promise<{ status: number; body: string } | 'aborted'>;
};

const BOUNDARY = 'slow-upload-boundary';

export function slowUpload(url: string, key: string, { budget = 300, everyMs = 100 } = {}): SlowUpload {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
    'Content-Type: application/pdf\r\n\r\n%PDF-1.7\n';
  const tail = `\r\n--${BOUNDARY}--\r\n`;
  const req = request(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(Buffer.byteLength(head) + budget + Buffer.byteLength(tail)),
    },
  });
  let sent = 0;
  let answered = false;
  let finished = false;
  const timer = setInterval(() => {
    if (sent >= budget) return finish();
    req.write('A');
    sent++;
  }, everyMs);
  const finish = () => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    req.end(`${'A'.repeat(budget - sent)}${tail}`);
  };
  const result = new Promise<{ status: number; body: string } | 'aborted'>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        answered = true;
        clearInterval(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', (error) => {
      clearInterval(timer);
      if (finished && !answered) resolve('aborted');
      else reject(error);
    });
  });
  req.write(head);
  return {
    sent: () => sent,
    answered: () => answered,
    finish,
    abort: () => {
      finished = true;
      clearInterval(timer);
      req.destroy();
    },
    result,
  };
}
