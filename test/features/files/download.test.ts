// Downloads through signed links: the bytes as stored, the headers that keep a browser from misreading them, and one
// indistinguishable 404 for every link that does not lead to a file (altered, expired, file deleted).
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../../src/db/tenant.ts';
import { deleteFile, type StoredFile, storeFile } from '../../../src/files/records.ts';
import { LINK_SECONDS } from '../../../src/files/signed-links.ts';
import { CHUNK_BYTES } from '../../../src/files/storage.ts';
import { RateLimits } from '../../../src/http/rate-limit.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ companyId } = await api.tenant());
});

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2 * CHUNK_BYTES + 1234), Buffer.from('\n%%EOF\n')]);

async function store(name: string, bytes: Buffer = PDF, company = companyId): Promise<StoredFile> {
  return withTenant(api.deps.db, company, (tx) =>
    storeFile(tx, api.deps.fileStorages, company, {
      name,
      mimeType: 'application/pdf',
      size: bytes.byteLength,
      // Pieces of another size than the storage's chunks: the storage regroups them.
      chunks: [bytes.subarray(0, 1000), bytes.subarray(1000, 300_000), bytes.subarray(300_000)],
    }),
  );
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const download = (token: string) => api.app.request(`http://api.test/api/v1/files/${token}`);

describe('a signed link', () => {
  it('answers the stored bytes with their type, a safe name, nosniff and no caching, without a key', async () => {
    const file = await store('kleurenkaart-sikkens.pdf');
    const url = api.deps.fileLinks.url({ companyId, fileId: file.id });
    expect(url).toMatch(/^http:\/\/api\.test\/api\/v1\/files\/[A-Za-z0-9._~-]{16,1024}$/);
    if (api.config.FILE_STORAGE === 'postgres') {
      // PostgreSQL keeps the bytes in 256 KiB chunks (S3 keeps one object: s3-storage.test.ts).
      const chunks =
        await api.sql`select seq, length(data) as bytes from file_chunks where file_id = ${file.id} order by seq`;
      expect(chunks.map((c) => c.bytes)).toEqual([CHUNK_BYTES, CHUNK_BYTES, PDF.byteLength - 2 * CHUNK_BYTES]);
    }

    const response = await download(tokenOf(url));
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(PDF)).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-length')).toBe(String(PDF.byteLength));
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="kleurenkaart-sikkens.pdf"');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('ratelimit')).toMatch(/^"downloads";r=\d+;t=\d+$/);
    // The contract's check of the same answer (status, headers).
    await api.call('downloadFile', { params: { token: tokenOf(url) } });
  });

  it('names a file with quotes, separators or non-ASCII characters safely (RFC 6266 filename*)', async () => {
    const file = await store('..\\offerte "definitief" – Köln.pdf');
    const response = await download(tokenOf(api.deps.fileLinks.url({ companyId, fileId: file.id })));
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="offerte _definitief_ _ K_ln.pdf"; filename*=UTF-8''offerte%20%22definitief%22%20%E2%80%93%20K%C3%B6ln.pdf`,
    );
  });

  it('altered, expired, or of a deleted file: the same 404, saying nothing about which', async () => {
    const file = await store('a.pdf');
    const linked = { companyId, fileId: file.id };
    const token = tokenOf(api.deps.fileLinks.url(linked));
    const [payload, signature] = token.split('.');
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const expired = tokenOf(api.deps.fileLinks.url(linked, Date.now() - (LINK_SECONDS + 1) * 1000));
    const other = await store('b.pdf');
    const deletedToken = tokenOf(api.deps.fileLinks.url({ companyId, fileId: other.id }));
    await withTenant(api.deps.db, companyId, (tx) => deleteFile(tx, api.deps.fileStorages, companyId, other.id));

    const answers: Record<string, unknown>[] = [];
    for (const bad of [
      `${flip(payload, 30)}.${signature}`,
      `${payload}.${flip(signature, 5)}`,
      expired,
      deletedToken,
    ]) {
      const result = await api.call('downloadFile', { params: { token: bad } });
      expect(result.status).toBe(404);
      const { request_id: _id, instance: _instance, ...rest } = result.body;
      answers.push(rest);
    }
    expect(answers.every((answer) => JSON.stringify(answer) === JSON.stringify(answers[0]))).toBe(true);
    expect(answers[0].detail).toBe('This link is invalid or has expired; read the record again for a fresh link.');
    // The link itself still works until it is altered, expires or loses its file.
    expect((await download(token)).status).toBe(200);
  });

  it('expires after 15 minutes, not before', async () => {
    const file = await store('c.pdf');
    const linked = { companyId, fileId: file.id };
    const almost = tokenOf(api.deps.fileLinks.url(linked, Date.now() - (LINK_SECONDS - 5) * 1000));
    expect((await download(almost)).status).toBe(200);
  });

  it('of another company leads to nothing when re-signed for this one (the company is part of what is signed)', async () => {
    const { companyId: other } = await api.tenant();
    const file = await store('theirs.pdf', PDF, other);
    const theirs = tokenOf(api.deps.fileLinks.url({ companyId: other, fileId: file.id }));
    expect((await download(theirs)).status).toBe(200);
    const forged = tokenOf(api.deps.fileLinks.url({ companyId, fileId: file.id }));
    expect((await download(forged)).status).toBe(404);
  });

  it('that is not even well-formed answers 422', async () => {
    const result = await api.call('downloadFile', { params: { token: 'short' } });
    expect(result.status).toBe(422);
  });

  it('downloads are limited per client address: past the window, 429 with Retry-After', async () => {
    const file = await store('d.pdf');
    const token = tokenOf(api.deps.fileLinks.url({ companyId, fileId: file.id }));
    const saved = api.deps.downloadLimits;
    api.deps.downloadLimits = new RateLimits([{ name: 'downloads', limit: 2, windowSeconds: 60 }], 'downloads-test');
    try {
      expect((await download(token)).status).toBe(200);
      expect((await download(token)).status).toBe(200);
      const refused = await api.call('downloadFile', { params: { token } });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      api.deps.downloadLimits = saved;
    }
  });
});
