// What the commands print: one JSON object (--json) or a few lines for a person.
import type { apiKeys, companies } from '../db/schema/index.ts';
import { CONCURRENCY_KINDS, type ConcurrencyKind, type ConcurrencyLimitValues } from '../domain/concurrency-kinds.ts';
import { LANGUAGES } from '../http/language.ts';
import { KEY_WINDOWS } from '../http/rate-limit.ts';
import { isoOrNull } from '../http/serialize.ts';
import { serializeCompany } from '../resources/company/serialize.ts';
import { serializeStage } from '../resources/pipeline-stages/serialize.ts';
import type { StageRow } from '../services/pipelines.ts';

/** What a command prints; `exitCode` when it is not 0 (an import with bad rows). */
export type Output = { json: Record<string, unknown>; text: string; exitCode?: number };

export function companyOutput(row: typeof companies.$inferSelect): Record<string, unknown> {
  return {
    ...serializeCompany(row),
    suspended_at: isoOrNull(row.suspendedAt),
    subscription_active: row.subscriptionActive,
    // Per key; null: the service's default (GET /me shows the limits in force).
    rate_limits: { per_minute: row.rateLimitPerMinute, per_hour: row.rateLimitPerHour },
    // Per company, requests in progress at once by kind; null: the service's default.
    concurrency_limits: Object.fromEntries(
      CONCURRENCY_KINDS.map((kind) => [kind, row.concurrencyLimits[kind] ?? null]),
    ),
  };
}

/** The company's concurrency limits as the API applies them: its own, else the service's default. */
export function concurrencyInForce(
  row: typeof companies.$inferSelect,
  defaults: ConcurrencyLimitValues,
): ConcurrencyLimitValues {
  const limit = (kind: ConcurrencyKind) => row.concurrencyLimits[kind] ?? defaults[kind];
  return { uploads: limit('uploads'), pdf_renders: limit('pdf_renders'), batches: limit('batches') };
}

/** Each key's limits as the API applies them (GET /me): the company's own, else the service's default. */
export function limitsInForce(row: typeof companies.$inferSelect): { per_minute: number; per_hour: number } {
  const standard = (name: string) => {
    const window = KEY_WINDOWS.find((w) => w.name === name);
    if (!window) throw new Error(`no key window ${name}`);
    return window.limit;
  };
  return {
    per_minute: row.rateLimitPerMinute ?? standard('minute'),
    per_hour: row.rateLimitPerHour ?? standard('hour'),
  };
}

export function companyText(row: typeof companies.$inferSelect): string {
  return [
    `Company ${row.id}`,
    `  name:         ${row.name}`,
    `  language:     ${row.language}`,
    `  features:     ${row.features.join(', ') || '(none)'}`,
    `  subscription: ${row.subscriptionActive ? 'active' : 'inactive'}`,
    `  suspended:    ${row.suspendedAt ? row.suspendedAt.toISOString() : 'no'}`,
    `  rate limits:  per key ${row.rateLimitPerMinute ?? 'default'}/minute, ${row.rateLimitPerHour ?? 'default'}/hour`,
  ].join('\n');
}

/** A key's settings; the secret itself only when it was just made (it is never stored). */
export function keyOutput(row: typeof apiKeys.$inferSelect, key?: string): Record<string, unknown> {
  return {
    id: row.id,
    ...(key === undefined ? {} : { key }),
    prefix: row.prefix,
    name: row.name,
    scopes: row.scopes,
    expires_at: isoOrNull(row.expiresAt),
    allowed_ips: row.allowedIps,
    company_id: row.companyId,
    renewed_from_id: row.renewedFromId,
    revoked_at: isoOrNull(row.revokedAt),
    created_at: row.createdAt.toISOString(),
  };
}

/** When a key stops working, for a sentence. */
export const expiryText = (expiresAt: Date | null) =>
  expiresAt ? `expires ${expiresAt.toISOString()}` : 'never expires';

export function newKeyText(row: typeof apiKeys.$inferSelect, key: string): string {
  return [
    `API key ${row.id} for company ${row.companyId}${row.renewedFromId ? ` (renews ${row.renewedFromId})` : ''}`,
    `  name:        ${row.name}`,
    `  scopes:      ${row.scopes.join(', ')}`,
    `  expires:     ${row.expiresAt ? row.expiresAt.toISOString() : 'never'}`,
    `  allowed IPs: ${row.allowedIps.join(', ') || 'any'}`,
    '',
    'The key (shown only now; only its hash is stored):',
    `  ${key}`,
  ].join('\n');
}

/** A stage as the API shows it (GET /pipeline-stages), `name` in the company's language. */
export function stageOutput(row: StageRow, companyLanguage: string) {
  const language = LANGUAGES.find((l) => l === companyLanguage) ?? 'en';
  return serializeStage(row, language, companyLanguage);
}

export function stagesText(
  companyId: string,
  rows: StageRow[],
  companyLanguage: string,
  replaced: boolean,
  removed: { deactivated: number[]; deleted: number[] },
): string {
  const lines = [`${replaced ? 'New pipeline' : 'Pipeline'} of company ${companyId} (board order):`];
  for (const row of rows) {
    const stage = stageOutput(row, companyLanguage);
    const flags = `${stage.type}${stage.is_default ? ', default' : ''}`;
    lines.push(`  ${stage.id.padStart(6)}  ${stage.name}  (${flags}, ${stage.probability}%)`);
  }
  if (removed.deactivated.length) lines.push(`Deactivated (they keep their deals): ${removed.deactivated.join(', ')}`);
  if (removed.deleted.length) lines.push(`Deleted (no deals): ${removed.deleted.join(', ')}`);
  return lines.join('\n');
}
