// What the delivery path keeps between the jobs of one worker: the endpoints' turns to send, the delivery jobs
// running per endpoint, the sender's caches and connections, the shared reads and batched writes, the recent message bodies and endpoint reads, the
// fan-outs' slow endpoints and handed-over sends. One object, made by the worker's assembly (src/jobs/worker.ts)
// and passed down, so that each worker — and each test — starts with its own.
import type { Db } from '../db/client.ts';
import { DeliveryReads } from './delivery-reads.ts';
import { EndpointAdmission } from './endpoint-admission.ts';
import { EndpointRereads } from './endpoint-rereads.ts';
import { EventBodies } from './event-bodies.ts';
import { HandedOverSends } from './handed-over-sends.ts';
import { AttemptRecorder } from './record-attempts.ts';
import { WebhookSender } from './send.ts';
import { SendTurns } from './send-turns.ts';

export class DeliveryState {
  readonly sender = new WebhookSender();
  readonly turns = new SendTurns();
  readonly admission = new EndpointAdmission();
  readonly bodies: EventBodies;
  readonly handedOver = new HandedOverSends();
  readonly reads: DeliveryReads;
  readonly rereads: EndpointRereads;
  readonly attempts: AttemptRecorder;

  /** `serviceUrl`: the service's public address (PUBLIC_URL), from which an older event's added fields may be derived. */
  constructor(
    readonly db: Db,
    serviceUrl: string,
  ) {
    this.bodies = new EventBodies({ serviceUrl });
    this.reads = new DeliveryReads(db);
    this.rereads = new EndpointRereads(db);
    this.attempts = new AttemptRecorder(db);
  }
}
