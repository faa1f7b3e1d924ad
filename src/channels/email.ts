// Email through the outbox (src/mail/outbox.ts): queued in the caller's transaction and sent by the email_send
// job over SMTP_URL (or recorded without it). Replies carry In-Reply-To and References, so the customer's mail
// client keeps the thread; the outbox sends the email with the Message-ID `<{emailId}@{domain}>`, which an
// incoming reply names again (emailIdOf).
import type { Tx } from '../db/tenant.ts';
import { messageIdOf, queueEmail } from '../mail/outbox.ts';
import type { ChannelAdapter, Delivery } from './channel.ts';

/** An address mail can reach: not empty and not a placeholder in the reserved `.invalid` domain. */
export const isUsableEmail = (address: string | null | undefined): address is string =>
  !!address && /^[^@\s]+@[^@\s]+$/.test(address) && !/\.invalid$/i.test(address);

export function emailAdapter(options: { domain: string; recording: boolean }): ChannelAdapter<'email'> {
  return {
    channel: 'email',
    async send(tx: Tx, companyId, message): Promise<Delivery> {
      if (!isUsableEmail(message.to)) return { accepted: false, refusal: { reason: 'no_address' } };
      const headers: Record<string, string> = {};
      if (message.inReplyTo) headers['In-Reply-To'] = message.inReplyTo;
      const references = [...(message.references ?? [])];
      if (message.inReplyTo && !references.includes(message.inReplyTo)) references.push(message.inReplyTo);
      if (references.length > 0) headers.References = references.join(' ');
      const queued = await queueEmail(tx, companyId, {
        to: [message.to],
        subject: message.subject,
        text: message.text,
        html: message.html,
        kind: message.kind,
        headers,
      });
      if (!queued) return { accepted: false, refusal: { reason: 'no_address' } };
      return {
        accepted: true,
        outboundEmailId: queued.id,
        emailMessageId: messageIdOf(queued.id, options.domain),
        recorded: options.recording,
      };
    },
  };
}
