// Which company a delivery belongs to, from its channel settings (read before any tenant is known: the table's
// row-level security is not forced, like companies'). Each lookup is by a unique column.
import { createHash } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channelSettings } from '../../db/schema/index.ts';

export type WhatsAppCompany = { companyId: string; phoneNumberId: string; appSecret: string | null };

/** The companies of these WhatsApp phone-number ids, by id. */
export async function companiesOfNumbers(db: Db, phoneNumberIds: string[]): Promise<Map<string, WhatsAppCompany>> {
  if (phoneNumberIds.length === 0) return new Map();
  const rows = await db
    .select({
      companyId: channelSettings.companyId,
      phoneNumberId: channelSettings.whatsappPhoneNumberId,
      appSecret: channelSettings.whatsappAppSecret,
    })
    .from(channelSettings)
    .where(inArray(channelSettings.whatsappPhoneNumberId, phoneNumberIds));
  const found = new Map<string, WhatsAppCompany>();
  for (const row of rows)
    if (row.phoneNumberId) found.set(row.phoneNumberId, { ...row, phoneNumberId: row.phoneNumberId });
  return found;
}

/**
 * Whether a company has this webhook verify token. It only lets Meta confirm a callback URL (no message is accepted
 * without the app secret's signature), so a plain lookup will do.
 */
export async function verifyTokenKnown(db: Db, token: string): Promise<boolean> {
  const rows = await db
    .select({ companyId: channelSettings.companyId })
    .from(channelSettings)
    .where(eq(channelSettings.whatsappVerifyToken, token))
    .limit(1);
  return rows.length > 0;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The company whose inbound email secret this is (kept as its SHA-256, so the lookup reveals nothing by its timing). */
export async function companyOfInboundSecret(db: Db, secret: string): Promise<string | null> {
  const [row] = await db
    .select({ companyId: channelSettings.companyId })
    .from(channelSettings)
    .where(eq(channelSettings.inboundEmailSecretHash, sha256Hex(secret)));
  return row?.companyId ?? null;
}
