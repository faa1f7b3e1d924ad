// One way to take a payment online, whatever the provider: create a payment for an amount (the customer is sent
// to its checkout) and read a payment as the provider has it now. Mollie is the first (mollie.ts); another
// provider fills the same interface. The provider's answers are the only truth about a payment: a webhook only
// says "look again".

import { PROVIDER_PAYMENT_STATUSES, type ProviderPaymentStatus } from '../db/schema/index.ts';

/** A payment's states at the provider: the stored statuses but our own `creating` (a claim not yet at the provider). */
export type ProviderPaymentState = Exclude<ProviderPaymentStatus, 'creating'>;
export const PROVIDER_PAYMENT_STATES = PROVIDER_PAYMENT_STATUSES.filter(
  (status): status is ProviderPaymentState => status !== 'creating',
);

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

/**
 * A refund as the provider has it: `pending` until the money is on its way back (Mollie's queued, pending and
 * processing), then `refunded`, or `failed` (Mollie's failed and canceled).
 */
export type ProviderRefund = { id: string; status: 'pending' | 'refunded' | 'failed'; amount: string };

export type NewProviderRefund = {
  /** The provider's id of the payment to pay back. */
  paymentId: string;
  amount: string;
  currency: string;
  description: string;
  /**
   * The service's id of the refund: the provider's idempotency key (a repeated send answers the refund made the
   * first time) and in its metadata (found again when the key has expired there).
   */
  refundId: string;
};

export interface PaymentProvider {
  readonly name: 'mollie';
  createPayment(payment: NewProviderPayment): Promise<ProviderPayment>;
  /** The payment, or null when the provider knows no payment of this id (for this account). */
  getPayment(id: string): Promise<ProviderPayment | null>;
  /** The refund made earlier for `refundId`, else a new one (ProviderRefused when the provider will not). */
  refund(refund: NewProviderRefund): Promise<ProviderRefund>;
  /** A refund made earlier, as it is now; null when the provider no longer knows it. */
  getRefund(paymentId: string, id: string): Promise<ProviderRefund | null>;
}

/** The provider could not be reached, failed (5xx) or took too long: worth trying again later. */
export class ProviderUnavailable extends Error {}
/** The provider refused the request (a 4xx other than an unknown payment): trying again will not help. */
export class ProviderRefused extends Error {
  /** The provider's own words for it (Mollie's `detail`), shown to the company. */
  readonly reason: string;
  constructor(message: string, reason?: string) {
    super(message);
    this.reason = reason ?? message;
  }
}

/** How long one call to a provider may take (its client's own retries included). */
export const PROVIDER_TIMEOUT_MS = 10_000;
