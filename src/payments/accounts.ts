// A company's payment provider as the service uses it: its settings row (payment_providers) with the API key
// opened from its sealed form (secret-box.ts) into a provider client, inside the caller's tenant transaction.
import { eq } from 'drizzle-orm';
import { paymentProviders } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { MollieProvider } from './mollie.ts';
import type { PaymentProvider } from './provider.ts';
import { providerKeyBinding, type SecretBox } from './secret-box.ts';

export type PaymentAccount = {
  provider: PaymentProvider;
  /** The company's webhook token (webhook-token.ts). */
  webhookToken: string;
};

export async function paymentAccountOf(tx: Tx, companyId: string, box: SecretBox): Promise<PaymentAccount | null> {
  const [row] = await tx.select().from(paymentProviders).where(eq(paymentProviders.companyId, companyId));
  if (!row) return null;
  const apiKey = box.open(row.apiKeySealed, providerKeyBinding(companyId, row.provider));
  return { provider: new MollieProvider(apiKey, row.apiBaseUrl), webhookToken: row.webhookToken };
}

/** Whether the company has connected a payment provider (no key is opened). */
export async function hasPaymentProvider(tx: Tx, companyId: string): Promise<boolean> {
  const [row] = await tx
    .select({ companyId: paymentProviders.companyId })
    .from(paymentProviders)
    .where(eq(paymentProviders.companyId, companyId));
  return row !== undefined;
}
