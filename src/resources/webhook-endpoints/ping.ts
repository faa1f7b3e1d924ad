// The test message: a `ping` event (contract PingEvent) sent once, right now, signed like every message.
// It is not an event of the company: never stored, never listed, never retried, never in the delivery log,
// and it leaves the endpoint's health (last_success_at, failure count, status) alone.

import { iso } from '../../http/serialize.ts';
import { prefixedId } from '../../ids.ts';
import { WebhookSender } from '../../webhooks/send.ts';
import type { UrlPolicy } from '../../webhooks/url-guard.ts';
import type { EndpointRow } from './serialize.ts';

export const PING_MESSAGE = 'Test message for this webhook endpoint.';
// At most 10 tests per endpoint per minute: deps.webhookTestLimits (src/http/rate-limit.ts).

export async function sendPing(endpoint: EndpointRow, policy: UrlPolicy) {
  const sentAt = new Date();
  const eventId = prefixedId('evt');
  const body = JSON.stringify({
    object: 'event',
    id: eventId,
    type: 'ping',
    created_at: iso(sentAt),
    data: { object: { object: 'ping', webhook_endpoint_id: endpoint.id, message: PING_MESSAGE } },
  });
  // Its own sender, closed after the one message: nothing of a ping is kept.
  const sender = new WebhookSender();
  const result = await sender
    .send(endpoint, { id: eventId, body }, { now: sentAt, policy })
    .finally(() => sender.close());
  return {
    object: 'webhook_test' as const,
    endpoint_id: endpoint.id,
    event_id: eventId,
    url: endpoint.url,
    success: result.error === null,
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    error: result.error,
    response_body: result.responseBody,
    created_at: iso(sentAt),
  };
}
