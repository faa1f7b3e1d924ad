// What inbox tests need besides the API: conversations and messages written through the inbox's own write path
// (as the inbound channels write them), and a customer to hold them.
import { randomUUID } from 'node:crypto';
import { withTenant } from '../../../src/db/tenant.ts';
import { toE164 } from '../../../src/domain/phone.ts';
import type { ConversationRow, MessageRow } from '../../../src/resources/conversations/serialize.ts';
import { addMessage, startConversation } from '../../../src/resources/conversations/writes.ts';
import type { TestApi } from '../../harness/api.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export async function customerRow(
  api: TestApi,
  companyId: string,
  fields: { name?: string; email?: string; phone?: string } = {},
): Promise<string> {
  const id = randomUUID();
  // The phone also in E.164, as the service stores it (src/domain/phone.ts).
  const [company] = await api.sql<{ country: string }[]>`select country from companies where id = ${companyId}`;
  const e164 = toE164(fields.phone, company?.country ?? 'NL');
  await api.sql`insert into customers (company_id, id, name, email, phone, phone_e164)
    values (${companyId}, ${id}, ${fields.name ?? 'Jan Jansen'}, ${fields.email ?? `${id}@example.nl`}, ${fields.phone ?? null}, ${e164})`;
  return id;
}

export type ConversationSeed = {
  channel?: ConversationRow['channel'];
  customerId?: string;
  subject?: string | null;
  contactAddress?: string | null;
  /** Messages written in order; `customer` ones are incoming. */
  messages?: { sender: MessageRow['sender']; body: string }[];
};

/** A conversation with its messages, written as the inbound channels write them (events included). */
export async function conversationOf(api: TestApi, companyId: string, seed: ConversationSeed = {}) {
  const customerId = seed.customerId ?? (await customerRow(api, companyId));
  return withTenant(api.db, companyId, async (tx) => {
    let row = await startConversation(tx, companyId, {
      customerId,
      channel: seed.channel ?? 'web',
      subject: seed.subject ?? null,
      contactAddress: seed.contactAddress ?? null,
    });
    for (const m of seed.messages ?? [
      { sender: 'customer' as const, body: 'Goedemorgen, kunnen jullie een offerte maken?' },
    ]) {
      ({ conversation: row } = await addMessage(tx, row, { sender: m.sender, body: m.body }));
    }
    return row;
  });
}

/** Moves the conversation's clock: its times as if it had happened `hours` ago (list order, windows). */
export async function ageConversation(api: TestApi, companyId: string, id: string, hours: number) {
  await api.sql`update conversations set
      last_message_at = last_message_at - make_interval(hours => ${hours}),
      last_customer_message_at = last_customer_message_at - make_interval(hours => ${hours}),
      created_at = created_at - make_interval(hours => ${hours})
    where company_id = ${companyId} and id = ${id}`;
}
