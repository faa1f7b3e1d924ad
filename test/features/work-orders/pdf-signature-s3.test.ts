// The work order PDF with its photos read from S3 (a real S3 protocol server on 127.0.0.1, harness/s3.ts): the
// suite of pdf-signature.test.ts again, written once. Its own file, beside s3-storage.test.ts, so that the two run
// side by side within `npm test`.
import { describe } from 'vitest';
import { onS3Server } from '../../harness/s3.ts';

// Before the suite is imported: its app reads these variables (setupApi, storageEnv).
await onS3Server();

describe('on S3: the work order PDF with its photos', async () => {
  await import('./pdf-signature.test.ts');
});
