// The service process that runs on the embedded PostgreSQL of a DATA_DIR, written there at start: a second start
// on the same DATA_DIR, which PostgreSQL refuses, then says where the first one answers instead of failing
// with PostgreSQL's lock error.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const recordSchema = z.object({ pid: z.number().int(), command: z.string(), api: z.string().optional() });
export type ServiceRecord = z.infer<typeof recordSchema>;

const file = (dataDir: string) => join(dataDir, 'service.json');

export function recordService(dataDir: string, record: ServiceRecord): void {
  writeFileSync(file(dataDir), `${JSON.stringify(record)}\n`);
}

/** Removed only by the process it names: a start that gave up must not erase the record of the one running. */
export function forgetService(dataDir: string): void {
  if (recordedService(dataDir)?.pid === process.pid) rmSync(file(dataDir), { force: true });
}

/** The recorded service when its process still runs (a process killed with -9 leaves its record behind). */
export function recordedService(dataDir: string): ServiceRecord | undefined {
  let record: ServiceRecord;
  try {
    record = recordSchema.parse(JSON.parse(readFileSync(file(dataDir), 'utf8')));
  } catch {
    return undefined;
  }
  try {
    process.kill(record.pid, 0);
    return record;
  } catch (error) {
    // EPERM: it runs, as another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM' ? record : undefined;
  }
}
