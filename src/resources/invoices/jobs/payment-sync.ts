// The invoice_payment_sync task, queued when a payment provider's webhook arrived while the provider could not be
// asked (down, 5xx, too slow): it asks again. A provider still unavailable fails the job, which Graphile Worker
// retries with its growing delays (25 attempts, about three days); any other answer ends it. One job per payment
// (its job key): webhooks that keep arriving during an outage replace it rather than pile up.
import type { Task } from 'graphile-worker';
import { type ProviderPaymentDeps, syncProviderPayment } from '../provider-payments.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      invoice_payment_sync: { companyId: string; providerPaymentId: string };
    }
  }
}

export function invoicePaymentSyncTask(deps: ProviderPaymentDeps): Task<'invoice_payment_sync'> {
  return async ({ companyId, providerPaymentId }) => {
    // ProviderUnavailable is thrown on: the job fails and is tried again.
    const outcome = await syncProviderPayment(deps, companyId, providerPaymentId);
    deps.log.info({ companyId, providerPaymentId, outcome }, 'invoice_payment_sync done');
  };
}
