// A company's channel settings (table channel_settings), set by the operator (CLI `company channels`): the
// public widget id (made once), the inbound email secret (shown once, kept as SHA-256) and the WhatsApp Cloud
// API account (phone-number id, access token, app secret, webhook verify token, Graph API base URL) and the
// approved WhatsApp template of review requests.
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { channelSettings } from '../db/schema/index.ts';

export type ChannelSettingsChange = {
  whatsappPhoneNumberId?: string | null;
  whatsappAccessToken?: string | null;
  whatsappApiBaseUrl?: string | null;
  whatsappAppSecret?: string | null;
  whatsappVerifyToken?: string | null;
  /** The approved template of review requests (null: none, WhatsApp requests need the customer's open window). */
  whatsappReviewTemplate?: string | null;
  /** The language codes the template is approved in (`nl`, `en_US`, …); empty: the request's language. */
  whatsappReviewTemplateLanguages?: string[];
  /** Makes a new inbound email secret (the old one stops working). */
  newInboundSecret?: boolean;
};

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

/** Creates the row when missing (with a widget id), applies `change`; the new inbound secret is returned once. */
export async function setChannelSettings(db: Db, companyId: string, change: ChannelSettingsChange) {
  const inboundSecret = change.newInboundSecret ? token('ibs') : undefined;
  const values = {
    ...(change.whatsappPhoneNumberId !== undefined ? { whatsappPhoneNumberId: change.whatsappPhoneNumberId } : {}),
    ...(change.whatsappAccessToken !== undefined ? { whatsappAccessToken: change.whatsappAccessToken } : {}),
    ...(change.whatsappApiBaseUrl !== undefined ? { whatsappApiBaseUrl: change.whatsappApiBaseUrl } : {}),
    ...(change.whatsappAppSecret !== undefined ? { whatsappAppSecret: change.whatsappAppSecret } : {}),
    ...(change.whatsappVerifyToken !== undefined ? { whatsappVerifyToken: change.whatsappVerifyToken } : {}),
    ...(change.whatsappReviewTemplate !== undefined ? { whatsappReviewTemplate: change.whatsappReviewTemplate } : {}),
    ...(change.whatsappReviewTemplateLanguages !== undefined
      ? { whatsappReviewTemplateLanguages: change.whatsappReviewTemplateLanguages }
      : {}),
    ...(inboundSecret ? { inboundEmailSecretHash: sha256Hex(inboundSecret) } : {}),
  };
  const [row] = await db
    .insert(channelSettings)
    .values({ companyId, widgetId: token('wid'), ...values })
    .onConflictDoUpdate({ target: channelSettings.companyId, set: { ...values, updatedAt: sql`app_now()` } })
    .returning();
  if (!row) throw new Error(`channel settings of ${companyId} not written`);
  return { row, inboundSecret };
}

export async function channelSettingsOf(db: Db, companyId: string) {
  const [row] = await db.select().from(channelSettings).where(eq(channelSettings.companyId, companyId));
  return row;
}
