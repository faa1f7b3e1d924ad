// The secret of download links: without FILE_LINK_SECRET the service generates one per installation and keeps it
// in the database, so every API node signs and accepts the same links; the development default earlier versions
// published signs nothing this service accepts; a secret rotated with FILE_LINK_SECRET_PREVIOUS keeps the links it
// signed working until they expire.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { withTenant } from '../../../src/db/tenant.ts';
import { type StoredFile, storeFile } from '../../../src/files/records.ts';
import { FileLinks } from '../../../src/files/signed-links.ts';
import { appOn, setupApi, type TestApi } from '../../harness/api.ts';

/** The value earlier versions signed links with when FILE_LINK_SECRET was unset, published in their source. */
const PUBLISHED_DEFAULT = 'development-only-file-link-secret-do-not-use-in-production';
const BASE = 'http://api.test/api/v1/files';

let api: TestApi;
let companyId: string;
let file: StoredFile;

beforeAll(async () => {
  api = await setupApi();
  ({ companyId } = await api.tenant());
  const bytes = Buffer.from('%PDF-1.7\n%%EOF\n');
  file = await withTenant(api.deps.db, companyId, (tx) =>
    storeFile(tx, api.deps.fileStorages, companyId, {
      name: 'offerte.pdf',
      mimeType: 'application/pdf',
      size: bytes.byteLength,
      chunks: [bytes],
    }),
  );
});

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const download = async (app: TestApi['app'], url: string) =>
  (await app.request(`http://api.test/api/v1/files/${tokenOf(url)}`)).status;

describe('without FILE_LINK_SECRET', () => {
  it('refuses a link signed with the published development default, even one valid until 2100', async () => {
    const forged = new FileLinks(PUBLISHED_DEFAULT, BASE).token(
      { companyId, fileId: file.id },
      Math.floor(Date.UTC(2100, 0, 1) / 1000),
    );
    expect(await download(api.app, `${BASE}/${forged}`)).toBe(404);
    // The service's own link to the same file works: the 404 is the signature's.
    expect(await download(api.app, api.deps.fileLinks.url({ companyId, fileId: file.id }))).toBe(200);
  });

  it('signs with a random secret generated once and kept in the database, shared by every API node', async () => {
    const [row] = await api.sql<{ value: string }[]>`select value from installation_secrets where name = 'file_links'`;
    expect(row?.value).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(api.deps.linkSecrets).toEqual({ current: row?.value, previous: undefined, generated: true });
    const other = await api.otherProcess();
    expect(other.deps.linkSecrets.current).toBe(row?.value);
    // A link one node handed out downloads from the other.
    expect(await download(other.app, api.deps.fileLinks.url({ companyId, fileId: file.id }))).toBe(200);
    // The tenant role cannot read it.
    await expect(
      withTenant(api.deps.db, companyId, (tx) => tx.execute('select value from installation_secrets')),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/permission denied/) } });
  });
});

describe('FILE_LINK_SECRET', () => {
  it('refuses to start with the published default', () => {
    expect(() => loadConfig({ FILE_LINK_SECRET: PUBLISHED_DEFAULT })).toThrow(/published value/);
    expect(() =>
      loadConfig({ FILE_LINK_SECRET: 'x'.repeat(40), FILE_LINK_SECRET_PREVIOUS: PUBLISHED_DEFAULT }),
    ).toThrow(/published value/);
  });

  it('rotated: the previous secret is still accepted, never used to sign; without it old links stop working', async () => {
    const old = randomBytes(32).toString('base64url');
    const current = randomBytes(32).toString('base64url');
    const before = await appOn(api.url, { FILE_LINK_SECRET: old });
    const during = await appOn(api.url, { FILE_LINK_SECRET: current, FILE_LINK_SECRET_PREVIOUS: old });
    const after = await appOn(api.url, { FILE_LINK_SECRET: current });
    try {
      const oldLink = before.deps.fileLinks.url({ companyId, fileId: file.id });
      const newLink = during.deps.fileLinks.url({ companyId, fileId: file.id });
      expect(await download(during.app, oldLink)).toBe(200);
      expect(await download(during.app, newLink)).toBe(200);
      expect(await download(before.app, newLink)).toBe(404);
      expect(await download(after.app, oldLink)).toBe(404);
      expect(await download(after.app, newLink)).toBe(200);
      // A configured secret leaves the generated one unused.
      expect(during.deps.linkSecrets.generated).toBe(false);
    } finally {
      await Promise.all([before.close(), during.close(), after.close()]);
    }
  });
});
