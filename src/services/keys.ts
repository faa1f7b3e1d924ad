// Creating, renewing and revoking API keys (used by the operator CLI and the web application's backend).
import { and, eq, sql } from 'drizzle-orm';
import { isValidRange } from '../auth/ip.ts';
import { generateKey, hashKey, keyPrefix } from '../auth/key-format.ts';
import { forgetKey } from '../auth/key-store.ts';
import type { Scope } from '../auth/scopes.ts';
import type { Db } from '../db/client.ts';
import { apiKeys } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { prefixedId } from '../ids.ts';

export const EXPIRIES = { '30d': 30, '90d': 90, '365d': 365, never: null } as const;
export const OVERLAPS = { none: 0, '1h': 3600, '24h': 86_400, '7d': 604_800 } as const;
export type Expiry = keyof typeof EXPIRIES;
export type Overlap = keyof typeof OVERLAPS;

export type NewKey = {
  companyId: string;
  name: string;
  scopes: Scope[];
  expiresIn?: Expiry;
  allowedIps?: string[];
};

const DAY_MS = 86_400_000;

/** `db` may be a transaction (the demo creates its company and key in one). */
export async function createKey(db: Db | Tx, input: NewKey) {
  const invalid = (input.allowedIps ?? []).filter((ip) => !isValidRange(ip));
  if (invalid.length) throw new Error(`not an IP address or CIDR range: ${invalid.join(', ')}`);
  const key = generateKey();
  const days = EXPIRIES[input.expiresIn ?? '365d'];
  const [row] = await db
    .insert(apiKeys)
    .values({
      companyId: input.companyId,
      id: prefixedId('key'),
      name: input.name,
      prefix: keyPrefix(key),
      keyHash: hashKey(key),
      scopes: input.scopes,
      allowedIps: input.allowedIps ?? [],
      expiresAt: days === null ? null : new Date(Date.now() + days * DAY_MS),
    })
    .returning();
  return { key, row };
}

/** A new key with the same settings; the old one keeps working for the overlap, then counts as revoked. */
export async function renewKey(db: Db, id: string, overlap: Overlap) {
  const renewed = await db.transaction(async (tx) => {
    const [old] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).for('update');
    if (!old) throw new Error(`no key ${id}`);
    if (old.revokedAt && old.revokedAt <= new Date()) throw new Error(`key ${id} is revoked`);
    // Renewed already and still in its overlap: renewing it again would move its end (up to 7 days, again and
    // again) and keep an old key alive for ever. Its successor is the key to renew.
    if (old.revokedAt) {
      throw new Error(`key ${id} was renewed already and ends at ${old.revokedAt.toISOString()}; renew its successor`);
    }
    const key = generateKey();
    const lifetime = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
    const [row] = await tx
      .insert(apiKeys)
      .values({
        companyId: old.companyId,
        id: prefixedId('key'),
        name: old.name,
        prefix: keyPrefix(key),
        keyHash: hashKey(key),
        scopes: old.scopes,
        allowedIps: old.allowedIps,
        expiresAt: lifetime === null ? null : new Date(Date.now() + lifetime),
        renewedFromId: old.id,
      })
      .returning();
    await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now() + make_interval(secs => ${OVERLAPS[overlap]})` })
      .where(and(eq(apiKeys.companyId, old.companyId), eq(apiKeys.id, old.id)));
    return { key, row, oldHash: old.keyHash };
  });
  // The NOTIFY reaches this process's cache a moment later; the next request here must already see it.
  forgetKey(renewed.oldHash);
  return { key: renewed.key, row: renewed.row };
}

export async function revokeKey(db: Db, id: string) {
  // A key revoked already keeps the time it was revoked; one in its renewal overlap ends now.
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`least(coalesce(${apiKeys.revokedAt}, 'infinity'), now())` })
    .where(eq(apiKeys.id, id))
    .returning();
  if (rows.length === 0) throw new Error(`no key ${id}`);
  forgetKey(rows[0].keyHash);
  return rows[0];
}
