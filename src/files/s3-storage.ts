// Files' bytes in an S3-compatible bucket (AWS S3, MinIO, Ceph, Garage…), for installations whose files outgrow
// one database. Each file is one object under `<prefix>/<company id>/<file id>`, so a company's files stay under
// its own prefix and a key is never used for two files (file ids are fresh uuids). The bucket is not
// transactional, so the `files` row stays the truth: the bytes are written before the row commits (a rollback
// leaves an object no row names), a download needs the row first, and bytes are removed only after the row's
// deletion commits (the file_remove job). Objects no row names are removed by the hourly orphan sweep once they are
// older than a grace period (src/jobs/sweep-file-orphans.ts). Both directions stream: bytes are sent as they are read
// (an upload from its spool file as one PUT of known length; bytes of unknown length as a multipart upload of 5 MiB
// parts), a download is passed on a chunk at a time.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import { sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { queueJob } from '../db/job-queue.ts';
import type { Tx } from '../db/tenant.ts';
import type { Bytes, FileStorage } from './storage.ts';

// The AWS SDK is loaded when an S3 client is first made, not with this module: an installation on PostgreSQL
// storage (and every test file, each of which imports the service) would otherwise pay its ~0.2 s of loading.
const require = createRequire(import.meta.url);
const sdk = () => require('@aws-sdk/client-s3') as typeof ClientS3; // require caches it after the first call
const storageLib = () => require('@aws-sdk/lib-storage') as typeof LibStorage;

/** An object of the bucket under the installation's prefix, as the orphan sweep sees it. */
export type StoredObject = { companyId: string; fileId: string; lastModified: Date };

/** 5 MiB, the smallest part S3 takes (but the last). */
export const UPLOAD_PART_BYTES = 5 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function s3ClientOf(config: Config): S3Client {
  // The SDK prints a 9-line warning on Node 20 at every S3 start and CLI run: that its releases after January 2027
  // need Node 22. That is about which SDK version this release pins, nothing an operator can act on; an operator
  // who sets the variable to false still sees it.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new (sdk().S3Client)({
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE === 'true',
    credentials:
      config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
        : undefined,
    // Checksums only where the operation requires one: since 3.729 the SDK adds CRC32 checksums to every upload
    // by default, sent as an `aws-chunked` body with a trailer, which many S3-compatible services (older MinIO,
    // Ceph, s3rver) store as part of the object. A file's integrity is checked by its size on download.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export class S3FileStorage implements FileStorage {
  readonly name = 's3' as const;

  constructor(
    readonly client: S3Client,
    readonly bucket: string,
    private readonly prefix: string,
  ) {}

  static fromConfig(config: Config): S3FileStorage | undefined {
    if (!config.S3_BUCKET) return undefined;
    return new S3FileStorage(s3ClientOf(config), config.S3_BUCKET, config.S3_PREFIX);
  }

  /** The object key of a file: under its company's prefix. */
  key(companyId: string, fileId: string): string {
    return `${this.prefix}/${companyId}/${fileId}`;
  }

  async write(_tx: Tx, companyId: string, fileId: string, bytes: Bytes, size?: number): Promise<void> {
    if (size === undefined) await this.upload(companyId, fileId, bytes);
    else await this.put(companyId, fileId, bytes, size);
  }

  /**
   * Stores bytes of a length not known beforehand (an upload as it arrives): one PUT when they fit in one part,
   * else a multipart upload of 5 MiB parts (S3's smallest), one part in flight, so at most about one part is held.
   * Bytes that fail abort it: no object is left (`leavePartsOnError` false aborts the multipart upload).
   */
  async upload(companyId: string, fileId: string, bytes: Bytes): Promise<void> {
    await new (storageLib().Upload)({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.key(companyId, fileId),
        Body: Readable.from(bytes, { objectMode: false }),
        ContentType: 'application/octet-stream',
      },
      partSize: UPLOAD_PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    }).done();
  }

  /** Stores the bytes (streamed: the length is known, so one PUT carries them as they come). */
  async put(companyId: string, fileId: string, bytes: Bytes, size: number): Promise<void> {
    await this.client.send(
      new (sdk().PutObjectCommand)({
        Bucket: this.bucket,
        Key: this.key(companyId, fileId),
        Body: Readable.from(bytes, { objectMode: false }),
        ContentLength: size,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async *read(tenant: { companyId: string }, fileId: string): AsyncIterable<Uint8Array> {
    let body: AsyncIterable<Uint8Array>;
    try {
      const answer = await this.client.send(
        new (sdk().GetObjectCommand)({ Bucket: this.bucket, Key: this.key(tenant.companyId, fileId) }),
      );
      body = answer.Body as Readable;
    } catch (error) {
      // Removed meanwhile (the row was deleted after it was read): the download ends short, as in PostgreSQL.
      if (error instanceof sdk().NoSuchKey) return;
      throw error;
    }
    yield* body;
  }

  async remove(tx: Tx, companyId: string, fileId: string): Promise<void> {
    await tx.execute(sql`select ${queueJob('file_remove', { companyId, fileId })}`);
  }

  /** Removes one object now (the file_remove job, the sweep; removing a missing object succeeds). */
  async removeObject(companyId: string, fileId: string): Promise<void> {
    await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: this.bucket, Key: this.key(companyId, fileId) }));
  }

  /** Removes a company's every object (after `company delete`); returns how many. */
  async removeCompany(companyId: string): Promise<number> {
    let removed = 0;
    for await (const page of this.pages(`${this.prefix}/${companyId}/`)) {
      await this.removeMany(page);
      removed += page.length;
    }
    return removed;
  }

  /** Removes the given objects, up to 1000 per request. */
  async removeMany(objects: readonly StoredObject[]): Promise<void> {
    for (let at = 0; at < objects.length; at += 1000) {
      const part = objects.slice(at, at + 1000);
      await this.client.send(
        new (sdk().DeleteObjectsCommand)({
          Bucket: this.bucket,
          Delete: { Objects: part.map((o) => ({ Key: this.key(o.companyId, o.fileId) })), Quiet: true },
        }),
      );
    }
  }

  /** Every object of the installation, a listing page (up to 1000) at a time; keys not of a file are skipped. */
  objects(): AsyncIterable<StoredObject[]> {
    return this.pages(`${this.prefix}/`);
  }

  private async *pages(prefix: string): AsyncIterable<StoredObject[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new (sdk().ListObjectsV2Command)({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const objects: StoredObject[] = [];
      for (const item of page.Contents ?? []) {
        const [companyId, fileId, ...rest] = (item.Key ?? '').slice(this.prefix.length + 1).split('/');
        if (rest.length === 0 && UUID.test(companyId ?? '') && UUID.test(fileId ?? '')) {
          objects.push({ companyId, fileId, lastModified: item.LastModified ?? new Date(0) });
        }
      }
      yield objects;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
