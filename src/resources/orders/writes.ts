// The steps every order change shares: the locked order (404, If-Match) inside an idempotent request (a retry
// never emails the customer twice), the customer's email through the outbox and the notes that record it.
import type { Context } from 'hono';
import type { Tx } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion } from '../../http/etag.ts';
import { runCreation } from '../../http/idempotency.ts';
import { ApiProblem } from '../../http/problems.ts';
import type { Language } from '../../languages.ts';
import { queueEmail } from '../../mail/outbox.ts';
import { orderMessages } from './messages.ts';
import * as q from './queries.ts';
import { type OrderRow, serializeOrder } from './serialize.ts';

export const orderNotFound = () => new ApiProblem('not_found', orderMessages.message('order.not_found'));

/** Who the company is, for the texts it sends and writes. */
export type Shop = { name: string; language: Language };

export function shopOf(c: Context<AppEnv>): Shop {
  const { company } = c.get('auth').key;
  const language = (['nl', 'en', 'de', 'fr'] as const).find((l) => l === company.language) ?? 'en';
  return { name: company.name, language };
}

/**
 * Runs `work` on the locked order after the If-Match check, as one idempotent request, and answers with the
 * order as it is afterwards (lines and notes included) and its ETag.
 */
export async function onLockedOrder(
  c: Context<AppEnv>,
  id: string,
  work: (tx: Tx, current: OrderRow) => Promise<void>,
) {
  const expected = expectedVersion(c);
  const { companyId } = c.get('tenant');
  return runCreation(c, async (tx) => {
    const current = await q.lockOrder(tx, companyId, id);
    checkIfMatch(current, expected, orderNotFound);
    await work(tx, current);
    const after = await q.findOrder(tx, companyId, id);
    if (!after) throw orderNotFound();
    return {
      status: 200 as const,
      body: { data: serializeOrder(after) },
      headers: { ETag: etagOf(after.order.version) },
    };
  });
}

/** Emails the order's buyer; the email leaves when the change commits (the outbox). */
export async function emailBuyer(tx: Tx, order: OrderRow, kind: string, email: { subject: string; text: string }) {
  await queueEmail(tx, order.companyId, { to: [order.buyerEmail], subject: email.subject, text: email.text, kind });
}
