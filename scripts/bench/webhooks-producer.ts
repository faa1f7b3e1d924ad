// The event producers of the webhooks benchmark, in their own thread so that an overloaded worker in the main
// thread does not hold back the offered load: `producers` concurrent loops, each committing transactions that
// record one customer.updated event, paced so that together they commit `rate` events per second. One thread
// for the whole run: it loads (and compiles) once, says `ready`, then runs each phase it is sent, so that no
// phase starts while a new thread is still compiling on the cores the worker needs.
import { parentPort, workerData } from 'node:worker_threads';
import { createDb } from '../../src/db/client.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/record.ts';
import { threadId } from './cpu.ts';

export type ProducerInput = {
  url: string;
  companyId: string;
  customerId: string;
  object: Record<string, unknown>;
  rate: number;
  producers: number;
};
/** A phase: `seconds` of load from `startAt` on the shared clock (performance.timeOrigin + performance.now()). */
export type ProducerPhase = { seconds: number; startAt: number };
export type ProducerOutput = { committed: [string, number][]; late: number; endAt: number };
export type ProducerMessage = { ready: true; tid: string | null } | { done: ProducerOutput };

const input = workerData as ProducerInput;
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { sql, db } = createDb(input.url, input.producers);
let stopped = false;

async function phase({ seconds, startAt }: ProducerPhase): Promise<ProducerOutput> {
  const total = input.rate * seconds;
  const committed: [string, number][] = [];
  let next = 0;
  let late = 0;
  const produce = async () => {
    for (;;) {
      const i = next++;
      if (i >= total || stopped) return;
      const wait = startAt + (i * 1000) / input.rate - clock();
      if (wait > 0) await sleep(wait);
      else if (wait < -100) late++;
      const id = await withTenant(db, input.companyId, (tx) =>
        recordEvent(tx, input.companyId, {
          type: 'customer.updated',
          scope: 'customers.read',
          customerId: input.customerId,
          object: { ...input.object, updated_at: new Date().toISOString() },
        }),
      );
      committed.push([id, clock()]);
    }
  };
  await Promise.all(Array.from({ length: input.producers }, produce));
  return { committed, late, endAt: clock() };
}

parentPort?.on('message', (m: ProducerPhase | 'stop' | 'close') => {
  if (m === 'stop') stopped = true;
  else if (m === 'close') void sql.end({ timeout: 5 }).then(() => parentPort?.close());
  else void phase(m).then((done) => parentPort?.postMessage({ done } satisfies ProducerMessage));
});
// A first statement opens the pool's connections before any phase is timed.
await Promise.all(Array.from({ length: input.producers }, () => sql`select 1`));
parentPort?.postMessage({ ready: true, tid: threadId() } satisfies ProducerMessage);
