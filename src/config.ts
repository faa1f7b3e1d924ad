// The environment, validated once at start.
import { z } from 'zod';

/**
 * Secrets that were published (earlier versions signed links with the first when FILE_LINK_SECRET was unset):
 * anyone can sign with them, so the service refuses to start with one.
 */
const PUBLISHED_SECRETS = new Set(['development-only-file-link-secret-do-not-use-in-production']);
const unpublished = (secret: string) => !PUBLISHED_SECRETS.has(secret);
const PUBLISHED_MESSAGE = 'is a published value anyone can sign with: set a random one (openssl rand -base64 48)';

const schema = z.object({
  DATABASE_URL: z.string().optional(),
  /** Connections of a process's transaction pool (src/deps-factory.ts); the concurrency limits are shares of it. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  /** Where email is sent (smtp://user:pass@host:587, smtps://…); without it emails are recorded, not sent. */
  SMTP_URL: z.string().url().optional(),
  /** The address emails are sent from (the company's name is shown with it); default noreply@ PUBLIC_URL's host. */
  MAIL_FROM: z.string().email().optional(),
  /** The bearer token of GET /metrics (Prometheus); without it /metrics is not served. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /**
   * Signs download links and review forms (src/files/link-secret.ts); every API node of an installation needs the
   * same one. Without it the service generates one and keeps it in the database.
   */
  FILE_LINK_SECRET: z.string().min(32).refine(unpublished, PUBLISHED_MESSAGE).optional(),
  /** The secret before a rotation: links and forms it signed are still accepted (set it for 15 minutes). */
  FILE_LINK_SECRET_PREVIOUS: z.string().min(32).refine(unpublished, PUBLISHED_MESSAGE).optional(),
  /**
   * The installation's key for payment providers' API keys (src/payments/secret-box.ts): each company's key is
   * sealed with AES-256-GCM under a key derived from it. Every API node and worker needs the same one; changing it
   * makes the stored keys unreadable (connect the providers again). Without it the service generates one and keeps
   * it in the database (installation_secrets), where it protects an export or a copy of the tables, not a copy of
   * the whole database: set it in production, and keep it apart from the database's backups.
   */
  PAYMENT_KEYS_SECRET: z.string().min(32, 'PAYMENT_KEYS_SECRET must be at least 32 characters').optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  /** Comma list of proxy addresses/CIDRs whose X-Forwarded-For is trusted for the client address. */
  TRUSTED_PROXIES: z.string().default(''),
  /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is not set. */
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(54329),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: readable lines (pino-pretty); `json`: one JSON object a line. Default: pretty on a terminal. */
  LOG_FORMAT: z.preprocess((value) => (value === '' ? undefined : value), z.enum(['pretty', 'json']).optional()),
  /** How long a client may take to send a request's headers, and the whole request (src/http/server.ts). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** How long an idle keep-alive connection stays open for a next request. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
  /**
   * Requests of the API process running at once, all companies together (src/http/request-turns.ts); default two
   * per core. When all are taken, each company's requests wait in a queue of their own, served in turn.
   */
  API_REQUEST_TURNS: z.coerce.number().int().min(2).max(1024).optional(),
  /** Requests of one company that may wait for a turn; one more answers 429 concurrency_limited. */
  API_REQUESTS_WAITING_PER_COMPANY: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Worker threads rendering PDFs (src/pdf/render-pool.ts); default one fewer than the cores, at least one. */
  PDF_RENDER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** PDFs that may wait for a rendering thread; one more answers 503 pdf_render_limit_exceeded. */
  PDF_RENDER_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  /** Most time one PDF may take to render, and the most JavaScript heap its thread may use. */
  PDF_RENDER_TIMEOUT_MS: z.coerce.number().int().min(1).default(20_000),
  PDF_RENDER_MEMORY_MB: z.coerce.number().int().min(16).default(512),
  /**
   * Renders public links may cause in 10 minutes (a kept PDF costs none): per client address and per document.
   * A render costs seconds of a thread shared by every company; a kept PDF costs a read.
   */
  PUBLIC_PDF_RENDERS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
  PUBLIC_PDF_RENDERS_PER_DOCUMENT: z.coerce.number().int().min(1).default(5),
  /**
   * Where new files' bytes go (src/files/storage.ts): `postgres` (the default) or `s3`. Files keep the storage
   * they were written to (files.storage) until `files migrate` moves them, so S3_* stays needed while any file
   * is in S3.
   */
  FILE_STORAGE: z.enum(['postgres', 's3']).default('postgres'),
  /** The S3-compatible bucket (AWS S3, MinIO, Ceph, Garage…); it must exist. */
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** The service's URL for a service other than AWS (https://minio.example.com:9000); AWS's own when unset. */
  S3_ENDPOINT: z.string().url().optional(),
  /** Credentials; without them the AWS SDK's default chain (environment, instance role, …) is used. */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Keys are `<S3_PREFIX>/<company id>/<file id>`; a prefix lets one bucket serve several installations. */
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'S3_PREFIX: letters, digits, . _ - and inner slashes')
    .default('files'),
  /** Path-style addressing (`endpoint/bucket/key`), which most self-hosted services need. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
});

export type Config = z.infer<typeof schema> & { publicUrl: string; trustedProxies: string[] };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema
    .refine((c) => c.HTTP_HEADERS_TIMEOUT_MS <= c.HTTP_REQUEST_TIMEOUT_MS, {
      message: 'HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (Node refuses to start otherwise)',
    })
    .refine((c) => c.FILE_STORAGE !== 's3' || c.S3_BUCKET !== undefined, {
      message: 'FILE_STORAGE=s3 needs S3_BUCKET',
    })
    .refine((c) => (c.S3_ACCESS_KEY_ID === undefined) === (c.S3_SECRET_ACCESS_KEY === undefined), {
      message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together',
    })
    .parse(env);
  const publicUrl = (parsed.PUBLIC_URL ?? `http://127.0.0.1:${parsed.PORT}`).replace(/\/$/, '');
  const trustedProxies = parsed.TRUSTED_PROXIES.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    ...parsed,
    publicUrl,
    trustedProxies,
  };
}
