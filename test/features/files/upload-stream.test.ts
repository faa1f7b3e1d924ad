// Streamed uploads (src/http/upload.ts) on a real socket, sent by curl from another process so that only the
// server's memory is measured: a 10 MB file costs the server the file itself and a small buffer more, an 11 MB
// one is refused with 413 as soon as it passes the limit, the type comes from the bytes.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../../src/db/tenant.ts';
import { DOCUMENT_TYPES, IMAGE_TYPES } from '../../../src/files/file-types.ts';
import { storeFile } from '../../../src/files/records.ts';
import type { AppEnv } from '../../../src/http/app-env.ts';
import { ApiProblem, problemResponse } from '../../../src/http/problems.ts';
import { MAX_FILE_BYTES, receiveUpload } from '../../../src/http/upload.ts';
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
  // A bare app around receiveUpload: the operations that take uploads come with their resources; this checks the
  // mechanism itself, on a socket, with the spec of quote attachments and of work-order photos.
  const app = new Hono<AppEnv>();
  app.onError((error, c) => {
    if (error instanceof ApiProblem) return problemResponse(c, error);
    throw error;
  });
  app.post('/upload/:kind', async (c) => {
    await settle();
    const before = bufferMemory();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, bufferMemory());
    }, 2);
    try {
      const images = c.req.param('kind') === 'photo';
      const upload = await receiveUpload(c, {
        types: images ? IMAGE_TYPES : DOCUMENT_TYPES,
        typeNames: images ? 'JPEG, PNG, GIF, WebP' : 'PDF, JPEG, PNG, GIF, WebP, Word, Excel',
        fields: { description: { kind: 'text', maxLength: 255 }, visible_to_customer: { kind: 'boolean' } },
      });
      await settle();
      heldAfterParse = bufferMemory() - before;
      const row = await withTenant(api.deps.db, companyId, (tx) =>
        storeFile(tx, api.deps.fileStorages, companyId, {
          name: upload.name,
          mimeType: upload.type.mime,
          size: upload.size,
          chunks: upload.chunks,
        }),
      );
      peak = Math.max(peak, bufferMemory());
      return c.json(
        { id: row.id, name: row.name, mime_type: row.mimeType, size: row.size, fields: upload.fields },
        201,
      );
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

/** Sends a form with curl (another process): `-F` arguments as curl takes them. */
function curl(kind: 'document' | 'photo', form: string[]): Promise<{ status: number; body: string }> {
  const args = ['-s', '-o', '-', '-w', '\n%{http_code}', ...form.flatMap((f) => ['-F', f]), `${origin}/upload/${kind}`];
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

  it('a 10 MB PDF is stored, holding the file and under 1 MB more in memory', async () => {
    // Written from a function's scope: the test keeps no copy of the file that would count as the server's.
    const path = write('big.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(MAX_FILE_BYTES - 9)]));
    const { status, body } = await curl('document', [
      `file=@${path}`,
      'description=Kleurenkaart',
      'visible_to_customer=true',
    ]);
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
      `10 MiB upload: ${(heldAfterParse / MB).toFixed(2)} MiB of buffers reachable after parsing, ` +
        `peak ${(peakDuringUpload / MB).toFixed(2)} MiB with uncollected garbage (the file: 10.00 MiB)`,
    );
    expect(heldAfterParse).toBeGreaterThan(MAX_FILE_BYTES - 1 * MB);
    expect(heldAfterParse).toBeLessThan(MAX_FILE_BYTES + 1 * MB);
  });

  it('a file of 10 MB and one byte, and one of 11 MB, are refused with 413 and nothing is stored', async () => {
    const before = await storedCount();
    for (const size of [MAX_FILE_BYTES + 1, 11 * MB]) {
      const path = write(`over-${size}.pdf`, Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]));
      const { status, body } = await curl('document', [`file=@${path}`]);
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
  });

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
