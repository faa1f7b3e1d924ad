// One way to send a message to a customer, whatever the channel: the inbox's replies and any other sender
// (review requests, appointment notices) go through `Channels.send`. Every adapter works inside the caller's
// transaction: what it queues (the email outbox) commits or rolls back with the change that caused it, and an
// adapter that refuses (WhatsApp's 24-hour window, no address) says why, so the caller stores nothing.
import type { Tx } from '../db/tenant.ts';

export type ChannelName = 'web' | 'whatsapp' | 'email';

export type OutgoingMessage =
  | {
      channel: 'email';
      /** The customer's address. */
      to: string;
      subject: string;
      text: string;
      html?: string;
      /** What caused it (e.g. `conversation_reply`, `review_request`), for operators and tests. */
      kind: string;
      /** Threading: the Message-ID answered and the thread's earlier Message-IDs, oldest first. */
      inReplyTo?: string | null;
      references?: string[];
    }
  | {
      channel: 'whatsapp';
      /** The customer's WhatsApp id: the phone number in international form, digits only (`31612345678`). */
      to: string;
      text: string;
      /**
       * The customer's latest incoming WhatsApp message: a free-form message is allowed only within 24 hours of
       * it (WhatsApp's customer-service window). Null: the customer never wrote, so no free-form message.
       */
      lastCustomerMessageAt: Date | null;
    }
  | {
      channel: 'whatsapp';
      to: string;
      /**
       * An approved message template: the one kind of message WhatsApp lets a business start outside the 24-hour
       * window (Graph API `type: "template"`), so no window applies to it.
       */
      template: WhatsAppTemplate;
    }
  | {
      channel: 'web';
      /** The web-chat conversation; its visitor reads the message from the widget session. */
      conversationId: string;
      text: string;
    };

/** A template message: the template's name, its approved language code and the values of its body's {{1}}, {{2}}, …. */
export type WhatsAppTemplate = { name: string; language: string; bodyParameters: string[] };

/** How a channel took the message. */
export type Delivery =
  | {
      accepted: true;
      /** WhatsApp's message id (`wamid.…`), which its delivery statuses name. */
      whatsappMessageId?: string;
      /** The outbox email that carries it, and the Message-ID it is sent with. */
      outboundEmailId?: string;
      emailMessageId?: string;
      /** True when the message was only recorded (no SMTP / WhatsApp settings): nothing left the service. */
      recorded: boolean;
    }
  | { accepted: false; refusal: Refusal };

export type Refusal =
  | { reason: 'whatsapp_window_closed'; lastCustomerMessageAt: Date | null }
  | { reason: 'no_address' }
  /** The channel's service answered no (e.g. the Graph API's error message). */
  | { reason: 'refused'; detail: string };

/** A channel's service could not be reached or failed (5xx, timeout): worth a retry later, not a refusal. */
export class ChannelUnavailable extends Error {}
/** How long a client waits before trying a send again after ChannelUnavailable (the 503's Retry-After). */
export const CHANNEL_RETRY_AFTER_SECONDS = 30;

export interface ChannelAdapter<C extends ChannelName = ChannelName> {
  readonly channel: C;
  send(tx: Tx, companyId: string, message: Extract<OutgoingMessage, { channel: C }>): Promise<Delivery>;
}

/** The three adapters behind one `send`. */
export interface Channels {
  send(tx: Tx, companyId: string, message: OutgoingMessage): Promise<Delivery>;
}

export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;
