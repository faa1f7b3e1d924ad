// The kinds of expensive work a company holds concurrency slots for (src/http/concurrency.ts), named as the contract,
// the CLI (`company limits`) and /metrics name them.
export const CONCURRENCY_KINDS = ['uploads', 'pdf_renders', 'batches'] as const;
export type ConcurrencyKind = (typeof CONCURRENCY_KINDS)[number];
export type ConcurrencyLimitValues = Record<ConcurrencyKind, number>;

export const isConcurrencyKind = (kind: string): kind is ConcurrencyKind =>
  (CONCURRENCY_KINDS as readonly string[]).includes(kind);
