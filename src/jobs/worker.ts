// The worker's assembly: its tasks (one file each, with its payload), its cron and the runner's options. Graphile
// Worker keeps jobs and cron in Postgres, so a job queued in a transaction exists exactly when that transaction
// commits. Tuned for throughput: a local queue of locked jobs and batched completion (scripts/bench/README.md).
import { Logger, type Task } from 'graphile-worker';
import type { Logger as Log } from 'pino';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db, Sql } from '../db/client.ts';
import type { TaskName } from '../db/job-queue.ts';
import { DocumentLinks } from '../files/document-links.ts';
import { linkSecrets } from '../files/link-secret.ts';
import type { FileStorages } from '../files/storages.ts';
import { createLogger } from '../log.ts';
import { emailSendTask } from '../mail/jobs/email-send.ts';
import { mailIdentityOf, mailSenderFor } from '../mail/sender.ts';
import { lazySecretBox } from '../payments/secret-box.ts';
import { MAX_PAGES } from '../pdf/page-limit.ts';
import { PdfRenderer } from '../pdf/render-pool.ts';
import { salesDocumentsDailyTask } from '../resources/invoices/jobs/documents-daily.ts';
import { invoicePaymentSyncTask } from '../resources/invoices/jobs/payment-sync.ts';
import { invoiceRefundSendTask } from '../resources/invoices/jobs/refund-send.ts';
import { invoiceReminderSendTask } from '../resources/invoices/jobs/reminder-send.ts';
import { reminderEmailHold } from '../resources/invoices/reminders.ts';
import { workOrderPhotoPrintTask } from '../resources/work-orders/jobs/photo-print.ts';
import { sweepPhotoPrintsTask } from '../resources/work-orders/jobs/sweep-photo-prints.ts';
import type { DeliverOptions } from '../webhooks/delivery-attempts.ts';
import { DeliveryState } from '../webhooks/delivery-state.ts';
import { webhookDeliverTask } from '../webhooks/jobs/webhook-deliver.ts';
import { webhookFanoutTask } from '../webhooks/jobs/webhook-fanout.ts';
import { expireReviewRequestsTask } from './expire-review-requests.ts';
import { fileRemoveTask } from './file-remove.ts';
import { purgeEventsTask } from './purge-events.ts';
import { purgeIdempotencyKeysTask } from './purge-idempotency-keys.ts';
import { purgeRenderedPdfsTask } from './purge-rendered-pdfs.ts';
import { RESTART_MIN_MS, superviseRunners } from './supervised-runner.ts';
import { sweepFileOrphansTask } from './sweep-file-orphans.ts';

export type WorkerDeps = {
  sql: Sql;
  db: Db;
  tenantSql: Sql;
  config: Config;
  fileStorages: FileStorages;
  /** For invoice reminders: their PDF, the online invoice's link, and the moment the daily run judges by. */
  pdfRenderer: PdfRenderer;
  documentLinks: DocumentLinks;
  clock: Clock;
  /** The process's logger (one of the configured level is made without it). */
  log?: Log;
};

/**
 * Jobs running at once. Most wait on the network or on a batch of their company (fan-outs, recorded attempts):
 * more of them make bigger batches, and a company's fan-outs in flight are bounded by this number (the runs:
 * scripts/bench/README.md, "The tuned numbers in the code").
 */
export const WORKER_CONCURRENCY = 240;

/**
 * Events in one fan-out batch: a third of the jobs running at once, so that while batches write, the jobs of the
 * next one are running (read, sent) instead of all waiting for a write to end (scripts/bench/README.md).
 */
export const FANOUT_BATCH_MAX = WORKER_CONCURRENCY / 3;

/** Jobs the worker fetches at once and holds locked in its local queue: not fewer than run at once, which
 * Graphile Worker warns about. */
export const LOCAL_QUEUE_SIZE = WORKER_CONCURRENCY;

export const CRONTAB = [
  '17 * * * * purge_idempotency_keys',
  '23 * * * * purge_events',
  '41 * * * * expire_review_requests',
  '5 * * * * sales_documents_daily',
  '47 * * * * sweep_file_orphans',
  '29 * * * * purge_rendered_pdfs',
  '53 * * * * sweep_photo_prints',
].join('\n');

/**
 * What the invoice reminders need, for a worker built apart from the service's Deps (the benchmarks): the
 * installation's document links and a renderer of one thread, started only if a reminder renders.
 */
export async function reminderWorkerDeps(config: Config, sql: Sql) {
  const secrets = await linkSecrets(config, sql);
  return {
    documentLinks: new DocumentLinks(secrets.current, config.publicUrl, secrets.previous),
    pdfRenderer: new PdfRenderer({
      threads: 1,
      queue: config.PDF_RENDER_QUEUE,
      timeoutMs: config.PDF_RENDER_TIMEOUT_MS,
      memoryMb: config.PDF_RENDER_MEMORY_MB,
      maxPages: MAX_PAGES,
    }),
    clock: systemClock,
  };
}

/** Every task the worker runs, by name: a task declared in GraphileWorker.Tasks without one here does not compile. */
export type Tasks = { [T in TaskName]: Task<T> };

/**
 * `state`: the delivery path's (fresh for each worker, or each test); `stop` aborts when the worker starts to
 * stop: webhook tasks then start no further requests.
 */
export function taskList(
  deps: WorkerDeps,
  state = new DeliveryState(deps.db, deps.config.publicUrl),
  stop?: AbortSignal,
): Tasks {
  const sending: DeliverOptions = { policy: { allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true' }, stop };
  const payments = {
    db: deps.db,
    paymentKeys: lazySecretBox(deps.config, deps.sql),
    serviceUrl: deps.config.publicUrl,
    log: deps.log ?? createLogger(deps.config.LOG_LEVEL, deps.config.LOG_FORMAT),
  };
  return {
    webhook_fanout: webhookFanoutTask(state, sending, FANOUT_BATCH_MAX),
    webhook_deliver: webhookDeliverTask(state, sending),
    email_send: emailSendTask(deps.db, mailSenderFor(deps.config), mailIdentityOf(deps.config), {
      invoice_reminder: reminderEmailHold,
    }),
    purge_idempotency_keys: purgeIdempotencyKeysTask(deps.sql),
    purge_events: purgeEventsTask(deps.sql),
    expire_review_requests: expireReviewRequestsTask(deps.db),
    sales_documents_daily: salesDocumentsDailyTask(deps.db, deps.config.publicUrl, deps.clock),
    invoice_reminder_send: invoiceReminderSendTask(deps.db, {
      pdfRenderer: deps.pdfRenderer,
      documentLinks: deps.documentLinks,
      serviceUrl: deps.config.publicUrl,
    }),
    file_remove: fileRemoveTask(deps.db, deps.fileStorages),
    sweep_file_orphans: sweepFileOrphansTask(deps.db, deps.fileStorages, () => new Date()),
    purge_rendered_pdfs: purgeRenderedPdfsTask(deps.sql),
    work_order_photo_print: workOrderPhotoPrintTask(deps, deps.fileStorages),
    sweep_photo_prints: sweepPhotoPrintsTask(deps.db),
    invoice_payment_sync: invoicePaymentSyncTask(payments),
    invoice_refund_send: invoiceRefundSendTask(payments),
  };
}

export type Worker = {
  stop(): Promise<void>;
  /** Waits until the answers of first attempts a fan-out handed over are recorded (at most the 10-second limit). */
  settleHandedOver(): Promise<void>;
};

/** Runs the jobs until `stop` (a runner that ends on its own is replaced: supervised-runner.ts). */
export async function startWorker(
  connectionString: string,
  deps: WorkerDeps,
  restartMinMs = RESTART_MIN_MS,
): Promise<Worker> {
  const state = new DeliveryState(deps.db, deps.config.publicUrl);
  const worker = await superviseRunners(
    {
      connectionString,
      sql: deps.sql,
      fetchSize: LOCAL_QUEUE_SIZE,
      options: (events, stop) => ({
        events,
        connectionString,
        concurrency: WORKER_CONCURRENCY,
        // Graphile Worker's own pool (fetching and completing jobs, the cron; the tasks use the service's pools),
        // opened as needed — with the local queue and batched completion a few connections at a time — and not
        // below the concurrency, which Graphile Worker warns about.
        maxPoolSize: WORKER_CONCURRENCY + 4,
        noHandleSignals: true,
        pollInterval: 1000,
        taskList: taskList(deps, state, stop),
        crontab: CRONTAB,
        logger: new Logger((scope) => (level, message) => {
          if (level === 'error' || level === 'warning')
            console.error(`[worker${scope.taskIdentifier ? `:${scope.taskIdentifier}` : ''}] ${message}`);
        }),
        preset: {
          worker: { localQueue: { size: LOCAL_QUEUE_SIZE }, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
        },
      }),
    },
    restartMinMs,
  );
  return { stop: () => worker.stop(), settleHandedOver: () => state.handedOver.settle() };
}
