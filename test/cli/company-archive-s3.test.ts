// Company export, import and delete with the files in S3 (a real S3 protocol server on 127.0.0.1, harness/s3.ts):
// the suite of company-archive.test.ts again, written once. Its own file, beside s3-storage.test.ts, so that the two
// run side by side within `npm test`.
import { describe } from 'vitest';
import { onS3Server } from '../harness/s3.ts';

// Before the suite is imported: its apps and its CLI processes read these variables (setupApi, storageEnv).
await onS3Server();

describe('on S3: company export, import and delete', async () => {
  await import('./company-archive.test.ts');
});
