// A company's payment provider, set by the operator (CLI `company payments ID --mollie-key KEY
// [--mollie-base-url URL] [--none]`): the key is sealed with the installation's key (src/payments/secret-box.ts)
// before it is written and is never shown again; what the operator sees is the key's mode (test or live), the API
// root and the webhook address. The webhook token is made once and kept when the key changes.
import { eq, sql } from 'drizzle-orm';
import { paymentWebhookUrlOf } from '../api-address.ts';
import type { Db } from '../db/client.ts';
import { paymentProviders } from '../db/schema/index.ts';
import { withTenant } from '../db/tenant.ts';
import { DEFAULT_MOLLIE_API } from '../payments/mollie.ts';
import { providerKeyBinding, type SecretBox } from '../payments/secret-box.ts';
import { newWebhookToken } from '../payments/webhook-token.ts';

export type PaymentProviderChange =
  | { kind: 'mollie'; apiKey: string; baseUrl: string | null }
  /** Removes the provider: invoices offer bank transfer only again. */
  | { kind: 'none' }
  /** Shows the provider in force. */
  | { kind: 'show' };

export type PaymentProviderView = {
  company_id: string;
  provider: 'mollie' | null;
  mode: 'test' | 'live' | null;
  api_base_url: string | null;
  webhook_url: string | null;
};

export async function setPaymentProvider(
  db: Db,
  companyId: string,
  change: PaymentProviderChange,
  box: SecretBox,
  serviceUrl: string,
): Promise<PaymentProviderView> {
  const row = await withTenant(db, companyId, async (tx) => {
    if (change.kind === 'none') {
      await tx.delete(paymentProviders).where(eq(paymentProviders.companyId, companyId));
      return undefined;
    }
    if (change.kind === 'show') {
      const [found] = await tx.select().from(paymentProviders).where(eq(paymentProviders.companyId, companyId));
      return found;
    }
    const values = {
      provider: 'mollie' as const,
      apiKeySealed: box.seal(change.apiKey, providerKeyBinding(companyId, 'mollie')),
      apiKeyMode: change.apiKey.startsWith('live_') ? ('live' as const) : ('test' as const),
      apiBaseUrl: change.baseUrl,
    };
    const [written] = await tx
      .insert(paymentProviders)
      .values({ companyId, webhookToken: newWebhookToken(companyId), ...values })
      .onConflictDoUpdate({ target: paymentProviders.companyId, set: { ...values, updatedAt: sql`app_now()` } })
      .returning();
    return written;
  });
  if (!row) return { company_id: companyId, provider: null, mode: null, api_base_url: null, webhook_url: null };
  return {
    company_id: companyId,
    provider: row.provider,
    mode: row.apiKeyMode,
    api_base_url: row.apiBaseUrl ?? DEFAULT_MOLLIE_API,
    webhook_url: paymentWebhookUrlOf(serviceUrl, row.provider, row.webhookToken),
  };
}
