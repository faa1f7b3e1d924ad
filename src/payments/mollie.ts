// Mollie through its official Node client (@mollie/api-client): payments created with the company's API key
// (`test_…` or `live_…`) and read back by id. The API root defaults to Mollie's own; tests and local development
// point it at a fake (CLI `company payments ID --mollie-base-url`). The client retries a 5xx twice (2 s apart, or
// Mollie's Retry-After) but has no time limit of its own: each call is cut off after PROVIDER_TIMEOUT_MS.
// patches/@mollie+api-client+4.6.0.patch lets the client speak plain http to a loopback fake (it always handed
// node-fetch an https agent); the CLI accepts http only for loopback addresses.
import { createMollieClient, Locale, type MollieClient, type Payment, type Refund } from '@mollie/api-client';
import {
  type NewProviderPayment,
  type NewProviderRefund,
  type PaymentProvider,
  PROVIDER_PAYMENT_STATES,
  PROVIDER_TIMEOUT_MS,
  type ProviderPayment,
  type ProviderRefund,
  ProviderRefused,
  ProviderUnavailable,
} from './provider.ts';

export const DEFAULT_MOLLIE_API = 'https://api.mollie.com/v2/';

/** A Mollie API key: `test_` or `live_` and at least 30 letters and digits. */
export const MOLLIE_KEY = /^(test|live)_[A-Za-z0-9]{30,}$/;

const LOCALES: Record<string, Locale> = {
  nl_NL: Locale.nl_NL,
  en_US: Locale.en_US,
  de_DE: Locale.de_DE,
  fr_FR: Locale.fr_FR,
};

/** The status code of the client's ApiError (undefined: no answer at all, e.g. the connection was refused). */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  return typeof error.statusCode === 'number' ? error.statusCode : undefined;
}

/** What Mollie's answer says, never the key: the client's messages name the request, not its credentials. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

async function withinTime<T>(call: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ProviderUnavailable(`Mollie did not answer ${what} within ${PROVIDER_TIMEOUT_MS} ms`)),
      PROVIDER_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function fromMollie(payment: Payment): ProviderPayment {
  const status = PROVIDER_PAYMENT_STATES.find((s) => s === payment.status);
  if (!status) throw new ProviderUnavailable(`Mollie answered an unknown payment status ${String(payment.status)}`);
  const metadata = payment.metadata;
  return {
    id: payment.id,
    status,
    amount: payment.amount.value,
    currency: payment.amount.currency,
    checkoutUrl: payment.getCheckoutUrl(),
    method: payment.method ?? null,
    paidAt: payment.paidAt ? new Date(payment.paidAt) : null,
    expiresAt: payment.expiresAt ? new Date(payment.expiresAt) : null,
    metadata: typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {},
  };
}

/** The service's refund id in a Mollie refund's metadata (undefined for refunds made elsewhere). */
function refundIdOf(refund: Refund): unknown {
  const metadata: unknown = refund.metadata;
  return typeof metadata === 'object' && metadata !== null && 'refund_id' in metadata ? metadata.refund_id : undefined;
}

function refundOf(refund: Refund): ProviderRefund {
  const status =
    refund.status === 'refunded' ? 'refunded' : ['failed', 'canceled'].includes(refund.status) ? 'failed' : 'pending';
  return { id: refund.id, status, amount: refund.amount.value };
}

const PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;

export class MollieProvider implements PaymentProvider {
  readonly name = 'mollie' as const;
  private readonly client: MollieClient;

  constructor(apiKey: string, baseUrl: string | null) {
    this.client = createMollieClient({
      apiKey,
      apiEndpoint: baseUrl ?? DEFAULT_MOLLIE_API,
      versionStrings: ['CrmWorkflowService/1.0'],
    });
  }

  async createPayment(payment: NewProviderPayment): Promise<ProviderPayment> {
    try {
      const created = await withinTime(
        this.client.payments.create({
          amount: { currency: payment.currency, value: payment.amount },
          description: payment.description,
          redirectUrl: payment.redirectUrl,
          webhookUrl: payment.webhookUrl,
          locale: LOCALES[payment.locale] ?? Locale.en_US,
          metadata: payment.metadata,
        }),
        'a new payment',
      );
      return fromMollie(created);
    } catch (error) {
      throw this.failure(error, 'creating a payment');
    }
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    // Mollie's payment ids; anything else is no payment of ours (and never reaches the URL).
    if (!PAYMENT_ID.test(id)) return null;
    try {
      return fromMollie(await withinTime(this.client.payments.get(id), `payment ${id}`));
    } catch (error) {
      if (statusOf(error) === 404 || statusOf(error) === 410) return null;
      throw this.failure(error, `reading payment ${id}`);
    }
  }

  async refund(refund: NewProviderRefund): Promise<ProviderRefund> {
    if (!PAYMENT_ID.test(refund.paymentId)) throw new ProviderRefused(`${refund.paymentId} is no Mollie payment id`);
    try {
      // Mollie keeps an idempotency key for a limited time: a refund made earlier is looked for by its metadata
      // first, so a send retried days later still finds it rather than paying back twice.
      const earlier = await withinTime(
        this.client.paymentRefunds.page({ paymentId: refund.paymentId, limit: 250 }),
        `the refunds of ${refund.paymentId}`,
      );
      const found = earlier.find((r) => refundIdOf(r) === refund.refundId);
      if (found) return refundOf(found);
      const created = await withinTime(
        this.client.paymentRefunds.create({
          paymentId: refund.paymentId,
          amount: { currency: refund.currency, value: refund.amount },
          description: refund.description,
          metadata: { refund_id: refund.refundId },
          idempotencyKey: refund.refundId,
        }),
        'a new refund',
      );
      return refundOf(created);
    } catch (error) {
      throw this.failure(error, `refunding ${refund.paymentId}`);
    }
  }

  async getRefund(paymentId: string, id: string): Promise<ProviderRefund | null> {
    if (!PAYMENT_ID.test(paymentId) || !/^re_[A-Za-z0-9]{1,64}$/.test(id)) return null;
    try {
      return refundOf(await withinTime(this.client.paymentRefunds.get(id, { paymentId }), `refund ${id}`));
    } catch (error) {
      if (statusOf(error) === 404 || statusOf(error) === 410) return null;
      throw this.failure(error, `reading refund ${id}`);
    }
  }

  private failure(error: unknown, what: string): Error {
    if (error instanceof ProviderUnavailable || error instanceof ProviderRefused) return error;
    const status = statusOf(error);
    if (status === undefined || status >= 500 || status === 429)
      return new ProviderUnavailable(`Mollie unavailable ${what}: ${reasonOf(error)}`);
    return new ProviderRefused(`Mollie refused ${what} (${status}): ${reasonOf(error)}`, reasonOf(error));
  }
}
