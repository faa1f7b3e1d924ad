// The work a phase of the API bench cost, per process (Linux /proc; elsewhere null): CPU of each named process (the
// API, the worker, the twin, the bench itself with its load generator) and of PostgreSQL's backends, each backend
// counted for the process whose connection it serves (matched by the client's TCP port), the rest of PostgreSQL
// (WAL writer, checkpointer, autovacuum, other databases' clients) apart. Throughput moves with whatever else the
// machine runs; CPU time per request is the steadier figure.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type postgres from 'postgres';
import { cpuTicks, postgresPids, TICKS_PER_SECOND } from './cpu.ts';

/** utime + stime of a process (all its threads), in ticks; null once it ended. */
function ticksOf(pid: number | string): number | null {
  try {
    return cpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** The local TCP ports of a process's sockets: /proc/<pid>/fd's socket inodes looked up in /proc/net/tcp{,6}. */
function localPortsOf(pid: number, sockets: Map<string, number>): Set<number> {
  const ports = new Set<number>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return ports;
  }
  for (const fd of fds) {
    try {
      const inode = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/)?.[1];
      const port = inode && sockets.get(inode);
      if (port) ports.add(port);
    } catch {
      // Closed meanwhile.
    }
  }
  return ports;
}

/** inode → local port of every TCP socket of this network namespace. */
function tcpSockets(): Map<string, number> {
  const sockets = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      sockets.set(f[9], Number.parseInt(f[1].split(':')[1], 16));
    }
  }
  return sockets;
}

type Snapshot = { at: number; own: Map<string, number>; postgres: Map<string, number>; machine: number };

function machineBusy(): number {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  // user, nice, system, (idle, iowait,) irq, softirq: the ticks of every CPU that something ran.
  const [user, nice, system, , , irq, softirq] = (cpu ?? '').split(/\s+/).slice(1).map(Number);
  return user + nice + system + irq + softirq;
}

function snapshot(processes: Record<string, number>): Snapshot | null {
  try {
    const own = new Map<string, number>();
    for (const [name, pid] of Object.entries(processes)) own.set(name, ticksOf(pid) ?? 0);
    const pg = new Map<string, number>();
    for (const pid of postgresPids()) pg.set(pid, ticksOf(pid) ?? 0);
    return { at: performance.now(), own, postgres: pg, machine: machineBusy() };
  } catch {
    return null;
  }
}

/** CPU seconds of a phase: per named process, PostgreSQL's backends per process they serve, and the rest. */
export type PhaseWork = {
  seconds: number;
  cpu: Record<string, number>;
  postgres: Record<string, number>;
  postgresOther: number;
  machine: number;
};

/**
 * Starts counting for `processes` (name → pid). `stop` reads the backends' client ports from pg_stat_activity
 * through `admin` (a superuser's connection, which sees every backend's port) before the last snapshot.
 */
export function workMeter(admin: postgres.Sql, processes: Record<string, number>) {
  const start = snapshot(processes);
  return async (): Promise<PhaseWork | null> => {
    const backends = await admin<{ pid: number; client_port: number | null }[]>`
      select pid, client_port from pg_stat_activity where client_port is not null`;
    const end = snapshot(processes);
    if (!start || !end) return null;
    const sockets = tcpSockets();
    const servedBy = new Map<string, string>();
    for (const [name, pid] of Object.entries(processes)) {
      const ports = localPortsOf(pid, sockets);
      for (const b of backends)
        if (b.client_port !== null && ports.has(b.client_port)) servedBy.set(String(b.pid), name);
    }
    const seconds = (t: number) => t / TICKS_PER_SECOND;
    const cpu: Record<string, number> = {};
    for (const [name, ticks] of end.own) cpu[name] = seconds(ticks - (start.own.get(name) ?? 0));
    const pg: Record<string, number> = Object.fromEntries(Object.keys(processes).map((name) => [name, 0]));
    let other = 0;
    for (const [pid, ticks] of end.postgres) {
      const used = seconds(ticks - (start.postgres.get(pid) ?? 0));
      const name = servedBy.get(pid);
      if (name) pg[name] += used;
      else other += used;
    }
    return {
      seconds: (end.at - start.at) / 1000,
      cpu,
      postgres: pg,
      postgresOther: other,
      machine: seconds(end.machine - start.machine),
    };
  };
}
