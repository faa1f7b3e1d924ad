// Per-company concurrency limits on the expensive work the companies share (issue 46), in the style of Stripe's
// concurrent-request limiter: a rate limit counts requests per minute, this counts requests in flight. An upload, a
// PDF render or a batch holds a slot of its kind while it runs; one more than the company's limit is answered
// `429 concurrency_limited` with Retry-After at once, before it costs anything.
//
// The slots are lease rows in PostgreSQL (drizzle/0042), so every API node counts the same ones, Redis or not: a
// lease needs an atomic "count, then take" and an expiry, which one statement of a plpgsql function gives, and
// PostgreSQL is the store every node always has (a Redis that cannot be reached would make each node count its own,
// as the rate limits do, and let a company take a pool on every node). A taken slot costs two one-statement round
// trips (take, release) on requests that cost hundreds. Each lease expires after LEASE_SECONDS unless its node renews
// it (every RENEW_MS while the request runs), so the slots of a node that crashed free themselves within a minute;
// session advisory locks would free them at once, but would hold a pooled connection for the whole request, which is
// what point 1 of the issue removed.
import { randomUUID } from 'node:crypto';
import type { OperationId } from '../../generated/operations.ts';
import type { Config } from '../config.ts';
import type { Sql } from '../db/client.ts';
import { type ConcurrencyKind, type ConcurrencyLimitValues, isConcurrencyKind } from '../domain/concurrency-kinds.ts';
import { defaultRenderThreads } from '../pdf/render-pool.ts';
import { defineMessages } from './message-catalogue.ts';
import { ApiProblem } from './problems.ts';

/** A lease lives this long without renewal: the longest a crashed node's slots stay taken. */
export const LEASE_SECONDS = 60;
/** How often a node renews the leases of its requests in flight (a third of their life: two renewals may fail). */
export const RENEW_MS = 20_000;

/** Seconds a refused request is told to wait: about how long one request of the kind takes. */
const RETRY_AFTER: ConcurrencyLimitValues = { uploads: 5, pdf_renders: 5, batches: 2 };

/** The operations that hold a slot, by kind; a PDF only where one is rendered (a UBL with `embed_pdf=true`). */
const OPERATION_KINDS: Partial<Record<OperationId, (query: () => URLSearchParams) => ConcurrencyKind | null>> = {
  createQuoteAttachment: () => 'uploads',
  createWorkOrderPhoto: () => 'uploads',
  getQuotePdf: () => 'pdf_renders',
  getInvoicePdf: () => 'pdf_renders',
  getWorkOrderPdf: () => 'pdf_renders',
  sendQuote: () => 'pdf_renders',
  sendInvoice: () => 'pdf_renders',
  getInvoiceUbl: (query) => (query().get('embed_pdf') === 'true' ? 'pdf_renders' : null),
  upsertCustomers: () => 'batches',
  upsertDeals: () => 'batches',
};

/**
 * The kind of slot a request of `operation` holds, if any. `query` is asked for only by the operation that needs it
 * (parsing the URL of every request for it cost two parses per request).
 */
export function concurrencyKindOf(operation: OperationId, query: () => URLSearchParams): ConcurrencyKind | null {
  return OPERATION_KINDS[operation]?.(query) ?? null;
}

/**
 * The defaults, each a share of the pool the kind uses, so that one company cannot take more than that share:
 * uploads and batches a quarter and a fifth of the process's transaction pool (DATABASE_POOL_SIZE, 20: 5 and 4;
 * an upload holds a connection only while it stores the received file, a batch for its whole transaction), PDF
 * renders an eighth of the render threads and their queue (PDF_RENDER_THREADS + PDF_RENDER_QUEUE, 1 + 32 on two
 * cores: 5), and at least 2 of each. The counts are installation-wide while the pools are per process, so with
 * several API nodes a company's share of each node's pools is smaller still.
 */
export function defaultConcurrencyLimits(
  config: Pick<Config, 'DATABASE_POOL_SIZE' | 'PDF_RENDER_THREADS' | 'PDF_RENDER_QUEUE'>,
): ConcurrencyLimitValues {
  const share = (size: number, part: number) => Math.max(2, Math.ceil(size / part));
  const renderThreads = config.PDF_RENDER_THREADS ?? defaultRenderThreads();
  return {
    uploads: share(config.DATABASE_POOL_SIZE, 4),
    pdf_renders: share(renderThreads + config.PDF_RENDER_QUEUE, 8),
    batches: share(config.DATABASE_POOL_SIZE, 5),
  };
}

const texts = defineMessages({
  'concurrency.uploads': {
    en: 'This company already has {limit} uploads in progress, its most at once; try again after Retry-After seconds.',
    nl: 'Dit bedrijf heeft al {limit} uploads lopen, het maximum tegelijk; probeer het opnieuw na Retry-After seconden.',
    de: 'Dieses Unternehmen hat bereits {limit} laufende Uploads, das Höchste gleichzeitig; versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Cette entreprise a déjà {limit} envois de fichiers en cours, son maximum simultané ; réessayez après Retry-After secondes.',
  },
  'concurrency.pdf_renders': {
    en: 'This company already has {limit} PDFs being rendered or waiting, its most at once; try again after Retry-After seconds.',
    nl: 'Voor dit bedrijf worden al {limit} pdf’s gemaakt of wachten erop, het maximum tegelijk; probeer het opnieuw na Retry-After seconden.',
    de: 'Für dieses Unternehmen werden bereits {limit} PDFs erstellt oder warten darauf, das Höchste gleichzeitig; versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Cette entreprise a déjà {limit} PDF en cours de production ou en attente, son maximum simultané ; réessayez après Retry-After secondes.',
  },
  'concurrency.batches': {
    en: 'This company already has {limit} batch requests in progress, its most at once; try again after Retry-After seconds.',
    nl: 'Dit bedrijf heeft al {limit} batchverzoeken lopen, het maximum tegelijk; probeer het opnieuw na Retry-After seconden.',
    de: 'Dieses Unternehmen hat bereits {limit} laufende Batch-Anfragen, das Höchste gleichzeitig; versuchen Sie es nach Retry-After Sekunden erneut.',
    fr: 'Cette entreprise a déjà {limit} requêtes par lot en cours, son maximum simultané ; réessayez après Retry-After secondes.',
  },
} as const);

/** The answer to a request past its company's limit of `kind`. */
export class ConcurrencyLimited extends ApiProblem {
  constructor(
    readonly kind: ConcurrencyKind,
    readonly limit: number,
  ) {
    super(
      'concurrency_limited',
      texts.message(`concurrency.${kind}`, { limit }),
      {},
      {
        'Retry-After': String(RETRY_AFTER[kind]),
      },
    );
  }
}

/** A slot taken: release it once the work is done, whatever its outcome. */
export type Slot = { release: () => Promise<void> };

export class ConcurrencyLimits {
  /** The leases this process holds now (renewed together). */
  private readonly held = new Set<string>();
  private renewer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: Sql,
    readonly defaults: ConcurrencyLimitValues,
    /** Told of every refusal (the /metrics counter). */
    private readonly refused: (kind: ConcurrencyKind) => void = () => {},
  ) {}

  /** Takes a slot of `kind` for the company, or throws ConcurrencyLimited when its limit is reached. */
  async take(companyId: string, kind: ConcurrencyKind): Promise<Slot> {
    const lease = randomUUID();
    const [row] = await this.sql<{ granted: boolean; slot_limit: number }[]>`
      select granted, slot_limit
      from app_take_concurrency_slot(${companyId}, ${kind}, ${lease}, ${this.defaults[kind]}, ${LEASE_SECONDS})`;
    if (!row?.granted) {
      this.refused(kind);
      throw new ConcurrencyLimited(kind, row?.slot_limit ?? this.defaults[kind]);
    }
    this.held.add(lease);
    this.renewer ??= setInterval(() => void this.renew(), RENEW_MS).unref();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.held.delete(lease);
        if (this.held.size === 0) this.stopRenewing();
        // A release that fails (the database gone) leaves the lease to expire.
        await this.sql`delete from concurrency_leases where id = ${lease}`.catch(() => {});
      },
    };
  }

  /** `work` holding a slot of `kind` for the company; the slot is released however the work ends. */
  async run<T>(companyId: string, kind: ConcurrencyKind, work: () => Promise<T>): Promise<T> {
    const slot = await this.take(companyId, kind);
    try {
      return await work();
    } finally {
      await slot.release();
    }
  }

  /** The slots taken now, by kind, across every node (for /metrics and the CLI). */
  async inUse(companyId?: string): Promise<ConcurrencyLimitValues> {
    const rows = await this.sql<{ kind: string; count: number }[]>`
      select kind, count(*)::int as count from concurrency_leases
      where expires_at > clock_timestamp() and (${companyId ?? null}::uuid is null or company = ${companyId ?? null}::uuid)
      group by kind`;
    const counts: ConcurrencyLimitValues = { uploads: 0, pdf_renders: 0, batches: 0 };
    for (const row of rows) if (isConcurrencyKind(row.kind)) counts[row.kind] = row.count;
    return counts;
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return this.stopRenewing();
    // A renewal that fails is tried again at the next tick; a lease expires only after two missed ones.
    await this.sql`
      update concurrency_leases set expires_at = clock_timestamp() + make_interval(secs => ${LEASE_SECONDS})
      where id = any(${[...this.held]}::uuid[])`.catch(() => {});
  }

  private stopRenewing(): void {
    clearInterval(this.renewer);
    this.renewer = undefined;
  }

  /** Stops renewing (the process is stopping; its requests have ended). */
  close(): void {
    this.stopRenewing();
  }
}
