// A customer's message arriving over a channel (the WhatsApp webhook, inbound email): the customer is found by phone or email, or made a lead; the message continues
// its conversation (the email thread it answers, the number's WhatsApp conversation) or starts one; then addMessage.
// Everything in the caller's transaction, serialized per contact, and stored once per channel message id.
import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { conversationMessages, conversations, customers } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import { emailIdOf } from '../../mail/outbox.ts';
import * as customerQueries from '../customers/queries.ts';
import { type CustomerRow, serializeCustomer } from '../customers/serialize.ts';
import * as q from './queries.ts';
import type { ConversationRow, MessageRow } from './serialize.ts';
import { addMessage, startConversation } from './writes.ts';

export type IncomingContact =
  /** `waId`: the WhatsApp id, the number in international form, digits only. */
  | { channel: 'whatsapp'; waId: string; name: string | null }
  | { channel: 'email'; address: string; name: string | null };

export type IncomingMessage = {
  contact: IncomingContact;
  body: string;
  /** Email: the subject (a new conversation takes it) and the Message-IDs it answers (In-Reply-To, References). */
  subject?: string | null;
  threadIds?: string[];
  /** The channel's id of the message: it is stored once per id. */
  whatsappMessageId?: string;
  emailMessageId?: string;
  attachment?: { name: string; mimeType: string; size: number } | null;
};

export type Received = { message: MessageRow; conversation: ConversationRow; duplicate: boolean };

/** The address a conversation reaches the contact at (conversations.contact_address). */
const addressOf = (contact: IncomingContact) =>
  contact.channel === 'whatsapp' ? contact.waId : contact.address.toLowerCase();

/** Stores the customer's message in its conversation (see the file's comment); a repeated one is returned as it is. */
export async function receiveCustomerMessage(tx: Tx, companyId: string, incoming: IncomingMessage): Promise<Received> {
  const { contact } = incoming;
  // Two deliveries from one contact at once (a webhook and its retry, two mails) would both make the lead or
  // the conversation: they queue here instead, until the first commits.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`incoming:${companyId}:${contact.channel}:${addressOf(contact)}`}, 0))`,
  );
  const earlier = await storedBefore(tx, companyId, incoming);
  if (earlier) {
    const conversation = await q.findConversation(tx, companyId, earlier.conversationId);
    if (conversation) return { message: earlier, conversation, duplicate: true };
  }
  const conversation = await conversationFor(tx, companyId, incoming);
  const { message, conversation: updated } = await addMessage(tx, conversation, {
    sender: 'customer',
    body: incoming.body,
    emailSubject: contact.channel === 'email' ? (incoming.subject ?? null) : null,
    whatsappMessageId: incoming.whatsappMessageId ?? null,
    emailMessageId: incoming.emailMessageId ?? null,
    attachmentName: incoming.attachment?.name ?? null,
    attachmentMimeType: incoming.attachment?.mimeType ?? null,
    attachmentSize: incoming.attachment?.size ?? null,
  });
  return { message, conversation: updated, duplicate: false };
}

async function storedBefore(tx: Tx, companyId: string, incoming: IncomingMessage): Promise<MessageRow | undefined> {
  const { contact } = incoming;
  if (incoming.whatsappMessageId) {
    const [row] = await tx
      .select()
      .from(conversationMessages)
      .where(
        and(
          eq(conversationMessages.companyId, companyId),
          eq(conversationMessages.whatsappMessageId, incoming.whatsappMessageId),
        ),
      )
      .limit(1);
    return row;
  }
  if (!incoming.emailMessageId || contact.channel !== 'email') return undefined;
  // A Message-ID is chosen by whoever sends the mail: it is the same mail again only when it came from the
  // same contact, so reusing another person's Message-ID cannot make their mail be dropped as a duplicate.
  const [row] = await tx
    .select({ message: conversationMessages })
    .from(conversationMessages)
    // Joined on company_id in place, not through a shared constant: the distribution guard reads each join itself.
    .innerJoin(
      conversations,
      and(
        eq(conversations.companyId, conversationMessages.companyId),
        eq(conversations.id, conversationMessages.conversationId),
      ),
    )
    .innerJoin(
      customers,
      and(eq(customers.companyId, conversations.companyId), eq(customers.id, conversations.customerId)),
    )
    .where(
      and(
        eq(conversationMessages.companyId, companyId),
        eq(conversationMessages.emailMessageId, incoming.emailMessageId),
        eq(conversationMessages.sender, 'customer'),
        senderIsContact(contact.address),
      ),
    )
    .limit(1);
  return row?.message;
}

/**
 * Whether an email's sender is the contact of the conversation joined in the query (with its customer): the
 * address the conversation reaches, or the customer's own. Anyone can name any Message-ID in In-Reply-To.
 */
const senderIsContact = (address: string) =>
  or(eq(conversations.contactAddress, address.toLowerCase()), eq(customers.emailLower, address.toLowerCase()));

/** The conversation the message continues, locked, or a new one (of the customer, or of a new lead). */
async function conversationFor(tx: Tx, companyId: string, incoming: IncomingMessage): Promise<ConversationRow> {
  const { contact } = incoming;
  const continued =
    contact.channel === 'email'
      ? await threadConversation(tx, companyId, contact.address, incoming.threadIds ?? [])
      : await latestConversation(tx, companyId, eq(conversations.contactAddress, contact.waId));
  if (continued) return continued;
  const customer = await customerOf(tx, companyId, contact);
  if (contact.channel === 'whatsapp') {
    // A conversation started from the customer's record before a number was known continues too.
    const ofCustomer = await latestConversation(tx, companyId, eq(conversations.customerId, customer.id));
    if (ofCustomer) return ofCustomer;
  }
  return startConversation(tx, companyId, {
    customerId: customer.id,
    channel: contact.channel,
    subject: contact.channel === 'email' ? (incoming.subject ?? null) : null,
    contactAddress: addressOf(contact),
  });
}

/**
 * The conversation of the email thread a reply answers: a Message-ID it names is one of a conversation's
 * emails (an incoming one as received, or one we sent, by its outbox id: emailIdOf), and the sender is that
 * conversation's contact. A reply from anyone else (a forwarded thread, a forged In-Reply-To) starts or
 * continues the sender's own conversation instead of joining another person's as if it were theirs.
 */
async function threadConversation(tx: Tx, companyId: string, sender: string, threadIds: string[]) {
  const ids = [...new Set(threadIds.map((id) => id.trim()).filter((id) => id.length > 0))].slice(-50);
  if (ids.length === 0) return undefined;
  const outboxIds = ids.map(emailIdOf).filter((id): id is string => id !== null);
  const [row] = await tx
    .select({ conversationId: conversationMessages.conversationId })
    .from(conversationMessages)
    .innerJoin(
      conversations,
      and(
        eq(conversations.companyId, conversationMessages.companyId),
        eq(conversations.id, conversationMessages.conversationId),
      ),
    )
    .innerJoin(
      customers,
      and(eq(customers.companyId, conversations.companyId), eq(customers.id, conversations.customerId)),
    )
    .where(
      and(
        eq(conversationMessages.companyId, companyId),
        or(
          inArray(conversationMessages.emailMessageId, ids),
          outboxIds.length > 0 ? inArray(conversationMessages.outboundEmailId, outboxIds) : undefined,
        ),
        senderIsContact(sender),
      ),
    )
    .orderBy(desc(conversationMessages.createdAt))
    .limit(1);
  return row ? q.lockConversation(tx, companyId, row.conversationId) : undefined;
}

/** The latest WhatsApp conversation matching, whatever its status (a closed one reopens), locked. */
async function latestConversation(tx: Tx, companyId: string, match: SQL) {
  const [row] = await tx
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.companyId, companyId), eq(conversations.channel, 'whatsapp'), match))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(1);
  return row ? q.lockConversation(tx, companyId, row.id) : undefined;
}

/** Where a contact known only by WhatsApp number is kept: an address that can never receive mail (RFC 2606). */
export const whatsappPlaceholderEmail = (waId: string) => `whatsapp-${waId}@contact.invalid`;

/**
 * The customer with this email address, or whose phone is this WhatsApp number: the whole international number
 * (phone_e164, src/domain/phone.ts), never the end of one; otherwise a new lead.
 */
async function customerOf(tx: Tx, companyId: string, contact: IncomingContact): Promise<CustomerRow> {
  const email = contact.channel === 'email' ? contact.address : whatsappPlaceholderEmail(contact.waId);
  const byPhone = contact.channel === 'whatsapp' ? eq(customers.phoneE164, `+${contact.waId}`) : undefined;
  const [found] = await tx
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, companyId), or(sql`${customers.emailLower} = lower(${email})`, byPhone)))
    // The exact address first, then the oldest customer with the number.
    .orderBy(sql`${customers.emailLower} = lower(${email}) desc`, customers.createdAt)
    .limit(1);
  if (found) return found;
  const row = await customerQueries.insertCustomer(tx, companyId, {
    email,
    name: contact.name,
    phone: contact.channel === 'whatsapp' ? `+${contact.waId}` : null,
    status: 'lead',
  });
  if (!row) throw new Error('lead not stored');
  await recordEvent(tx, companyId, {
    type: 'customer.created',
    scope: 'customers.read',
    customerId: row.id,
    object: serializeCustomer(row),
  });
  return row;
}
