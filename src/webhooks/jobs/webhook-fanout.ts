// The webhook_fanout task: one job per event (queued with the event: src/events/record.ts). The fan-outs of a
// company running at the same time are sent and written together (fanout.ts); a batch lets the company's next
// one start once its sends are over, so that one sends while the other writes.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { Coalescer } from '../coalescer.ts';
import type { DeliverOptions } from '../delivery-attempts.ts';
import type { DeliveryState } from '../delivery-state.ts';
import { fanoutEvents } from '../fanout.ts';

export const FANOUT_TASK = 'webhook_fanout';

// Checked, not trusted: JSON from the queue.
export const fanoutPayload = z.object({ companyId: z.uuid(), eventId: z.string() });

declare global {
  namespace GraphileWorker {
    interface Tasks {
      webhook_fanout: z.infer<typeof fanoutPayload>;
    }
  }
}

/** `maxBatch`: the most events in one company's batch (the worker's FANOUT_BATCH_MAX). */
export function webhookFanoutTask(
  state: DeliveryState,
  sending: DeliverOptions,
  maxBatch: number,
): Task<'webhook_fanout'> {
  const fanouts = new Coalescer<string, number>(
    (companyId, eventIds, release) => fanoutEvents(state, companyId, eventIds, sending, release),
    maxBatch,
  );
  return async (payload) => {
    const { companyId, eventId } = fanoutPayload.parse(payload);
    await fanouts.add(companyId, eventId);
  };
}
