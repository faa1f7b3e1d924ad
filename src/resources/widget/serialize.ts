import { iso } from '../../http/serialize.ts';
import type { ConversationRow, MessageRow } from '../conversations/serialize.ts';

/** Who wrote a message, as the visitor sees it: every message of the company's side is the team's. */
const SENDER: Record<MessageRow['sender'], 'visitor' | 'team' | 'system'> = {
  customer: 'visitor',
  user: 'team',
  api: 'team',
  ai_agent: 'team',
  system: 'system',
};

export function serializeWidgetMessage(row: MessageRow) {
  return {
    object: 'widget_message' as const,
    id: row.id,
    sender: SENDER[row.sender],
    body: row.body,
    created_at: iso(row.createdAt),
  };
}

export const visitorStatus = (row: ConversationRow) =>
  (row.status === 'closed' ? 'closed' : 'open') as 'open' | 'closed';
