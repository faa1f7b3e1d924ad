// Which file storage setupApi gives its apps: `FILE_STORAGE=s3 npx vitest run …` runs every app on the run's S3
// server (harness/s3.ts). Kept apart from s3.ts so that an app's setup does not load the AWS SDK and the S3 server
// (about a second of each file's import) when the files are in PostgreSQL.

/** The variables that configure the service for S3 (config.ts). */
export const S3_VARIABLES = [
  'FILE_STORAGE',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PREFIX',
  'S3_FORCE_PATH_STYLE',
] as const;

/** The S3 settings of this process's environment, when FILE_STORAGE=s3: what setupApi adds to every app's. */
export function storageEnv(): Record<string, string> {
  if (process.env.FILE_STORAGE !== 's3') return {};
  return Object.fromEntries(S3_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}
