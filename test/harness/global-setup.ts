// One PostgreSQL server per test run (embedded in a temporary directory unless DATABASE_URL is set) and a
// template database with every migration applied; each test file clones its own database from it.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { startRulesServer } from './einvoicing-rules.ts';
import { freePort } from './processes.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDatabase: string;
    /** The e-invoicing rules server (einvoicing-rules.ts), or '' when each batch starts a JVM of its own. */
    rulesServerUrl: string;
  }
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export default async function setup(project: TestProject) {
  // Vitest runs a global setup once for each project with files in the run (shared, isolated) and again for the
  // root project, whose provided values every project inherits: once is enough (each run was two more
  // migrations and rules servers before the first file).
  if (!project.isRootProject()) return;
  let adminUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  let dataDir: string | undefined;
  if (!adminUrl) {
    dataDir = mkdtempSync(join(tmpdir(), 'crm-test-pg-'));
    // As root, PostgreSQL runs as its own system user, which must be able to enter the directory.
    chmodSync(dataDir, 0o755);
    const server = await startEmbeddedPostgres(dataDir, await freePort(), { fast: true });
    adminUrl = server.url;
    stopServer = server.stop;
  }
  // Started beside the migrations (a JVM compiling its source takes seconds); only for runs with e-invoices to check.
  const rulesServer = process.env.TEST_SET === undefined ? startRulesServer() : Promise.resolve(null);
  const template = `crm_template_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  await runMigrations(withDatabase(adminUrl, template));
  project.provide('pgAdminUrl', adminUrl);
  // The SDK's notice that its releases after January 2027 need Node 22 says nothing about a test (the test files'
  // processes inherit this; harness/s3.ts sets it too for a run without this setup).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  project.provide('templateDatabase', template);
  const rules = await rulesServer;
  if (rules && 'reason' in rules) console.warn(rules.reason);
  project.provide('rulesServerUrl', rules && 'url' in rules ? rules.url : '');
  // `FILE_STORAGE=s3 npx vitest run …`: every app of the run keeps its files in one S3 server (the test files'
  // processes inherit these variables).
  let stopS3 = async () => {};
  if (process.env.FILE_STORAGE === 's3' && !process.env.S3_ENDPOINT) {
    // Imported here: s3.ts loads the service's storage and jobs, seconds of the main process's start otherwise.
    const { startS3Server } = await import('./s3.ts');
    const s3 = await startS3Server();
    Object.assign(process.env, s3.env);
    stopS3 = s3.close;
  }

  return async () => {
    // Databases of test files that did not clean up after themselves.
    const leftovers = await admin`select datname from pg_database where datname like ${`crm_test_${process.pid}_%`}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.end();
    await stopServer();
    await stopS3();
    if (rules && 'stop' in rules) rules.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
