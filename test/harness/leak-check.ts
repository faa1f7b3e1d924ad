// Every test file leaves its worker as it found it (vitest.config.ts: a setup file of every file). Files share
// their worker process and its loaded modules (`isolate: false`), so a pool, server, child process, thread,
// timer or listener a file leaves open stays for the files after it, and a few hundred of them used up
// PostgreSQL's connections. What the process holds is noted before the test file is imported; after the file's
// own afterAll hooks it must be back to that (waited for while sockets and threads wind down), or the file fails
// naming what it left. The environment variables and timers a file changed are put back here too.
import { createHook } from 'node:async_hooks';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import postgres from 'postgres';
import { afterAll, beforeAll, inject, vi } from 'vitest';
import { closeFileResources } from './file-end.ts';

/** How long closing may take to show (a socket's FIN, a thread's exit) before what is left counts as left. */
const SETTLE_MS = 30_000;

/**
 * Threads of native libraries (not a test's doing): libvips keeps its pool for the process's life once loaded;
 * pango's fontconfig threads (sharp drawing an SVG's text) are a GLib pool whose idle threads end only after 15 s,
 * which the check would otherwise wait out after every file that draws text (14 s of each demo file).
 */
const LIBRARY_THREADS = new Set(['libvips worker', '[pango] fontcon']);

/** Settling longer than this is reported (stderr), naming what the check waited for: time any file can lose. */
const SLOW_SETTLE_MS = 1_000;

/** The process's signal and error listeners: a file that adds one and leaves it changes how the worker ends. */
const WATCHED_EVENTS = ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'uncaughtException', 'unhandledRejection'];

/**
 * A library's one listener for the whole process, added at its first use and removed when its last user is
 * collected (not a file's doing): on-exit-leak-free's, which flushes pino's asynchronous log streams at exit.
 */
const libraryListener = (listener: Listener) =>
  listener.name === 'onExit' && listener.toString().includes("callRefs('exit')");

type Snapshot = {
  /** process.getActiveResourcesInfo(), counted by kind: sockets, servers, timers, child processes… */
  handles: Map<string, number>;
  threads: number;
  /** This process's TCP connections to the test PostgreSQL, by local port. */
  databasePorts: number[];
  listeners: Map<string, Listener[]>;
};

type Listener = (...args: unknown[]) => void;

const databasePort = Number(new URL(inject('pgAdminUrl')).port || 5432);

function snapshot(): Snapshot {
  const handles = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) handles.set(kind, (handles.get(kind) ?? 0) + 1);
  const listeners = new Map(
    WATCHED_EVENTS.map((event) => [
      event,
      (process.rawListeners(event) as Listener[]).filter((l) => !libraryListener(l)),
    ]),
  );
  return { handles, threads: ownThreads(), databasePorts: databaseSockets(), listeners };
}

/** The process's threads, without the pools of native libraries (LIBRARY_THREADS). */
function ownThreads(): number {
  let count = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      if (!LIBRARY_THREADS.has(readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim())) count++;
    } catch {
      // the thread ended while being listed
    }
  }
  return count;
}

/** Local ports of this process's open TCP sockets to PostgreSQL's port (/proc/self/fd against /proc/net/tcp*). */
function databaseSockets(): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith('socket:[')) inodes.add(target.slice(8, -1));
    } catch {
      // closed while being listed
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || !inodes.has(fields[9])) continue;
      const remotePort = Number.parseInt(fields[2].split(':')[1], 16);
      // State 0A is LISTEN; anything else with the database's port at the far end is a connection of ours.
      if (remotePort === databasePort && fields[3] !== '0A') ports.push(Number.parseInt(fields[1].split(':')[1], 16));
    }
  }
  return ports.sort((a, b) => a - b);
}

/** What `after` holds beyond `before`, one line per kind; empty when nothing was left. */
function leftOver(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [kind, count] of after.handles) {
    const extra = count - (before.handles.get(kind) ?? 0);
    if (extra > 0) lines.push(`${extra} × ${kind} handle`);
  }
  if (after.threads > before.threads) lines.push(`${after.threads - before.threads} × thread`);
  const newPorts = after.databasePorts.filter((port) => !before.databasePorts.includes(port));
  if (newPorts.length) lines.push(`${newPorts.length} × PostgreSQL connection (local ports ${newPorts.join(', ')})`);
  for (const [event, listeners] of after.listeners) {
    const extra = listeners.filter((listener) => !before.listeners.get(event)?.includes(listener)).length;
    if (extra > 0) lines.push(`${extra} × process.on('${event}') listener`);
  }
  return lines;
}

/** The left connections as PostgreSQL sees them: which database, which application, what they last ran. */
async function describeConnections(ports: number[]): Promise<string[]> {
  if (!ports.length) return [];
  const admin = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
  try {
    const rows = await admin<{ datname: string; application_name: string; state: string; query: string }[]>`
      select datname, application_name, state, left(query, 100) as query
      from pg_stat_activity where client_port = any(${ports}::int[])`;
    return rows.map((r) => `  ${r.application_name} on ${r.datname} (${r.state}): ${r.query}`);
  } catch {
    return [];
  } finally {
    await admin.end();
  }
}

/**
 * LEAK_TRACE=1: where each resource still open was created (async_hooks), printed with the failure. Costly, so
 * only on request, for the file being fixed.
 */
const created = new Map<number, { type: string; stack: string }>();
const TRACED = new Set(['TCPWRAP', 'TCPSERVERWRAP', 'PIPEWRAP', 'PROCESSWRAP', 'Timeout', 'WORKER', 'FSEVENTWRAP']);
const trace = process.env.LEAK_TRACE
  ? createHook({
      init(id, type) {
        if (!TRACED.has(type)) return;
        const frames = (new Error().stack ?? '').split('\n').filter((l) => l.includes('/src/') || l.includes('/test/'));
        created.set(id, { type, stack: frames.slice(0, 6).join('\n') });
      },
      destroy(id) {
        created.delete(id);
      },
    }).enable()
  : undefined;

/** LEAK_TRACE=1: where each process listener of WATCHED_EVENTS was added. */
const addedAt = new WeakMap<object, string>();
const frames = () =>
  (new Error().stack ?? '')
    .split('\n')
    .filter((line) => !line.includes('leak-check.ts'))
    .slice(1, 9)
    .join('\n');
if (process.env.LEAK_TRACE) {
  for (const method of ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener']) {
    const original: unknown = Reflect.get(process, method);
    if (typeof original !== 'function') continue;
    const set = (value: unknown) =>
      Object.defineProperty(process, method, { value, configurable: true, writable: true });
    set((event: unknown, listener: unknown) => {
      if (typeof event === 'string' && WATCHED_EVENTS.includes(event) && typeof listener === 'function')
        addedAt.set(listener, frames());
      return Reflect.apply(original, process, [event, listener]);
    });
    afterAll(() => set(original));
  }
}

function traced(after: Snapshot): string[] {
  const handles = [...created.values()]
    .filter((r) => !r.stack.includes('leak-check.ts'))
    .map((r) => `  ${r.type} created\n${r.stack.replace(/^/gm, '    ')}`);
  const listeners = [...after.listeners].flatMap(([event, all]) =>
    all
      .filter((listener) => !before.listeners.get(event)?.includes(listener))
      .map((listener) => {
        const stack = addedAt.get((listener as { listener?: object }).listener ?? listener) ?? '    (added elsewhere)';
        return `  process.on('${event}') listener added\n${stack.replace(/^/gm, '    ')}`;
      }),
  );
  return trace ? [...handles, ...listeners] : [];
}

const envBefore = { ...process.env };
const before = snapshot();

// The check is the cleanup of the first beforeAll (this file's, imported before the test file): cleanups run last
// first, so it runs after the file's afterAll hooks and after the cleanups its own beforeAll hooks return.
beforeAll(() => checkLeftovers);

async function checkLeftovers() {
  await closeFileResources();
  // What a file changed for itself: environment variables (onS3Server's, a test's), fake clocks, spies.
  for (const name of Object.keys(process.env)) if (!(name in envBefore)) delete process.env[name];
  Object.assign(process.env, envBefore);
  vi.useRealTimers();
  vi.restoreAllMocks();

  const started = Date.now();
  const deadline = started + SETTLE_MS;
  let after = snapshot();
  const waitedFor = leftOver(before, after);
  while (leftOver(before, after).length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    after = snapshot();
  }
  const left = leftOver(before, after);
  if (!left.length && Date.now() - started > SLOW_SETTLE_MS)
    console.warn(`leak check: waited ${Date.now() - started} ms for ${waitedFor.join(', ')} to close`);
  trace?.disable();
  if (!left.length) return;
  const newPorts = after.databasePorts.filter((port) => !before.databasePorts.includes(port));
  throw new Error(
    [
      'This test file left open what it opened (the next files share this worker process):',
      ...left.map((line) => `  ${line}`),
      ...(await describeConnections(newPorts)),
      ...traced(after),
      'Close it when the file ends: a postgres() client by sql.end(), a server by close() (and',
      'closeAllConnections()), a child process by waiting for its exit, a timer by clearTimeout, a listener by',
      'process.off. An afterAll registered inside a beforeAll or a test never runs: register the closing with',
      'atFileEnd (harness/file-end.ts; closeServerAtFileEnd for a server), as setupApi does. To find where it',
      'was opened, run the file alone with LEAK_TRACE=1 (LEAK_TRACE=1 npx vitest run <file>): the failure then',
      'lists each handle and listener left with the stack that created it.',
    ].join('\n'),
  );
}
