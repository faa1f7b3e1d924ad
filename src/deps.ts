// Everything the API needs from outside, created once per process (src/main.ts) or per test.
import type { Logger } from 'pino';
import type { KeyStore } from './auth/key-store.ts';
import type { ProcessChannels } from './channels/index.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db, Sql } from './db/client.ts';
import type { DocumentLinks } from './files/document-links.ts';
import type { LinkSecrets } from './files/link-secret.ts';
import type { FileLinks } from './files/signed-links.ts';
import type { FileStorages } from './files/storages.ts';
import type { ConcurrencyLimits } from './http/concurrency.ts';
import type { Metrics } from './http/metrics.ts';
import type { RateLimits } from './http/rate-limit.ts';
import type { RequestTurns } from './http/request-turns.ts';
import type { SecretBox } from './payments/secret-box.ts';
import type { PdfRenderer } from './pdf/render-pool.ts';

export type Deps = {
  config: Config;
  sql: Sql;
  db: Db;
  /** Sessions as app_api, for readAsTenant's one-statement reads (src/db/client.ts createTenantPool). */
  tenantSql: Sql;
  /** One connection of its own for /readyz: a pool full of slow requests must not make the process look down. */
  probeSql: Sql;
  keys: KeyStore;
  keyLimits: RateLimits;
  authFailureLimits: RateLimits;
  /** Per endpoint (`<company>:<endpoint>`); shared by the API nodes through Redis like the others. */
  webhookTestLimits: RateLimits;
  /** Email, WhatsApp and web chat behind one `send` (src/channels). */
  channels: ProcessChannels;
  /** Downloads through signed links, per client address. */
  downloadLimits: RateLimits;
  /** The widget's visitor API, per client address; new sessions in a window of their own. */
  widgetLimits: RateLimits;
  widgetSessionLimits: RateLimits;
  /** The public review feed and widget, per client address. */
  publicLimits: RateLimits;
  /** The review pages of review requests (outside the API), per client address. */
  reviewPageLimits: RateLimits;
  /** The online quote and invoice pages (outside the API), per client address. */
  documentPageLimits: RateLimits;
  /** "Pay now" clicks per invoice link (PAY_START_WINDOWS). */
  payStartLimits: RateLimits;
  /** PDF renders through public links, per client address and per document (a kept PDF is not counted). */
  publicRenderLimits: { address: RateLimits; document: RateLimits };
  /** Where files' bytes are kept: PostgreSQL or S3 for new files, each file's own for reading (src/files/storage.ts). */
  fileStorages: FileStorages;
  /** Signs and checks download links (with linkSecrets). */
  fileLinks: FileLinks;
  /** Signs and checks the links of the online quote and invoice (with linkSecrets). */
  documentLinks: DocumentLinks;
  /** The installation's link secret (FILE_LINK_SECRET or the generated one) and the one before a rotation. */
  linkSecrets: LinkSecrets;
  /** Opens companies' payment-provider keys (PAYMENT_KEYS_SECRET or the generated one), made once per process. */
  paymentKeys: () => Promise<SecretBox>;
  log: Logger;
  /** Renders quote, invoice and work-order PDFs on worker threads, within time, memory and page limits. */
  pdfRenderer: PdfRenderer;
  /** Per-company slots for uploads, PDF renders and batches in flight, counted in PostgreSQL (src/http/concurrency.ts). */
  concurrency: ConcurrencyLimits;
  /** The API process's requests running at once, shared between companies in turn (src/http/request-turns.ts). */
  requestTurns: RequestTurns;
  /** This process's request metrics (served at /metrics with METRICS_TOKEN). */
  metrics: Metrics;
  /**
   * The present moment for rules the service computes itself (see src/clock.ts); the channels read it at each
   * send. Tests set a fixed or moving one. Times PostgreSQL stamps (app_now()) are not affected.
   */
  clock: Clock;
};
