// What the commands print: one JSON object (--json) or a few lines for a person.
import type { apiKeys, companies } from '../db/schema/index.ts';
import { isoOrNull } from '../http/serialize.ts';
import { serializeCompany } from '../resources/company/serialize.ts';

export type Output = { json: Record<string, unknown>; text: string };

export function companyOutput(row: typeof companies.$inferSelect): Record<string, unknown> {
  return {
    ...serializeCompany(row),
    suspended_at: isoOrNull(row.suspendedAt),
    subscription_active: row.subscriptionActive,
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
