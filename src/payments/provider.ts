// One way to take a payment online, whatever the provider: create a payment for an amount (the customer is sent
// to its checkout) and read a payment as the provider has it now. Mollie is the first (mollie.ts); another
// provider fills the same interface. The provider's answers are the only truth about a payment: a webhook only
// says "look again".

export type ProviderPaymentState = 'open' | 'pending' | 'authorized' | 'paid' | 'failed' | 'expired' | 'canceled';

/** A payment as the provider has it. */
export type ProviderPayment = {
  id: string;
  status: ProviderPaymentState;
  /** Two decimals, like every amount of the service. */
  amount: string;
  currency: string;
  /** Where the customer pays; null once the payment is no longer open. */
  checkoutUrl: string | null;
  /** The provider's name of the method the customer chose (`ideal`, `creditcard`, …), null until chosen. */
  method: string | null;
  paidAt: Date | null;
  expiresAt: Date | null;
  /** What the service put in the payment's metadata when it created it. */
  metadata: Record<string, unknown>;
};

export type NewProviderPayment = {
  amount: string;
  currency: string;
  description: string;
  /** Where the provider sends the customer back after the checkout. */
  redirectUrl: string;
  /** Where the provider posts the payment's id when its status changes. */
  webhookUrl: string;
  /** `nl_NL`, `en_US`, … for the checkout's language. */
  locale: string;
  metadata: Record<string, string>;
};

export interface PaymentProvider {
  readonly name: 'mollie';
  createPayment(payment: NewProviderPayment): Promise<ProviderPayment>;
  /** The payment, or null when the provider knows no payment of this id (for this account). */
  getPayment(id: string): Promise<ProviderPayment | null>;
}

/** The provider could not be reached, failed (5xx) or took too long: worth trying again later. */
export class ProviderUnavailable extends Error {}
/** The provider refused the request (a 4xx other than an unknown payment): trying again will not help. */
export class ProviderRefused extends Error {}

/** How long one call to a provider may take (its client's own retries included). */
export const PROVIDER_TIMEOUT_MS = 10_000;
