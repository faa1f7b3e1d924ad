// The environment, validated once at start.
import { z } from 'zod';

const schema = z.object({
  DATABASE_URL: z.string().optional(),
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
  /** Signs download links (src/files/signed-links.ts); every API node of an installation needs the same one. */
  FILE_LINK_SECRET: z.string().min(32).optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  /** Comma list of proxy addresses/CIDRs whose X-Forwarded-For is trusted for the client address. */
  TRUSTED_PROXIES: z.string().default(''),
  /** Where the embedded PostgreSQL keeps its data when DATABASE_URL is not set. */
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().default(54329),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long a client may take to send a request's headers, and the whole request (src/http/server.ts). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** How long an idle keep-alive connection stays open for a next request. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
  /** Worker threads rendering PDFs (src/pdf/render-pool.ts); default one fewer than the cores, at least one. */
  PDF_RENDER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** PDFs that may wait for a rendering thread; one more answers 503 pdf_render_limit_exceeded. */
  PDF_RENDER_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  /** Most time one PDF may take to render, and the most JavaScript heap its thread may use. */
  PDF_RENDER_TIMEOUT_MS: z.coerce.number().int().min(1).default(20_000),
  PDF_RENDER_MEMORY_MB: z.coerce.number().int().min(16).default(512),
});

export type Config = z.infer<typeof schema> & { publicUrl: string; trustedProxies: string[]; fileLinkSecret: string };

/**
 * Without FILE_LINK_SECRET links are signed with this published value, so a development setup needs no
 * configuration; anyone can forge links to a server that keeps it, hence the warning at start (deps-factory.ts).
 */
export const DEVELOPMENT_FILE_LINK_SECRET = 'development-only-file-link-secret-do-not-use-in-production';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema
    .refine((c) => c.HTTP_HEADERS_TIMEOUT_MS <= c.HTTP_REQUEST_TIMEOUT_MS, {
      message: 'HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (Node refuses to start otherwise)',
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
    fileLinkSecret: parsed.FILE_LINK_SECRET ?? DEVELOPMENT_FILE_LINK_SECRET,
  };
}
