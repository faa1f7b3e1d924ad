// The email channel. Until a real sender is configured, messages are recorded in outbound_emails (in the
// caller's transaction), where operators and tests can read them.
import { outboundEmails } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { prefixedId } from '../ids.ts';

export type Email = { to: string[]; subject: string; body: string; kind: string };

export async function sendEmail(tx: Tx, companyId: string, email: Email): Promise<void> {
  if (email.to.length === 0) return;
  await tx.insert(outboundEmails).values({ companyId, id: prefixedId('em'), ...email });
}
