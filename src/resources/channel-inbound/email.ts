// An email as an inbound-mail relay posts it (raw RFC 822), parsed with mailparser as a mail client would: any
// charset and transfer encoding, HTML-only mail converted to text. Attachments are described, not kept: the
// contract's message holds no files (the first one's name, type and size, and every name at the end of the body).
import { createHash } from 'node:crypto';
import type { AddressObject, simpleParser } from 'mailparser';
import type { IncomingMessage } from '../conversations/incoming.ts';

/** The longest body kept; longer mail (long quoted threads) is cut, with a mark. */
const MAX_BODY_CHARS = 100_000;

const storable = (value: string) => value.replaceAll('\u0000', '');

const firstAddress = (from: AddressObject | AddressObject[] | undefined) => {
  const list = Array.isArray(from) ? from : from ? [from] : [];
  return list.flatMap((object) => object.value).find((address) => address.address);
};

/**
 * Message-IDs are kept as sent up to this length. A longer one (RFC 5322 sets no limit; real ones are under 100
 * characters) is kept as a digest of itself, the same wherever it appears (Message-ID, In-Reply-To, References), so
 * threading and deduplication still work and no index entry grows past what PostgreSQL can hold.
 */
const MAX_MESSAGE_ID_CHARS = 250;

/** The longest address SMTP can carry (RFC 5321: a 254-character path); the API takes no longer one either. */
const MAX_ADDRESS_CHARS = 254;

const keptMessageId = (id: string) =>
  id.length <= MAX_MESSAGE_ID_CHARS ? id : `<${createHash('sha256').update(id).digest('hex')}@long-id.invalid>`;

const messageIds = (value: string | string[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : [])
    .flatMap((item) => item.match(/<[^<>\s]+>/g) ?? [])
    .map(keptMessageId);

/** Why a mail is not taken: it names no sender to answer, or is past the parser's bounds. Said in the answer. */
export type EmailRefusal = 'no_sender' | 'sender_too_long' | 'too_complex';

/** The message for receiveCustomerMessage, or why the mail is refused. */
export async function parseInboundEmail(raw: Buffer): Promise<IncomingMessage | { refused: EmailRefusal }> {
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    // Loaded at the first inbound email, not with the service: mailparser and its dependencies are a large part of
    // an import of the service that receives no email (a test file, a worker).
    const { simpleParser: parse } = await import('mailparser');
    mail = await parse(raw, { skipTextToHtml: true, skipImageLinks: true });
  } catch (error) {
    // mailsplit's bounds (a header block over its size, more MIME parts than it takes): a mail no client would
    // show either. Anything else is a failure of ours and passes on.
    if ((error as { code?: unknown }).code === 'EMAXLEN') return { refused: 'too_complex' };
    throw error;
  }
  const from = firstAddress(mail.from);
  if (!from?.address || !/^[^@\s]+@[^@\s]+$/.test(from.address)) return { refused: 'no_sender' };
  if (from.address.length > MAX_ADDRESS_CHARS) return { refused: 'sender_too_long' };
  const files = mail.attachments.filter((file) => !file.related);
  let body = storable(mail.text ?? '')
    .replace(/\r\n/g, '\n')
    .trim();
  if (body.length > MAX_BODY_CHARS) body = `${body.slice(0, MAX_BODY_CHARS)}\n[…]`;
  if (files.length > 0) {
    const names = files.map((file, i) => storable(file.filename ?? `attachment-${i + 1}`)).join(', ');
    body = `${body}${body ? '\n\n' : ''}[Attachments: ${names}]`;
  }
  const first = files[0];
  return {
    contact: { channel: 'email', address: storable(from.address), name: from.name ? storable(from.name) : null },
    body,
    subject: mail.subject ? storable(mail.subject).slice(0, 998) : null,
    threadIds: [...messageIds(mail.references), ...messageIds(mail.inReplyTo)],
    // Without a Message-ID (rare, and against RFC 5322) the bytes identify the mail: the same mail posted again
    // is still stored once.
    emailMessageId:
      messageIds(mail.messageId)[0] ?? `<${createHash('sha256').update(raw).digest('hex')}@inbound.invalid>`,
    attachment: first
      ? {
          name: storable(first.filename ?? 'attachment-1'),
          mimeType: first.contentType || 'application/octet-stream',
          size: first.size,
        }
      : null,
  };
}
