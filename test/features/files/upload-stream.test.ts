// Uploads (src/http/upload.ts) on a real socket, sent by curl from another process so that only the
// server's memory is measured: a 10 MB file costs the server the file itself and a small buffer more, an 11 MB
// one is refused with 413 as soon as it passes the limit, the type comes from the bytes.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../../src/db/tenant.ts';
import { DOCUMENT_TYPES, IMAGE_TYPES } from '../../../src/files/file-types.ts';
import { storeFile } from '../../../src/files/records.ts';
import { CHUNK_BYTES, type FileStorage, postgresFileStorage } from '../../../src/files/storage.ts';
import { FileStorages } from '../../../src/files/storages.ts';
import type { AppEnv } from '../../../src/http/app-env.ts';
import { ApiProblem, problemResponse } from '../../../src/http/problems.ts';
import { MAX_FILE_BYTES, spoolUpload } from '../../../src/http/upload.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';
import { fixtureFiles } from './fixtures.ts';

const CURL = '/usr/bin/curl';

let api: TestApi;
let companyId: string;
let origin: string;
let dir: string;
// Buffer memory (`arrayBuffers`, which counts every Buffer; `external` includes it again) of the last upload, above the level before it: the highest seen while it
// was received (sampled every 2 ms, garbage not yet collected included), what stays reachable once it is parsed
// (after a collection), and what stays after a refusal (after a collection).
let peakDuringUpload = 0;
let heldAfterParse = 0;
let heldAfterRefusal = 0;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const bufferMemory = () => process.memoryUsage().arrayBuffers;
/** A full collection, with time for V8 to release the freed buffers (it sweeps them concurrently). */
async function settle() {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  api = await setupApi();
  ({ companyId } = await api.tenant());
  dir = mkdtempSync(join(tmpdir(), 'crm-upload-'));
  // A bare app around spoolUpload: the operations that take uploads come with their resources; this checks the
  // mechanism itself, on a socket, with the spec of quote attachments and of work-order photos.
  const app = new Hono<AppEnv>();
  app.onError((error, c) => {
    if (error instanceof ApiProblem) return problemResponse(c, error);
    throw error;
  });
  app.post('/upload/:kind', async (c) => {
    const images = c.req.param('kind') === 'photo';
    const created = ({ upload, row }: Awaited<ReturnType<typeof receiveAndStore>>) =>
      c.json({ id: row.id, name: row.name, mime_type: row.mimeType, size: row.size, fields: upload.fields }, 201);
    // Measured only where a test reads the figures: each settle is three full collections of the worker's heap,
    // seconds over the file's twenty uploads.
    if (c.req.query('measure') === undefined) return created(await receiveAndStore(c, api.deps.fileStorages, images));
    await settle();
    const before = bufferMemory();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, bufferMemory());
    }, 2);
    try {
      const stored = await receiveAndStore(c, api.deps.fileStorages, images);
      await settle();
      heldAfterParse = bufferMemory() - before;
      peak = Math.max(peak, bufferMemory());
      return created(stored);
    } catch (error) {
      await settle();
      heldAfterRefusal = bufferMemory() - before;
      throw error;
    } finally {
      clearInterval(sampler);
      peakDuringUpload = peak - before;
    }
  });
  ({ origin } = await listenOnLoopback(app as never));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * spoolUpload with the spec of quote attachments (documents) or of work-order photos (images), then stored in a
 * transaction of its own, as createWithUpload does.
 */
async function receiveAndStore(c: Context<AppEnv>, storages: FileStorages, images: boolean) {
  return spoolUpload(
    c,
    {
      types: images ? IMAGE_TYPES : DOCUMENT_TYPES,
      typeNames: images ? 'JPEG, PNG, GIF, WebP' : 'PDF, JPEG, PNG, GIF, WebP, Word, Excel',
      fields: { description: { kind: 'text', maxLength: 255 }, visible_to_customer: { kind: 'boolean' } },
    },
    async (upload) => {
      const row = await withTenant(api.deps.db, companyId, (tx) =>
        storeFile(tx, storages, companyId, {
          name: upload.name,
          mimeType: upload.type.mime,
          size: upload.size,
          chunks: upload.bytes(),
        }),
      );
      return { upload, row };
    },
  );
}

/**
 * Sends a form with curl (another process): `-F` arguments as curl takes them. `measure`: the server records its
 * buffer memory around this upload (peakDuringUpload, heldAfterParse, heldAfterRefusal).
 */
function curl(
  kind: 'document' | 'photo',
  form: string[],
  { measure = false } = {},
): Promise<{ status: number; body: string }> {
  const url = `${origin}/upload/${kind}${measure ? '?measure' : ''}`;
  const args = ['-s', '-o', '-', '-w', '\n%{http_code}', ...form.flatMap((f) => ['-F', f]), url];
  return new Promise((resolve, reject) => {
    execFile(CURL, args, { encoding: 'latin1', maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return reject(error);
      const at = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) });
    });
  });
}

function write(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const storedCount = async () => Number((await api.sql`select count(*) from files`)[0].count);
const MB = 1024 * 1024;

describe.skipIf(!existsSync(CURL))('streamed uploads (curl on a socket)', () => {
  if (!existsSync(CURL)) console.warn(`${CURL} missing: streamed uploads are not checked on a socket`);

  it('a 10 MB PDF is stored, and once stored under 1 MB of buffers is left reachable', async () => {
    // Written from a function's scope: the test keeps no copy of the file that would count as the server's.
    const path = write('big.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(MAX_FILE_BYTES - 9)]));
    const { status, body } = await curl(
      'document',
      [`file=@${path}`, 'description=Kleurenkaart', 'visible_to_customer=true'],
      { measure: true },
    );
    expect(status).toBe(201);
    const created = JSON.parse(body);
    expect(created).toMatchObject({
      name: 'big.pdf',
      mime_type: 'application/pdf',
      size: MAX_FILE_BYTES,
      fields: { description: 'Kleurenkaart', visible_to_customer: true },
    });
    const [{ bytes }] =
      await api.sql`select sum(length(data))::int as bytes from file_chunks where file_id = ${created.id}`;
    expect(bytes).toBe(MAX_FILE_BYTES);
    console.info(
      `10 MiB upload: ${(heldAfterParse / MB).toFixed(2)} MiB of buffers reachable after storing, ` +
        `peak ${(peakDuringUpload / MB).toFixed(2)} MiB with uncollected garbage (the file: 10.00 MiB)`,
    );
    expect(heldAfterParse).toBeLessThan(1 * MB);
  });

  it('a file of 10 MB and one byte, and one of 11 MB, are refused with 413 and nothing is stored', async () => {
    const before = await storedCount();
    for (const size of [MAX_FILE_BYTES + 1, 11 * MB]) {
      const path = write(`over-${size}.pdf`, Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]));
      const { status, body } = await curl('document', [`file=@${path}`], { measure: true });
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ code: 'payload_too_large', status: 413 });
      // Nothing of the refused file stays reachable.
      console.info(
        `${(size / MB).toFixed(2)} MiB upload refused: ${(heldAfterRefusal / MB).toFixed(2)} MiB of buffers reachable ` +
          `after the refusal, peak ${(peakDuringUpload / MB).toFixed(2)} MiB with uncollected garbage`,
      );
      expect(heldAfterRefusal).toBeLessThan(1 * MB);
    }
    expect(await storedCount()).toBe(before);
  });

  it('the type comes from the bytes: a renamed executable sent as a PDF is refused with 422', async () => {
    const before = await storedCount();
    const exe = write('offerte.pdf', fixtureFiles.exe);
    const { status, body } = await curl('document', [`file=@${exe};type=application/pdf`]);
    expect(status).toBe(422);
    const problem = JSON.parse(body);
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors[0]).toMatchObject({ pointer: '/file', code: 'invalid_format' });
    expect(problem.errors[0].detail).toContain('application/x-msdownload');
    const text = write('notes.pdf', Buffer.from('just some text, no PDF at all\n'));
    expect((await curl('document', [`file=@${text}`])).status).toBe(422);
    expect(await storedCount()).toBe(before);
  });

  // Eight uploads, each a curl process: a loaded machine takes longer than the default 30 s.
  it('accepts each allowed type by its content, whatever its name, and names Word and Excel apart', async () => {
    const cases: [string, Uint8Array, string][] = [
      ['scan.bin', fixtureFiles.png, 'image/png'],
      ['foto.jpeg', fixtureFiles.jpeg, 'image/jpeg'],
      ['anim.gif', fixtureFiles.gif, 'image/gif'],
      ['foto.webp', fixtureFiles.webp, 'image/webp'],
      ['brief.docx', fixtureFiles.docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['lijst.xlsx', fixtureFiles.xlsx, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['oud.doc', fixtureFiles.doc, 'application/msword'],
      ['oud.xls', fixtureFiles.xls, 'application/vnd.ms-excel'],
    ];
    for (const [name, bytes, mime] of cases) {
      const { status, body } = await curl('document', [`file=@${write(name, bytes)}`]);
      expect({ name, status }).toEqual({ name, status: 201 });
      expect(JSON.parse(body).mime_type).toBe(mime);
    }
  }, 120_000);

  it('work-order photos take images only', async () => {
    expect((await curl('photo', [`file=@${write('p.png', fixtureFiles.png)}`])).status).toBe(201);
    const pdf = await curl('photo', [`file=@${write('p.pdf', Buffer.from('%PDF-1.7\nx'))}`]);
    expect(pdf.status).toBe(422);
    expect(JSON.parse(pdf.body).errors[0].detail).toContain('JPEG, PNG, GIF, WebP');
  });

  it('refuses a form without a file, with an unknown part, or with bad field values (422)', async () => {
    const png = write('x.png', fixtureFiles.png);
    const noFile = await curl('document', ['description=x']);
    expect(noFile.status).toBe(422);
    expect(JSON.parse(noFile.body).errors[0]).toMatchObject({ pointer: '/file', code: 'required' });
    const unknown = await curl('document', [`file=@${png}`, 'colour=red']);
    expect(JSON.parse(unknown.body).errors[0]).toMatchObject({ pointer: '/colour', code: 'unknown_field' });
    const notBoolean = await curl('document', [`file=@${png}`, 'visible_to_customer=yes']);
    expect(JSON.parse(notBoolean.body).errors[0]).toMatchObject({
      pointer: '/visible_to_customer',
      code: 'invalid_type',
    });
    const long = await curl('document', [`file=@${png}`, `description=${'x'.repeat(256)}`]);
    expect(JSON.parse(long.body).errors[0]).toMatchObject({ pointer: '/description', code: 'too_long' });
    const two = await curl('document', [`file=@${png}`, `file=@${png}`]);
    expect(two.status).toBe(422);
    const empty = await curl('document', [`file=@${write('empty.pdf', new Uint8Array())}`]);
    expect(JSON.parse(empty.body).errors[0]).toMatchObject({ pointer: '/file', code: 'too_small' });
  });

  it('keeps a UTF-8 file name as sent', async () => {
    const { body } = await curl('document', [
      `file=@${write('plattegrond.png', fixtureFiles.png)};filename=Kölner Straße.png`,
    ]);
    expect(JSON.parse(Buffer.from(body, 'latin1').toString('utf8')).name).toBe('Kölner Straße.png');
  });
});

// The pipeline itself, without a socket: a body that arrives 64 KiB at a time, and a storage that records what it
// is given. The body is received whole into a spool file before the storage (and its transaction) gets a byte, then
// stored from the spool a chunk at a time; the spool file is gone afterwards, whatever the outcome.
describe('an upload is spooled, then stored', () => {
  // os.tmpdir() follows TMPDIR: this file's spool files go to a folder of its own, to be counted.
  let spoolDir: string;
  let tmpBefore: string | undefined;
  beforeAll(() => {
    spoolDir = mkdtempSync(join(tmpdir(), 'crm-spool-test-'));
    tmpBefore = process.env.TMPDIR;
    process.env.TMPDIR = spoolDir;
  });
  afterAll(() => {
    if (tmpBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpBefore;
    rmSync(spoolDir, { recursive: true, force: true });
  });
  const spoolFiles = () => readdirSync(spoolDir);

  const CHUNK = 64 * 1024;
  const BOUNDARY = 'stream-test-boundary';

  /** A 10 MB form sent in 64 KiB pieces; `sent()` tells how many bytes of it were handed over so far. */
  function formBody(head: Buffer, size: number, { cutAt }: { cutAt?: number } = {}) {
    const before = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    );
    const after = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const total = before.length + size + after.length;
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent >= total) return controller.close();
          // A client that goes away mid-body.
          if (cutAt !== undefined && sent >= cutAt) return controller.error(new Error('aborted'));
          const piece = Buffer.alloc(Math.min(CHUNK, total - sent), 0x41);
          // The form's bytes at [sent, sent + piece.length): its head, the file (its own head, then filler), its end.
          for (let i = 0; i < piece.length; i++) {
            const at = sent + i;
            const inFile = at - before.length;
            if (at < before.length) piece[i] = before[at];
            else if (inFile < head.length) piece[i] = head[inFile];
            else if (inFile >= size) piece[i] = after[inFile - size];
          }
          sent += piece.length;
          controller.enqueue(piece);
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, sent: () => sent, total };
  }

  /** A storage (PostgreSQL underneath) that records the largest piece given and how much was sent at the first. */
  function recordingStorages(sent: () => number) {
    const seen = { largest: 0, bytes: 0, sentAtFirst: -1 };
    const recording: FileStorage = {
      ...postgresFileStorage,
      write(tx, company, fileId, bytes, size) {
        async function* recorded() {
          for await (const piece of bytes) {
            if (seen.sentAtFirst < 0) seen.sentAtFirst = sent();
            seen.largest = Math.max(seen.largest, piece.byteLength);
            seen.bytes += piece.byteLength;
            yield piece;
          }
        }
        return postgresFileStorage.write(tx, company, fileId, recorded(), size);
      },
    };
    const storages = new FileStorages('postgres', undefined);
    (storages as { current: FileStorage }).current = recording;
    return { storages, seen };
  }

  async function send(head: Buffer, size: number, options: { cutAt?: number } = {}) {
    const body = formBody(head, size, options);
    const { storages, seen } = recordingStorages(body.sent);
    const app = new Hono<AppEnv>();
    app.onError((error, c) => {
      if (error instanceof ApiProblem) return problemResponse(c, error);
      throw error;
    });
    app.post('/upload', async (c) => {
      const { row } = await receiveAndStore(c, storages, false);
      return c.json({ id: row.id, size: row.size, mime_type: row.mimeType }, 201);
    });
    const request = new Request('http://api.test/upload', {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
    const response = await app.request(request);
    return { response, seen, total: body.total };
  }

  it('a 10 MB PDF is received whole before the storage gets a byte, then stored a chunk at a time', async () => {
    const { response, seen, total } = await send(Buffer.from('%PDF-1.7\n'), MAX_FILE_BYTES);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ size: MAX_FILE_BYTES, mime_type: 'application/pdf' });
    expect(seen.bytes).toBe(MAX_FILE_BYTES);
    // The storage (in the transaction) started only once the whole body had arrived.
    expect(seen.sentAtFirst).toBe(total);
    expect(seen.largest).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(spoolFiles()).toEqual([]);
  });

  it('a refused type reaches the storage with nothing, and nothing is stored or left', async () => {
    const before = await storedCount();
    const { response, seen } = await send(Buffer.from(fixtureFiles.exe), 2 * MB);
    expect(response.status).toBe(422);
    expect(seen.bytes).toBe(0);
    expect(await storedCount()).toBe(before);
    expect(spoolFiles()).toEqual([]);
  });

  it('bytes file-type cannot name are refused; the storage gets nothing and the spool file is gone', async () => {
    const before = await storedCount();
    const { response, seen } = await send(Buffer.from('plain text, no known type'), 3 * MB);
    expect(response.status).toBe(422);
    expect(seen.bytes).toBe(0);
    expect(await storedCount()).toBe(before);
    expect(spoolFiles()).toEqual([]);
  });

  it('a client that goes away mid-body leaves no spool file and stores nothing', async () => {
    const before = await storedCount();
    const { response, seen } = await send(Buffer.from('%PDF-1.7\n'), 4 * MB, { cutAt: 2 * MB });
    expect(response.status).toBe(422);
    expect(seen.bytes).toBe(0);
    expect(await storedCount()).toBe(before);
    expect(spoolFiles()).toEqual([]);
  });
});
