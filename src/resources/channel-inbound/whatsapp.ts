// The WhatsApp Cloud API webhook: its signature (X-Hub-Signature-256, an HMAC-SHA256 of the exact body with the
// Meta app secret) and what its body carries (entry[].changes[].value: messages, contacts, statuses), read
// leniently: Meta adds fields and message types over time, and anything not understood is skipped, never refused.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Whether `header` is `sha256=<hex>` of `body` with `secret`, compared in constant time. */
export function signatureValid(body: Uint8Array, header: string | undefined, secret: string | null): boolean {
  if (!header || !secret) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1] as string, 'hex'));
}

export type WebhookMessage = { id: string; from: string; name: string | null; body: string };
export type WebhookStatus = { id: string; status: WhatsAppStatus };
/** One change: the messages and statuses of one business phone number. */
export type WebhookChange = { phoneNumberId: string; messages: WebhookMessage[]; statuses: WebhookStatus[] };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
/** PostgreSQL text cannot hold U+0000; a message is kept to a sane length. */
const storable = (value: string, max = 10_000) => value.replaceAll('\u0000', '').slice(0, max);

const STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type WhatsAppStatus = (typeof STATUSES)[number];
const isStatus = (value: string): value is WhatsAppStatus => STATUSES.some((status) => status === value);

/** The changes of the body (`null` when it is not the Cloud API's object), with the messages in order. */
export function changesOf(payload: unknown): WebhookChange[] | null {
  if (!isObject(payload) || !Array.isArray(payload.entry)) return null;
  const changes: WebhookChange[] = [];
  for (const entry of objects(payload.entry)) {
    for (const change of objects(entry.changes)) {
      const value = change.value;
      if (!isObject(value) || (change.field !== undefined && change.field !== 'messages')) continue;
      const phoneNumberId = isObject(value.metadata) ? text(value.metadata.phone_number_id) : null;
      if (!phoneNumberId) continue;
      const names = new Map<string, string>();
      for (const contact of objects(value.contacts)) {
        const waId = text(contact.wa_id);
        const name = isObject(contact.profile) ? text(contact.profile.name) : null;
        if (waId && name) names.set(waId, storable(name, 200));
      }
      const messages: WebhookMessage[] = [];
      for (const message of objects(value.messages)) {
        const id = text(message.id);
        const from = text(message.from)?.replace(/\D+/g, '');
        if (!id || !from) continue;
        messages.push({ id: storable(id, 200), from, name: names.get(from) ?? null, body: storable(bodyOf(message)) });
      }
      const statuses: WebhookStatus[] = [];
      for (const status of objects(value.statuses)) {
        const id = text(status.id);
        const state = text(status.status);
        if (id && state && isStatus(state)) statuses.push({ id, status: state });
      }
      changes.push({ phoneNumberId, messages, statuses });
    }
  }
  return changes;
}

/** The message's text, or a readable description of what it carries (media are not downloaded). */
export function bodyOf(message: Json): string {
  const type = text(message.type) ?? 'unknown';
  const member = message[type];
  const part: Json = isObject(member) ? member : {};
  const caption = text(part.caption);
  const withCaption = (label: string) => (caption ? `[${label}] ${caption}` : `[${label}]`);
  switch (type) {
    case 'text':
      return text(part.body) ?? '';
    case 'image':
      return withCaption('Image');
    case 'video':
      return withCaption('Video');
    case 'audio':
      return part.voice === true ? '[Voice message]' : '[Audio]';
    case 'sticker':
      return '[Sticker]';
    case 'document': {
      const name = text(part.filename);
      return withCaption(name ? `Document: ${name}` : 'Document');
    }
    case 'location': {
      const where = [text(part.name), text(part.address)].filter(Boolean).join(', ');
      const at = `${String(part.latitude ?? '?')}, ${String(part.longitude ?? '?')}`;
      return `[Location] ${where ? `${where} (${at})` : at}`;
    }
    case 'contacts': {
      const names = objects(message.contacts)
        .map((contact) => (isObject(contact.name) ? text(contact.name.formatted_name) : null))
        .filter(Boolean);
      return `[Contact] ${names.join(', ')}`.trim();
    }
    case 'button':
      return text(part.text) ?? '[Button]';
    case 'interactive': {
      const reply = isObject(part.button_reply) ? part.button_reply : isObject(part.list_reply) ? part.list_reply : {};
      return text(reply.title) ?? '[Interactive reply]';
    }
    case 'reaction':
      return `[Reaction] ${text(part.emoji) ?? ''}`.trim();
    default:
      return `[${type} message]`;
  }
}
