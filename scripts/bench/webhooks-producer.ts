// The event producers of the webhooks benchmark, in their own thread so that an overloaded worker in the main
// thread does not hold back the offered load: `producers` concurrent loops, each committing transactions that
// record one customer.updated event, paced so that together they commit `rate` events per second.
import { parentPort, workerData } from 'node:worker_threads';
import { createDb } from '../../src/db/client.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/record.ts';

export type ProducerInput = {
  url: string;
  companyId: string;
  customerId: string;
  object: Record<string, unknown>;
  rate: number;
  seconds: number;
  producers: number;
  /** Start time on the shared clock (performance.timeOrigin + performance.now()). */
  startAt: number;
};
export type ProducerOutput = { committed: [string, number][]; late: number; endAt: number };

const input = workerData as ProducerInput;
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { sql, db } = createDb(input.url, input.producers);
const total = input.rate * input.seconds;
const committed: [string, number][] = [];
let next = 0;
let late = 0;
let stopped = false;
parentPort?.on('message', (m) => {
  if (m === 'stop') stopped = true;
});

async function produce() {
  for (;;) {
    const i = next++;
    if (i >= total || stopped) return;
    const wait = input.startAt + (i * 1000) / input.rate - clock();
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
}

try {
  await Promise.all(Array.from({ length: input.producers }, produce));
} finally {
  const endAt = clock();
  await sql.end({ timeout: 5 });
  parentPort?.postMessage({ committed, late, endAt } satisfies ProducerOutput);
}
