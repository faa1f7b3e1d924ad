// A real S3 protocol server on 127.0.0.1 (s3rver, its objects in a temporary directory) for the tests of files kept
// in S3. `FILE_STORAGE=s3` in the environment runs the file tests on it: the global setup starts one for the run
// (global-setup.ts) and setupApi configures every app with it (storageEnv); within `npm test`, the files that rerun
// a suite on S3 (onS3Server: test/features/files/s3-storage.test.ts and the *-s3.test.ts files) start their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command, NotFound } from '@aws-sdk/client-s3';
import type { JobHelpers } from 'graphile-worker';
import S3rver from 's3rver';
import { loadConfig } from '../../src/config.ts';
import { type S3FileStorage, s3ClientOf } from '../../src/files/s3-storage.ts';
import { fileRemoveTask } from '../../src/jobs/file-remove.ts';
import type { TestApi } from './api.ts';
import { atFileEnd } from './file-end.ts';
import { queuedJobsOf } from './jobs.ts';
import type { S3_VARIABLES } from './storage-env.ts';

const BUCKET = 'crm-test-files';

// The SDK's notice that its releases after January 2027 need Node 22 says nothing about a test: kept out of the
// test output (the service still prints it once, where an operator sees it).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export type S3Server = { env: Record<(typeof S3_VARIABLES)[number], string>; close: () => Promise<void> };

export async function startS3Server(): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'crm-test-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const env = {
    FILE_STORAGE: 's3',
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    // s3rver's own fixed credentials.
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: `run-${process.pid}`,
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = s3ClientOf(loadConfig(env));
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  client.destroy();
  return {
    env,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The rest of the test file on an S3 server of its own, stopped after the file: called before the suites it reruns
 * are imported (`await import(…)`), whose apps then keep their files there (setupApi reads the variables set here).
 */
export async function onS3Server(): Promise<S3Server> {
  const server = await startS3Server();
  Object.assign(process.env, server.env);
  atFileEnd(() => server.close());
  return server;
}

/** Whether the bucket holds the object of the file. */
export async function objectExists(s3: S3FileStorage, companyId: string, fileId: string): Promise<boolean> {
  try {
    await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: s3.key(companyId, fileId) }));
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
}

/** The ids of the files whose bytes are kept for the company, as the bucket lists them under its prefix. */
export async function objectsOf(s3: S3FileStorage, companyId: string): Promise<string[]> {
  const prefix = s3.key(companyId, '');
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const item of page.Contents ?? []) ids.push((item.Key ?? '').slice(prefix.length));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return ids.sort();
}

/**
 * The ids of the files whose bytes are kept for the company, in whichever storage the app uses: file_chunks rows in
 * PostgreSQL, the objects under the company's prefix in S3.
 */
export async function storedFilesOf(api: Pick<TestApi, 'sql' | 'deps'>, companyId: string): Promise<string[]> {
  const s3 = api.deps.fileStorages.s3;
  if (s3) return objectsOf(s3, companyId);
  const rows = await api.sql<{ id: string }[]>`
    select distinct file_id::text as id from file_chunks where company_id = ${companyId}`;
  return rows.map((r) => r.id).sort();
}

/**
 * Whether any bytes of the file are still kept, in whichever storage the app uses: file_chunks rows in PostgreSQL;
 * in S3 its object, once the file_remove jobs the deletion queued have run (as the worker runs them after commit).
 */
export async function fileBytesKept(api: Pick<TestApi, 'sql' | 'deps'>, companyId: string, fileId: string) {
  const s3 = api.deps.fileStorages.s3;
  if (!s3) return (await api.sql`select 1 from file_chunks where file_id = ${fileId}`).length > 0;
  const removeFile = fileRemoveTask(api.deps.db, api.deps.fileStorages);
  for (const job of await queuedJobsOf(api, 'file_remove', companyId)) {
    await removeFile({ companyId, fileId: String(job.payload.fileId) }, {} as JobHelpers);
  }
  return objectExists(s3, companyId, fileId);
}
