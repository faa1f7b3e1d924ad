// Builds the process's dependencies from the configuration and a database URL.
import { KeyStore } from './auth/key-store.ts';
import { createChannels } from './channels/index.ts';
import { systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { createDb, createTenantPool } from './db/client.ts';
import type { Deps } from './deps.ts';
import { DocumentLinks } from './files/document-links.ts';
import { linkSecrets as loadLinkSecrets } from './files/link-secret.ts';
import { FileLinks } from './files/signed-links.ts';
import { FileStorages } from './files/storages.ts';
import { ConcurrencyLimits, defaultConcurrencyLimits } from './http/concurrency.ts';
import { Metrics } from './http/metrics.ts';
import {
  AUTH_FAILURE_WINDOWS,
  DOCUMENT_PAGE_WINDOWS,
  DOWNLOAD_WINDOWS,
  KEY_WINDOWS,
  PAY_START_WINDOWS,
  PUBLIC_WINDOWS,
  publicRenderWindows,
  RateLimits,
  REVIEW_PAGE_WINDOWS,
  rateLimitRedis,
  WEBHOOK_TEST_WINDOWS,
  WIDGET_SESSION_WINDOWS,
  WIDGET_WINDOWS,
} from './http/rate-limit.ts';
import { API_PREFIX } from './http/request-address.ts';
import { defaultRequestTurns, RequestTurns } from './http/request-turns.ts';
import { createLogger } from './log.ts';
import { lazySecretBox } from './payments/secret-box.ts';
import { MAX_PAGES } from './pdf/page-limit.ts';
import { defaultRenderThreads, PdfRenderer } from './pdf/render-pool.ts';

export async function createDeps(config: Config, databaseUrl: string): Promise<Deps & { close: () => Promise<void> }> {
  const log = createLogger(config.LOG_LEVEL, config.LOG_FORMAT);
  const { sql, db } = createDb(databaseUrl, config.DATABASE_POOL_SIZE);
  const tenantSql = createTenantPool(databaseUrl, 10);
  const probeSql = createDb(databaseUrl, 1).sql;
  const keys = new KeyStore(sql);
  let linkSecrets: Awaited<ReturnType<typeof loadLinkSecrets>>;
  try {
    await keys.listen();
    linkSecrets = await loadLinkSecrets(config, sql);
  } catch (error) {
    // A start that failed leaves no pool open: main tries again while the database cannot be reached.
    await Promise.all([sql.end({ timeout: 0 }), tenantSql.end({ timeout: 0 }), probeSql.end({ timeout: 0 })]);
    throw error;
  }
  // Several API nodes share their counters through Redis; one node keeps them in memory.
  const redis = config.REDIS_URL ? rateLimitRedis(config.REDIS_URL) : undefined;
  const metrics = new Metrics();
  const concurrency = new ConcurrencyLimits(sql, defaultConcurrencyLimits(config), (kind) =>
    metrics.refusedConcurrency(kind),
  );
  const deps: Deps & { close: () => Promise<void> } = {
    config,
    sql,
    db,
    tenantSql,
    probeSql,
    keys,
    keyLimits: new RateLimits(KEY_WINDOWS, 'key', redis),
    authFailureLimits: new RateLimits(AUTH_FAILURE_WINDOWS, 'authfail', redis),
    webhookTestLimits: new RateLimits(WEBHOOK_TEST_WINDOWS, 'webhook_test', redis),
    clock: systemClock,
    // Read at each send, so a test that sets deps.clock moves WhatsApp's 24-hour window too.
    channels: createChannels(config, log, () => deps.clock()),
    downloadLimits: new RateLimits(DOWNLOAD_WINDOWS, 'downloads', redis),
    widgetLimits: new RateLimits(WIDGET_WINDOWS, 'widget', redis),
    widgetSessionLimits: new RateLimits(WIDGET_SESSION_WINDOWS, 'widget_sessions', redis),
    publicLimits: new RateLimits(PUBLIC_WINDOWS, 'public', redis),
    reviewPageLimits: new RateLimits(REVIEW_PAGE_WINDOWS, 'review_pages', redis),
    documentPageLimits: new RateLimits(DOCUMENT_PAGE_WINDOWS, 'document_pages', redis),
    payStartLimits: new RateLimits(PAY_START_WINDOWS, 'pay_starts', redis),
    publicRenderLimits: {
      address: new RateLimits(publicRenderWindows(config.PUBLIC_PDF_RENDERS_PER_ADDRESS), 'pdf_renders_address', redis),
      document: new RateLimits(
        publicRenderWindows(config.PUBLIC_PDF_RENDERS_PER_DOCUMENT),
        'pdf_renders_document',
        redis,
      ),
    },
    fileStorages: FileStorages.fromConfig(config),
    fileLinks: new FileLinks(linkSecrets.current, `${config.publicUrl}${API_PREFIX}/files`, linkSecrets.previous),
    documentLinks: new DocumentLinks(linkSecrets.current, config.publicUrl, linkSecrets.previous),
    linkSecrets,
    paymentKeys: lazySecretBox(config, sql),
    log,
    pdfRenderer: new PdfRenderer(
      {
        threads: config.PDF_RENDER_THREADS ?? defaultRenderThreads(),
        queue: config.PDF_RENDER_QUEUE,
        timeoutMs: config.PDF_RENDER_TIMEOUT_MS,
        memoryMb: config.PDF_RENDER_MEMORY_MB,
        maxPages: MAX_PAGES,
      },
      (company, render) => concurrency.run(company, 'pdf_renders', render),
    ),
    metrics,
    concurrency,
    requestTurns: new RequestTurns(defaultRequestTurns(config), () => metrics.refusedConcurrency('requests')),
    close: async () => {
      deps.concurrency.close();
      await keys.close();
      redis?.disconnect();
      await deps.pdfRenderer.close();
      // The S3 client's kept-alive sockets, which would otherwise stay open until the bucket's server drops them.
      deps.fileStorages.s3?.client.destroy();
      await Promise.all([sql.end({ timeout: 5 }), tenantSql.end({ timeout: 5 }), probeSql.end({ timeout: 5 })]);
    },
  };
  return deps;
}
