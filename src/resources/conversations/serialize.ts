import type { conversationMessages, conversations } from '../../db/schema/index.ts';
import { idString, iso, isoOrNull } from '../../http/serialize.ts';
import type { CustomerContact } from '../customers/queries.ts';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof conversationMessages.$inferSelect;

/**
 * A contact known only by WhatsApp number or chat session is stored as a lead with an address in the reserved
 * top-level domain `.invalid` (RFC 2606: it can never receive mail); the inbox shows no address for it.
 */
export const isPlaceholderEmail = (email: string): boolean => /\.invalid$/i.test(email);

export function serializeConversation(row: ConversationRow, contact: CustomerContact | undefined) {
  return {
    object: 'conversation' as const,
    id: row.id,
    status: row.status,
    channel: row.channel,
    priority: row.priority,
    subject: row.subject,
    summary: row.summary,
    page_url: row.pageUrl,
    // Typed by a chat visitor and never checked: marked so, and never taken for the customer's address.
    visitor_email: row.visitorEmail === null ? null : { address: row.visitorEmail, verified: false as const },
    customer_id: row.customerId,
    customer: {
      name: contact?.name ?? null,
      email: contact && !isPlaceholderEmail(contact.email) ? contact.email : null,
      phone: contact?.phone ?? null,
    },
    assigned_user_id: row.assignedUserId === null ? null : idString(row.assignedUserId),
    quote_id: row.quoteId,
    invoice_id: row.invoiceId,
    appointment_id: row.appointmentId,
    ai_agent_active: row.aiAgentActive,
    message_count: row.messageCount,
    last_message_at: isoOrNull(row.lastMessageAt),
    closed_at: isoOrNull(row.closedAt),
    created_at: iso(row.createdAt),
    metadata: row.metadata,
    updated_at: iso(row.updatedAt),
  };
}

export function serializeMessage(row: MessageRow) {
  return {
    object: 'message' as const,
    id: row.id,
    conversation_id: row.conversationId,
    sender: row.sender,
    user_id: row.userId === null ? null : idString(row.userId),
    body: row.body,
    email_subject: row.emailSubject,
    attachment:
      row.attachmentName === null
        ? null
        : {
            name: row.attachmentName,
            mime_type: row.attachmentMimeType ?? 'application/octet-stream',
            size: row.attachmentSize ?? 0,
          },
    whatsapp_status: row.whatsappStatus,
    created_at: iso(row.createdAt),
  };
}
