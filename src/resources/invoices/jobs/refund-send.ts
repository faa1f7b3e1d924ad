// The invoice_refund_send task: sends a refund of a provider payment to the provider, or looks again at one the
// provider has accepted but not yet paid back (provider-refunds.ts). A provider that cannot be asked fails the job,
// which Graphile Worker retries with its growing delays; the refund's id as idempotency key keeps a retry from
// paying back twice.
import type { Task } from 'graphile-worker';
import type { ProviderPaymentDeps } from '../provider-payments.ts';
import { sendProviderRefund } from '../provider-refunds.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      invoice_refund_send: { companyId: string; paymentId: string };
    }
  }
}

export function invoiceRefundSendTask(deps: ProviderPaymentDeps): Task<'invoice_refund_send'> {
  return async ({ companyId, paymentId }) => {
    const outcome = await sendProviderRefund(deps, companyId, paymentId);
    deps.log.info({ companyId, paymentId, outcome }, 'invoice_refund_send done');
  };
}
