// Where the machine's CPU goes during a phase of a benchmark, from /proc (Linux only; elsewhere null): this
// process's threads by role (the worker's, the receiver's, the producers', and the rest — V8's GC and
// compiler threads, libuv's pool), every PostgreSQL process, and the machine as a whole (busy, and stolen by
// the hypervisor: on a VM the numbers of a run move with it). In cores: 1.0 = one core busy all the time.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in 1/100 s on every architecture Node runs on. */
export const TICKS_PER_SECOND = 100;

type Snapshot = {
  at: number;
  threads: Map<string, number>;
  postgres: Map<string, number>;
  machine: { busy: number; steal: number; total: number };
};

/** The OS thread id of the calling thread (the main thread's, or a worker thread's when called there). */
export function threadId(): string | null {
  try {
    return readlinkSync('/proc/thread-self').split('/').pop() ?? null;
  } catch {
    return null;
  }
}

/** utime + stime of a /proc …/stat line, in ticks (fields 14 and 15; the name in parentheses may hold spaces). */
export function cpuTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function readTicks(dir: string, ids: string[]): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const id of ids) {
    try {
      ticks.set(id, cpuTicks(readFileSync(`${dir}/${id}/stat`, 'utf8')));
    } catch {
      // Ended between the listing and the read.
    }
  }
  return ticks;
}

export function postgresPids(): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
}

/** 'backends' (connections), or the background process's name (autovacuum worker, walwriter, …). */
function postgresKind(pid: string, backendNames?: Map<string, string>): string {
  const app = backendNames?.get(pid);
  if (app !== undefined) return `backends ${app || '(no application name)'}`;
  try {
    // A backend's title is "postgres: <user> <database> <client> <state>"; a background process's is
    // "postgres: [<cluster>: ]<name>".
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    if (!title.startsWith('postgres:')) return 'postmaster';
    if (/\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(title)) return 'backends';
    return title.replace(/^postgres: (\S+: )?/, '').replace(/ .*$/, '') || 'other';
  } catch {
    return 'ended';
  }
}

function snapshot(): Snapshot | null {
  try {
    const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
    const [user, nice, system, idle, iowait, irq, softirq, steal] = (cpu ?? '').split(/\s+/).slice(1).map(Number);
    const all = [user, nice, system, idle, iowait, irq, softirq, steal].map((n) => n ?? 0);
    const total = all.reduce((a, b) => a + b, 0);
    return {
      at: performance.now(),
      threads: readTicks('/proc/self/task', readdirSync('/proc/self/task')),
      postgres: readTicks('/proc', postgresPids()),
      machine: { busy: total - (idle ?? 0) - (iowait ?? 0) - (steal ?? 0), steal: steal ?? 0, total },
    };
  } catch {
    return null;
  }
}

export type CpuRoles = { worker: string | null; receiver?: string | null; producers?: string | null };
export type CpuUse = Record<string, number>;

/** Starts counting; the returned function answers the cores used per role since then. */
export function cpuMeter(roles: CpuRoles): (backendNames?: Map<string, string>) => CpuUse | null {
  const start = snapshot();
  /** `backendNames`: pid → application name (from pg_stat_activity), to split the backends' share. */
  return (backendNames) => {
    const end = snapshot();
    if (!start || !end) return null;
    const seconds = (end.at - start.at) / 1000;
    const cores = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / seconds) * 100) / 100;
    const delta = (a: Map<string, number>, b: Map<string, number>, id: string) => (b.get(id) ?? 0) - (a.get(id) ?? 0);
    const named = new Map<string, string>();
    for (const [role, tid] of Object.entries(roles)) if (tid) named.set(tid, role);
    const use: CpuUse = {};
    let rest = 0;
    for (const tid of end.threads.keys()) {
      const role = named.get(tid);
      if (role) use[`${role} thread`] = cores(delta(start.threads, end.threads, tid));
      else rest += delta(start.threads, end.threads, tid);
    }
    use['other threads of this process'] = cores(rest);
    const pg = new Map<string, number>();
    for (const pid of end.postgres.keys()) {
      const kind = postgresKind(pid, backendNames);
      pg.set(kind, (pg.get(kind) ?? 0) + delta(start.postgres, end.postgres, pid));
    }
    use['postgres (all processes)'] = cores([...pg.values()].reduce((a, b) => a + b, 0));
    for (const [kind, ticks] of pg) use[`postgres ${kind}`] = cores(ticks);
    // /proc/stat counts in ticks across all CPUs.
    use['machine busy'] = cores(end.machine.busy - start.machine.busy);
    use['machine stolen (hypervisor)'] = cores(end.machine.steal - start.machine.steal);
    return use;
  };
}
