// The demo's inbox: conversations on each channel (web chat, WhatsApp, email) in Dutch and English, in every
// status, written through the inbox's own write path (counters, statuses and events as a real exchange leaves
// them), dated back to when the demo pretends they happened.
import { sql } from 'drizzle-orm';
import type { users } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { recordEvent } from '../events/record.ts';
import { newId } from '../ids.ts';
import * as q from '../resources/conversations/queries.ts';
import type { ConversationRow, MessageRow } from '../resources/conversations/serialize.ts';
import { addMessage, recordConversationEvent, startConversation } from '../resources/conversations/writes.ts';
import { insertCustomer } from '../resources/customers/queries.ts';
import { type CustomerRow, serializeCustomer } from '../resources/customers/serialize.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

type Line = { from: 'customer' | 'sanne' | 'ahmed' | 'api'; body: string; afterMinutes: number };
type DemoConversation = {
  channel: ConversationRow['channel'];
  /** A demo customer by name, or a new lead (a web visitor known only by name). */
  customer: string | { lead: string };
  daysAgo: number;
  subject?: string;
  pageUrl?: string;
  priority?: ConversationRow['priority'];
  assignee?: 'sanne' | 'ahmed';
  lines: Line[];
  /** What the team did last: closed it, or snoozed it until the customer's next message. */
  end?: 'closed' | 'snoozed';
};

const CONVERSATIONS: DemoConversation[] = [
  {
    channel: 'web',
    customer: 'Anouk Smit',
    daysAgo: 1,
    pageUrl: 'https://www.vandijkinstallatie.example/cv-ketel-onderhoud',
    assignee: 'sanne',
    lines: [
      {
        from: 'customer',
        body: 'Hoi! Mijn cv-ketel is aan zijn jaarlijkse onderhoudsbeurt toe. Hebben jullie volgende week nog ruimte?',
        afterMinutes: 0,
      },
      {
        from: 'sanne',
        body: 'Hoi Anouk, dat kan zeker. Past donderdag tussen 8:00 en 12:00? De monteur belt een halfuur van tevoren.',
        afterMinutes: 6,
      },
    ],
  },
  {
    channel: 'web',
    customer: { lead: 'Oliver Bennett' },
    daysAgo: 0,
    pageUrl: 'https://www.vandijkinstallatie.example/en/heat-pumps',
    lines: [
      {
        from: 'customer',
        body: 'Hi, we just moved to Rotterdam and are thinking about a hybrid heat pump. Do you do home visits to give advice, and do you speak English?',
        afterMinutes: 0,
      },
    ],
  },
  {
    channel: 'whatsapp',
    customer: 'Fatima Bouzid',
    daysAgo: 2,
    priority: 'high',
    assignee: 'ahmed',
    lines: [
      {
        from: 'customer',
        body: 'Goedemorgen, de druk van mijn ketel zakt steeds naar 0,8 bar. Ik heb al twee keer bijgevuld. Wat kan ik doen?',
        afterMinutes: 0,
      },
      {
        from: 'ahmed',
        body: 'Goedemorgen Fatima, vervelend! Zie je ergens water bij de radiatoren of onder de ketel? Stuur gerust een foto van de drukmeter.',
        afterMinutes: 14,
      },
      {
        from: 'customer',
        body: 'Onder de ketel is het een beetje nat bij het overstortventiel. Kan er vandaag iemand langskomen?',
        afterMinutes: 31,
      },
    ],
  },
  {
    channel: 'whatsapp',
    customer: 'Priya Ramdin',
    daysAgo: 9,
    assignee: 'sanne',
    lines: [
      {
        from: 'customer',
        body: 'Hello, the thermostat in the living room shows an error E9 since this morning. Is that something serious?',
        afterMinutes: 0,
      },
      {
        from: 'sanne',
        body: 'Hi Priya, E9 means the thermostat lost its connection to the boiler. Could you replace the batteries and let us know if the error disappears?',
        afterMinutes: 20,
      },
      {
        from: 'customer',
        body: 'New batteries did the trick, everything works again. Thanks a lot!',
        afterMinutes: 95,
      },
      { from: 'sanne', body: 'Great to hear! Have a warm weekend.', afterMinutes: 101 },
    ],
    end: 'closed',
  },
  {
    channel: 'email',
    customer: 'Jan de Vries',
    daysAgo: 6,
    subject: 'Offerte badkamerrenovatie',
    assignee: 'sanne',
    lines: [
      {
        from: 'customer',
        body: 'Beste heer/mevrouw,\n\nWij willen onze badkamer laten renoveren: nieuwe inloopdouche, wastafelmeubel en vloerverwarming. Kunnen jullie een offerte maken?\n\nMet vriendelijke groet,\nJan de Vries',
        afterMinutes: 0,
      },
      {
        from: 'sanne',
        body: 'Beste Jan,\n\nDank voor uw aanvraag. Om een goede offerte te maken komen we graag eerst kijken. Schikt dinsdag 10:00?\n\nMet vriendelijke groet,\nSanne de Vries\nInstallatiebedrijf Van Dijk',
        afterMinutes: 180,
      },
      {
        from: 'customer',
        body: 'Dinsdag 10:00 is prima. Tot dan!\n\nJan',
        afterMinutes: 260,
      },
      {
        from: 'sanne',
        body: 'Genoteerd, tot dinsdag. Na het bezoek ontvangt u de offerte binnen drie werkdagen.',
        afterMinutes: 275,
      },
    ],
    end: 'snoozed',
  },
  {
    channel: 'email',
    customer: 'Thomas van den Berg',
    daysAgo: 3,
    subject: 'Invoice question',
    lines: [
      {
        from: 'customer',
        body: 'Hello,\n\nI received your invoice for the boiler repair, but the hourly rate seems higher than in the quote. Could you explain the difference?\n\nKind regards,\nThomas van den Berg',
        afterMinutes: 0,
      },
      {
        from: 'api',
        body: 'Dear Thomas,\n\nThank you for your message. The quote covered one hour of work; the repair took an extra 45 minutes because a valve had to be replaced. We have attached the work order with the details.\n\nKind regards,\nInstallatiebedrijf Van Dijk',
        afterMinutes: 240,
      },
      {
        from: 'customer',
        body: 'Thanks for clarifying. Could you send me the work order as a PDF as well? It was not attached.',
        afterMinutes: 400,
      },
    ],
  },
];

type Author = typeof users.$inferSelect;

/** WhatsApp names a customer by the digits of their number in international form. */
const whatsappId = (phone: string | null) => (phone ?? '').replace(/\D/g, '').replace(/^0/, '31');

export async function addDemoConversations(
  tx: Tx,
  companyId: string,
  now: Date,
  context: { customers: CustomerRow[]; user: (key: 'sanne' | 'ahmed') => Author },
): Promise<void> {
  for (const [i, demo] of CONVERSATIONS.entries()) {
    // From the first line to the last, and the closing 5 minutes after it: none of it may come after `now`.
    const spanMs = ((demo.lines.at(-1)?.afterMinutes ?? 0) + (demo.end ? 5 : 0)) * MINUTE_MS;
    const started = new Date(now.getTime() - demo.daysAgo * DAY_MS - spanMs);
    // Seconds that differ per conversation move it forward, into the future for one of today: a minute back.
    started.setUTCSeconds(7 * i, 0);
    while (started.getTime() + spanMs > now.getTime()) started.setTime(started.getTime() - MINUTE_MS);
    const customer = await demoCustomer(tx, companyId, demo.customer, context.customers, started);
    const contactAddress =
      demo.channel === 'whatsapp' ? whatsappId(customer.phone) : demo.channel === 'email' ? customer.email : null;
    let conversation = await startConversation(tx, companyId, {
      customerId: customer.id,
      channel: demo.channel,
      subject: demo.subject ?? null,
      pageUrl: demo.pageUrl ?? null,
      priority: demo.priority ?? 'normal',
      assignedUserId: demo.assignee ? context.user(demo.assignee).id : null,
      contactAddress,
      createdAt: started,
    });
    let last: MessageRow | undefined;
    for (const [n, line] of demo.lines.entries()) {
      const createdAt = new Date(started.getTime() + line.afterMinutes * MINUTE_MS);
      const { from } = line;
      const incoming = from === 'customer';
      const reply = n > 0 && demo.subject ? `Re: ${demo.subject}` : (demo.subject ?? null);
      const added = await addMessage(tx, conversation, {
        sender: incoming ? 'customer' : from === 'api' ? 'api' : 'user',
        userId: from === 'customer' || from === 'api' ? null : context.user(from).id,
        body: line.body,
        createdAt,
        ...(demo.channel === 'whatsapp'
          ? { whatsappMessageId: `wamid.DEMO${i}${n}${newId().slice(-12)}`, whatsappStatus: incoming ? null : 'read' }
          : {}),
        ...(demo.channel === 'email'
          ? { emailSubject: reply, emailMessageId: `<demo-${newId()}@vandijkinstallatie.example>` }
          : {}),
      });
      conversation = added.conversation;
      last = added.message;
    }
    if (demo.end && last) {
      const closedAt = new Date(last.createdAt.getTime() + 5 * MINUTE_MS);
      conversation = await q.updateConversation(tx, conversation, {
        status: demo.end,
        closedAt: demo.end === 'closed' ? closedAt : null,
        ...(demo.end === 'closed' ? { aiAgentActive: false } : {}),
      });
      if (demo.end === 'closed') await recordConversationEvent(tx, conversation, 'conversation.closed');
    }
  }
  // The inbox's events are dated like the exchange they record (the timeline and the event list read right).
  await tx.execute(sql`
    update events set created_at = coalesce(data->'object'->>'closed_at', data->'object'->>'created_at')::timestamptz
    where company_id = ${companyId}
      and type in ('conversation.created', 'message.created', 'conversation.closed')
      and created_at > ${now.toISOString()}::timestamptz - interval '1 minute'`);
}

/** A demo customer by name, or a new lead for a web visitor who gave only a name (no address: `.invalid`). */
async function demoCustomer(
  tx: Tx,
  companyId: string,
  who: DemoConversation['customer'],
  customers: CustomerRow[],
  at: Date,
): Promise<CustomerRow> {
  if (typeof who === 'string') {
    const found = customers.find((c) => c.name === who);
    if (!found) throw new Error(`demo conversation of unknown customer ${who}`);
    return found;
  }
  const row = await insertCustomer(tx, companyId, {
    name: who.lead,
    email: `visitor-${newId()}@widget.invalid`,
    status: 'lead',
    createdAt: at,
    updatedAt: at,
  });
  const id = await recordEvent(tx, companyId, {
    type: 'customer.created',
    scope: 'customers.read',
    customerId: row.id,
    object: serializeCustomer(row),
  });
  await tx.execute(sql`update events set created_at = ${at.toISOString()}::timestamptz
    where company_id = ${companyId} and id = ${id}`);
  return row;
}
