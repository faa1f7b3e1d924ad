// The test client: an app on a fresh database, factories for companies and keys, and `call`, which sends a
// request for one contract operation and validates the response against the contract before returning it.
import type { operations as Contract } from '../../generated/api.d.ts';
import { type OperationId, operations } from '../../generated/operations.ts';
import { createApp } from '../../src/app.ts';
import type { Scope } from '../../src/auth/scopes.ts';
import { ALL_SCOPES } from '../../src/auth/scopes.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createDeps } from '../../src/deps-factory.ts';
import { RateLimits, type Window } from '../../src/http/rate-limit.ts';
import { notImplementedOperations } from '../../src/resources/index.ts';
import { createCompany, FEATURES } from '../../src/services/companies.ts';
import { createKey, type Expiry } from '../../src/services/keys.ts';
import { assertConforms } from './contract.ts';
import { freshDatabase } from './db.ts';
import { atFileEnd } from './file-end.ts';
import { storageEnv } from './storage-env.ts';

export type CallOptions = {
  key?: string | null;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Sent as is (for malformed JSON, bytes that are not UTF-8 and wrong media types). */
  rawBody?: string | FormData | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  /** Skip the contract check (only for requests outside any operation). */
  unchecked?: boolean;
};

// Tests read bodies loosely; the contract check below is what guarantees their shape.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type CallResult<T = any> = { status: number; headers: Headers; body: T /** The body as sent. */; text: string };

type Responses<Id extends OperationId> = Contract[Id]['responses'];
/** The JSON body of the operation's successful answers (generated/api.d.ts). */
export type SuccessBody<Id extends OperationId> = {
  [S in keyof Responses<Id>]: S extends 200 | 201 | 202
    ? Responses<Id>[S] extends { content: { 'application/json': infer Body } }
      ? Body
      : never
    : never;
}[keyof Responses<Id>];

/**
 * `call<'getCustomer'>('getCustomer', …)` types the body as the operation's success body; `call<T>` as T; `call`
 * alone leaves it loose (the contract check still holds).
 */
// biome-ignore lint/suspicious/noExplicitAny: the loose default, see CallResult
type BodyOf<T> = 0 extends 1 & T ? any : T extends OperationId ? SuccessBody<T> : T;
type IdOf<T> = 0 extends 1 & T ? OperationId : T extends OperationId ? T : OperationId;

export type TestApi = Awaited<ReturnType<typeof setupApi>>;

/** Tighter rate-limit windows than production's, so a test can exceed them quickly. */
export type LimitOverrides = { keyWindows?: Window[]; authFailureWindows?: Window[] };

/** An app on its own database; closed when the test file ends (harness/file-end.ts). */
export async function setupApi(
  overrides: Partial<Record<keyof NodeJS.ProcessEnv, string>> = {},
  limits: LimitOverrides = {},
) {
  const database = await freshDatabase();
  const config: Config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://api.test',
    // FILE_STORAGE=s3 runs the file tests against the test S3 server (harness/s3.ts).
    ...storageEnv(),
    ...overrides,
  });
  const closers: Array<() => Promise<void>> = [];
  async function instance() {
    const deps = await createDeps(config, database.url);
    if (limits.keyWindows) deps.keyLimits = new RateLimits(limits.keyWindows, 'key');
    if (limits.authFailureWindows) deps.authFailureLimits = new RateLimits(limits.authFailureWindows, 'authfail');
    closers.push(deps.close);
    const app = createApp(deps);
    return { app, deps, call: callerFor(app) };
  }
  const { app, deps, call } = await instance();

  atFileEnd(async () => {
    for (const close of closers) await close();
    await database.drop();
  });

  /** A second API process on the same database (its own pool, key cache and LISTEN connection). */
  const otherProcess = instance;

  async function company(opts: { features?: string[]; language?: 'nl' | 'en' | 'de' | 'fr'; name?: string } = {}) {
    return createCompany(deps.db, {
      name: opts.name ?? 'Schildersbedrijf De Kwast',
      features: opts.features ?? [...FEATURES],
      language: opts.language ?? 'en',
    });
  }

  async function key(companyId: string, opts: { scopes?: Scope[]; expiresIn?: Expiry; allowedIps?: string[] } = {}) {
    const { key, row } = await createKey(deps.db, {
      companyId,
      name: 'Test key',
      scopes: opts.scopes ?? [...ALL_SCOPES],
      expiresIn: opts.expiresIn,
      allowedIps: opts.allowedIps,
    });
    return { key, id: row.id };
  }

  /** A company with every feature and a full-access key. */
  async function tenant(opts: { features?: string[]; scopes?: Scope[]; language?: 'nl' | 'en' | 'de' | 'fr' } = {}) {
    const c = await company(opts);
    const k = await key(c.id, { scopes: opts.scopes });
    return { companyId: c.id, key: k.key, keyId: k.id };
  }

  return { app, deps, db: deps.db, sql: deps.sql, url: database.url, config, company, key, tenant, call, otherProcess };
}

/** `call` for one app: sends the request of an operation and checks the response against the contract. */
function callerFor(app: ReturnType<typeof createApp>) {
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked against the contract instead
  return async function call<T = any>(
    operationId: NoInfer<IdOf<T>>,
    opts: CallOptions = {},
  ): Promise<CallResult<BodyOf<T>>> {
    const op = operations[operationId];
    let path: string = op.path;
    for (const [name, value] of Object.entries(opts.params ?? {})) {
      path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    }
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(opts.query ?? {}))
      if (value !== undefined) search.set(name, String(value));
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | FormData | Uint8Array<ArrayBuffer> | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = `http://api.test/api/v1${path}${search.size ? `?${search}` : ''}`;
    const response = await app.request(url, { method: op.method.toUpperCase(), headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: left as text
    }
    const result = { status: response.status, headers: response.headers, body: parsed as BodyOf<T>, text };
    if (!opts.unchecked) checkContract(operationId, result);
    return result;
  };
}

/** Every response must match the contract; an unbuilt operation may answer 501 not_implemented. */
function checkContract(operationId: OperationId, result: CallResult) {
  const pending = (notImplementedOperations as readonly string[]).includes(operationId);
  if (pending && result.status === 501 && result.body?.code === 'not_implemented') return;
  assertConforms(operationId, result);
}

/**
 * An app on an existing database (one a child process such as the CLI also writes to); close it when done (else it
 * is closed when the test file ends).
 */
export async function appOn(url: string, overrides: Partial<Record<keyof NodeJS.ProcessEnv, string>> = {}) {
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://api.test',
    // FILE_STORAGE=s3 runs the file tests against the test S3 server (harness/s3.ts).
    ...storageEnv(),
    ...overrides,
  });
  const deps = await createDeps(config, url);
  const app = createApp(deps);
  // Closed at the latest when the test file ends, once however often it is asked to.
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= deps.close();
    return closing;
  };
  atFileEnd(close);
  return { app, deps, call: callerFor(app), close };
}
