// What the drills of issue 29 share: the service's processes as children (signalled only by their own PID), a
// private PostgreSQL and a private Redis that a drill may stop and start (never the machine's own servers), a
// tenant with a key, and the figures (percentiles, a verdict line).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { WebSocket } from 'undici';
import type { Scope } from '../../src/auth/scopes.ts';
import type { Db } from '../../src/db/client.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import * as schema from '../../src/db/schema/index.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { prefixedId } from '../../src/ids.ts';
import { createCompany } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { newSecret } from '../../src/webhooks/sign.ts';
import { freePort, SERVICE_COMMAND } from '../../test/harness/processes.ts';
import type { Cleanup } from '../lib/bounded-run.ts';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The p-th percentile (0–100) of `values`, nearest rank; 0 for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** The drill's last line: "holds: …" or "fails: …" (every reason), and its exit code. */
export function verdict(name: string, failures: string[], holds: string): number {
  console.log(failures.length === 0 ? `${name} holds: ${holds}` : `${name} fails: ${failures.join('; ')}`);
  return failures.length === 0 ? 0 : 1;
}

export type ServiceProcess = {
  child: ChildProcess;
  pid: number;
  /** The API's base URL (`…/api/v1`), for an API process. */
  base: string;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive: () => boolean;
  /** SIGTERM by PID, SIGKILL after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
  /** The inspector's port on 127.0.0.1, when started with `inspect` (see collectGarbage). */
  inspectPort?: number;
};

/**
 * `npm run api|worker` as a child with `env`; an API process is returned once /readyz answers 200. Its output is
 * kept (the last megabyte). Registered in `cleanups`, stopped by its PID.
 */
export async function startService(
  command: 'api' | 'worker',
  env: Record<string, string>,
  cleanups: Cleanup[],
  { port: fixedPort, readyMs = 60_000, inspect = false }: { port?: number; readyMs?: number; inspect?: boolean } = {},
): Promise<ServiceProcess> {
  const port = fixedPort ?? (await freePort());
  const inspectPort = inspect ? await freePort() : undefined;
  const [node, ...args] = SERVICE_COMMAND;
  const inspectArgs = inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`];
  const child = spawn(node, [...inspectArgs, ...args, command], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  const pid = child.pid;
  let log = '';
  const keep = (d: Buffer) => {
    log += d;
    if (log.length > 2_000_000) log = log.slice(-1_000_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async (graceMs = 10_000) => {
    if (!alive()) return;
    process.kill(pid, 'SIGTERM');
    if (await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)])) return;
    if (alive()) process.kill(pid, 'SIGKILL');
    await exited;
  };
  cleanups.push({ name: `${command} ${pid}`, run: () => stop() });
  const base = `http://127.0.0.1:${port}/api/v1`;
  const service = { child, pid, base, port, output: () => log, exited, alive, stop, inspectPort };
  if (command === 'worker') return service;
  for (const deadline = Date.now() + readyMs; ; await sleep(100)) {
    if (!alive()) throw new Error(`the API exited while starting:\n${log.slice(-4000)}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return service;
    if (Date.now() > deadline) throw new Error(`the API did not become ready within ${readyMs} ms`);
  }
}

/**
 * A full garbage collection of a service started with `inspect`, through its inspector (the DevTools protocol's
 * HeapProfiler.collectGarbage), and the heap then in use (MiB). Memory read right after it is the process's
 * floor: without it, a heap that collects only every few minutes looks like growth for as long as it waits.
 */
export async function collectGarbage(inspectPort: number): Promise<{ heapUsedMiB: number }> {
  const signal = AbortSignal.timeout(30_000);
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`, { signal })).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error(`no inspector target on port ${inspectPort}`);
  const socket = new WebSocket(url);
  const answers = new Map<number, (result: Record<string, unknown>) => void>();
  socket.addEventListener('message', (event) => {
    const { id, result } = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (id !== undefined) answers.get(id)?.(result ?? {});
  });
  // Bounded like everything in a drill: a closed socket or a silent inspector fails the sample, never hangs it.
  const ended = new Promise<never>((_, failed) => {
    socket.addEventListener('error', () => failed(new Error(`inspector on port ${inspectPort} failed`)));
    socket.addEventListener('close', () => failed(new Error(`inspector on port ${inspectPort} closed`)));
    signal.addEventListener('abort', () => failed(new Error(`inspector on port ${inspectPort} did not answer`)));
  });
  ended.catch(() => {});
  await Promise.race([new Promise((opened) => socket.addEventListener('open', opened, { once: true })), ended]);
  let next = 0;
  const call = (method: string) =>
    Promise.race([
      new Promise<Record<string, unknown>>((answered) => {
        const id = ++next;
        answers.set(id, answered);
        socket.send(JSON.stringify({ id, method }));
      }),
      ended,
    ]);
  try {
    await call('HeapProfiler.collectGarbage');
    const usage = await call('Runtime.getHeapUsage');
    return { heapUsedMiB: round(Number(usage.usedSize) / 1024 / 1024) };
  } finally {
    socket.close();
  }
}

/** Lines of a pino JSON log at level error (50) or fatal (60). */
export function errorLines(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      return Number((JSON.parse(line) as { level?: unknown }).level) >= 50;
    } catch {
      return false;
    }
  });
}

export type PrivatePostgres = {
  /** The migrated database `drill` on it. */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast|immediate`: SIGINT or SIGQUIT to its postmaster (by the PID in postmaster.pid). */
  stop: (mode: 'fast' | 'immediate') => Promise<void>;
  start: () => Promise<void>;
};

/**
 * An embedded PostgreSQL of this drill only, in a temporary directory on a free port, durable (fsync and
 * synchronous commit on: an immediate shutdown must not lose a commit the client was told of).
 */
export async function privatePostgres(cleanups: Cleanup[], log: (line: string) => void): Promise<PrivatePostgres> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-drill-pg-'));
  cleanups.push({ name: 'temp dir', run: async () => rmSync(dataDir, { recursive: true, force: true }) });
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  let server: EmbeddedDatabase = await startEmbeddedPostgres(dataDir, port);
  cleanups.push({ name: 'private PostgreSQL', run: () => server.stop() });
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin`create database drill`;
  await admin.end();
  const url = server.url.replace(/\/postgres$/, '/drill');
  await runMigrations(url);
  log(`private PostgreSQL on 127.0.0.1:${port} (${dataDir})`);
  const postmaster = () => Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const running = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    url,
    port,
    async stop(mode) {
      const pid = postmaster();
      // PostgreSQL's own shutdown modes (pg_ctl stop -m): SIGINT is fast, SIGQUIT immediate.
      process.kill(pid, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      for (const until = Date.now() + 30_000; running(pid); await sleep(20))
        if (Date.now() > until) throw new Error(`PostgreSQL ${pid} did not stop within 30 s`);
    },
    async start() {
      server = await startEmbeddedPostgres(dataDir, port);
    },
  };
}

export type PrivateRedis = { url: string; stop: () => Promise<void>; start: () => Promise<void> };

/** A `redis-server` of this drill only (no persistence) on a free port; undefined when there is no binary. */
export async function privateRedis(cleanups: Cleanup[]): Promise<PrivateRedis | undefined> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return undefined;
  const port = await freePort();
  let child: ChildProcess | undefined;
  const stop = async () => {
    const current = child;
    if (!current?.pid || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((r) => current.once('exit', r));
    process.kill(current.pid, 'SIGKILL');
    await exited;
  };
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (const until = Date.now() + 10_000; ; await sleep(50)) {
      const ready = await new Promise<boolean>((resolve) => {
        const probe = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
        resolve(probe.stdout?.trim() === 'PONG');
      });
      if (ready) return;
      if (Date.now() > until) throw new Error(`redis-server on ${port} did not answer within 10 s`);
    }
  };
  await start();
  cleanups.push({ name: 'private Redis', run: stop });
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

/** A company with one key of `scopes` (and the drill's pool on `url`). */
export async function drillTenant(url: string, cleanups: Cleanup[], scopes: Scope[]) {
  const sql = postgres(url, { max: 4, onnotice: () => {}, connection: { application_name: 'crm-drill' } });
  cleanups.push({ name: 'drill pool', run: () => sql.end({ timeout: 5 }) });
  const db = drizzle(sql);
  const company = await createCompany(db, { name: 'Drill BV' });
  const newKey = async (name: string) => (await createKey(db, { companyId: company.id, name, scopes })).key;
  return { sql, db, companyId: company.id, key: await newKey('drill'), newKey };
}

export type Outcome = { status: number; ms: number; retryAfter: string | null; id?: string; error?: string };

/** One request with a client timeout: status 0 with `error` 'timeout' or the connection error when none came. */
export async function request(url: string, init: RequestInit & { key: string; timeoutMs?: number }): Promise<Outcome> {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      ...init,
      headers: { Authorization: `Bearer ${init.key}`, 'Content-Type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(init.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    let id: string | undefined;
    if (res.status === 201) id = (JSON.parse(text) as { data?: { id?: string } }).data?.id;
    return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get('retry-after'), id };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { status: 0, ms: performance.now() - started, retryAfter: null, error: timedOut ? 'timeout' : cause };
  }
}

/**
 * A webhook receiver on 127.0.0.1 answering with `answer`, closed by the drill's cleanups, and the company's
 * endpoint for customer.created pointing at it (written as the tenant).
 */
export async function webhookReceiver(db: Db, companyId: string, answer: RequestListener, cleanups: Cleanup[]) {
  const receiver = createServer(answer);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push({
    name: 'receiver',
    run: () =>
      new Promise<void>((done) => {
        receiver.closeAllConnections();
        receiver.close(() => done());
      }),
  });
  const { port } = receiver.address() as { port: number };
  await withTenant(db, companyId, (tx) =>
    tx.insert(schema.webhookEndpoints).values({
      companyId,
      id: prefixedId('we'),
      url: `http://127.0.0.1:${port}/hook`,
      secret: newSecret(),
      events: ['customer.created'],
      scopes: ['customers.read'],
    }),
  );
}
