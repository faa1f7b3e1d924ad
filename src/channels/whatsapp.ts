// WhatsApp through the WhatsApp Business Cloud API: POST {base}/{phone-number-id}/messages with the company's
// access token (channel_settings; the base URL defaults to the Graph API and tests point it at a local fake).
// A free-form text is allowed only within 24 hours of the customer's last message (the customer-service window):
// outside it the adapter refuses before calling anyone. An approved template message (a business-initiated one,
// e.g. a review request) may be sent at any time. A company without WhatsApp settings gets the recording
// adapter's behaviour: the message is kept in memory and logged, not sent.
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import { channelSettings } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import {
  type ChannelAdapter,
  ChannelUnavailable,
  type Delivery,
  type OutgoingMessage,
  WHATSAPP_WINDOW_MS,
} from './channel.ts';

export const DEFAULT_GRAPH_API = 'https://graph.facebook.com/v21.0';
/** How long the Graph API may take before the send counts as failed (nothing is stored then). */
const GRAPH_TIMEOUT_MS = 10_000;

export type WhatsAppAccount = { phoneNumberId: string; baseUrl: string; accessToken: string };

/** What the recording adapter kept, newest last (bounded: a development aid, not a store). */
export type RecordedMessage = { companyId: string; message: OutgoingMessage; at: Date };
export class Recorder {
  readonly messages: RecordedMessage[] = [];
  constructor(private readonly log: Logger) {}
  keep(companyId: string, message: OutgoingMessage, at: Date) {
    this.messages.push({ companyId, message, at });
    if (this.messages.length > 1000) this.messages.shift();
    this.log.info({ companyId, channel: message.channel }, 'channel message recorded, not sent (no settings)');
  }
}

export async function whatsappAccountOf(tx: Tx, companyId: string): Promise<WhatsAppAccount | null> {
  const [row] = await tx.select().from(channelSettings).where(eq(channelSettings.companyId, companyId));
  if (!row?.whatsappPhoneNumberId || !row.whatsappAccessToken) return null;
  return {
    phoneNumberId: row.whatsappPhoneNumberId,
    baseUrl: (row.whatsappApiBaseUrl ?? DEFAULT_GRAPH_API).replace(/\/$/, ''),
    accessToken: row.whatsappAccessToken,
  };
}

/** The Graph API's message content: a free-form text, or a template with its body's parameters. */
function contentOf(message: Extract<OutgoingMessage, { channel: 'whatsapp' }>) {
  if (!('template' in message)) return { type: 'text', text: { preview_url: false, body: message.text } };
  const { name, language, bodyParameters } = message.template;
  return {
    type: 'template',
    template: {
      name,
      language: { code: language },
      components: bodyParameters.length
        ? [{ type: 'body', parameters: bodyParameters.map((text) => ({ type: 'text', text })) }]
        : [],
    },
  };
}

type GraphAnswer = { messages?: { id?: string }[]; error?: { message?: string; code?: number } };

export function whatsappAdapter(deps: { clock: Clock; recorder: Recorder }): ChannelAdapter<'whatsapp'> {
  return {
    channel: 'whatsapp',
    async send(tx, companyId, message): Promise<Delivery> {
      if (!/^\d{6,15}$/.test(message.to)) return { accepted: false, refusal: { reason: 'no_address' } };
      const last = 'template' in message ? null : message.lastCustomerMessageAt;
      if (!('template' in message) && (!last || deps.clock().getTime() - last.getTime() > WHATSAPP_WINDOW_MS)) {
        return { accepted: false, refusal: { reason: 'whatsapp_window_closed', lastCustomerMessageAt: last } };
      }
      const account = await whatsappAccountOf(tx, companyId);
      if (!account) {
        deps.recorder.keep(companyId, message, deps.clock());
        return { accepted: true, recorded: true };
      }
      let response: Response;
      try {
        response = await fetch(`${account.baseUrl}/${encodeURIComponent(account.phoneNumberId)}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${account.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messaging_product: 'whatsapp',
            recipient_type: 'individual',
            to: message.to,
            ...contentOf(message),
          }),
          redirect: 'error',
          signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
        });
      } catch (error) {
        throw new ChannelUnavailable(`WhatsApp Cloud API unreachable: ${(error as Error).message}`);
      }
      const answer = (await response.json().catch(() => ({}))) as GraphAnswer;
      if (response.status >= 500) throw new ChannelUnavailable(`WhatsApp Cloud API answered ${response.status}`);
      if (!response.ok) {
        // 131047: more than 24 hours since the customer's last message (WhatsApp's own view of the window).
        if (answer.error?.code === 131047)
          return { accepted: false, refusal: { reason: 'whatsapp_window_closed', lastCustomerMessageAt: last } };
        const detail = (answer.error?.message ?? `HTTP ${response.status}`).slice(0, 300);
        return { accepted: false, refusal: { reason: 'refused', detail } };
      }
      const id = answer.messages?.[0]?.id;
      if (!id) throw new ChannelUnavailable('WhatsApp Cloud API answered without a message id');
      return { accepted: true, whatsappMessageId: id, recorded: false };
    },
  };
}
