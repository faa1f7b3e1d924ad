// The worker's fan-out batches (taskList): the fan-outs of a company running at once share a batch, but a batch
// holds at most FANOUT_BATCH_MAX of them — a third of the worker's slots — so that while one batch writes, the jobs of
// the next are running (read and sent) instead of all waiting for that write. The fan-out itself is replaced by
// a recorder here (no database is involved); its own behaviour is tested in test/webhooks.

import type { JobHelpers } from 'graphile-worker';
import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db, Sql } from '../../src/db/client.ts';
import type { DocumentLinks } from '../../src/files/document-links.ts';
import { FileStorages } from '../../src/files/storages.ts';
// vi.mock below is hoisted above this import: the worker's task list gets the recorder.
import { FANOUT_BATCH_MAX, taskList, WORKER_CONCURRENCY } from '../../src/jobs/worker.ts';
import type { PdfRenderer } from '../../src/pdf/render-pool.ts';
import type { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { tick } from '../harness/async.ts';

type Batch = { events: number; release?: () => void; done: () => void };
const recorded = vi.hoisted(() => ({ batches: [] as Batch[] }));

vi.mock('../../src/webhooks/fanout.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/webhooks/fanout.ts')>();
  return {
    ...real,
    // Each batch waits until the test ends it: the batches that run at the same time are visible.
    fanoutEvents: (
      _state: DeliveryState,
      _companyId: string,
      eventIds: string[],
      _send: unknown,
      release?: () => void,
    ) =>
      new Promise<number[]>((resolve) => {
        recorded.batches.push({ events: eventIds.length, release, done: () => resolve(eventIds.map(() => 3)) });
      }),
  };
});

const COMPANY = '0190b5a1-0000-7000-8000-000000000001';

describe('fan-out batches of the worker', () => {
  it('a batch holds at most a third of the running jobs; the next one starts when the one before releases it', async () => {
    expect(FANOUT_BATCH_MAX).toBe(WORKER_CONCURRENCY / 3);
    const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const fanout = taskList({
      sql: {} as Sql,
      db: {} as Db,
      tenantSql: {} as Sql,
      config,
      fileStorages: FileStorages.fromConfig(config),
      pdfRenderer: {} as PdfRenderer,
      documentLinks: {} as DocumentLinks,
      clock: systemClock,
    }).webhook_fanout;
    if (!fanout) throw new Error('taskList has no webhook_fanout');

    // As many fan-out jobs of one company as the worker runs at once.
    const jobs = Array.from({ length: WORKER_CONCURRENCY }, (_, i) =>
      fanout({ companyId: COMPANY, eventId: `evt_${i}` }, {} as JobHelpers),
    );
    await tick();
    expect(recorded.batches.map((b) => b.events)).toEqual([FANOUT_BATCH_MAX]);

    // Each batch's sends are over: the next starts while the ones before still write.
    recorded.batches[0]?.release?.();
    await tick();
    expect(recorded.batches.map((b) => b.events)).toEqual([FANOUT_BATCH_MAX, FANOUT_BATCH_MAX]);
    recorded.batches[1]?.release?.();
    await tick();
    expect(recorded.batches.map((b) => b.events)).toEqual([FANOUT_BATCH_MAX, FANOUT_BATCH_MAX, FANOUT_BATCH_MAX]);

    for (const batch of recorded.batches) batch.done();
    await Promise.all(jobs);
  });
});
