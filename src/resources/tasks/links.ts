// Which link targets exist in the company: one lookup per kind of record the API lets a task link to; a link to
// a record that does not exist is refused (422 invalid_reference).
import { and, eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { appointments, customers, deals, invoices, quotes, workOrders } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import type { LinkObject } from './serialize.ts';

type Lookup = (tx: Tx, companyId: string, ids: string[]) => Promise<Set<string>>;

/**
 * The ids among `ids` of `table`'s rows in the company, held FOR KEY SHARE until commit so that none is deleted
 * before the link to it is.
 */
const rowsOf =
  (table: PgTable, companyColumn: PgColumn, idColumn: PgColumn): Lookup =>
  async (tx, companyId, ids) => {
    const rows = await tx
      .select({ id: idColumn })
      .from(table)
      .where(and(eq(companyColumn, companyId), inArray(idColumn, ids)))
      .for('key share');
    return new Set(rows.map((r) => String(r.id)));
  };

export const LINK_LOOKUPS: { readonly [K in LinkObject]: Lookup } = {
  customer: rowsOf(customers, customers.companyId, customers.id),
  deal: rowsOf(deals, deals.companyId, deals.id),
  appointment: rowsOf(appointments, appointments.companyId, appointments.id),
  work_order: rowsOf(workOrders, workOrders.companyId, workOrders.id),
  quote: rowsOf(quotes, quotes.companyId, quotes.id),
  invoice: rowsOf(invoices, invoices.companyId, invoices.id),
};

/** The links among `links` whose record does not exist in the company: one lookup per kind, all sent together. */
export async function missingTargets(
  tx: Tx,
  companyId: string,
  links: readonly { object: LinkObject; id: string }[],
): Promise<Set<string>> {
  const kinds = [...new Set(links.map((l) => l.object))];
  const lookups = kinds.map((kind) => {
    const ids = [...new Set(links.filter((l) => l.object === kind).map((l) => l.id))];
    return LINK_LOOKUPS[kind](tx, companyId, ids).then((found) => ids.filter((id) => !found.has(id)));
  });
  const missing = new Set<string>();
  for (const [i, ids] of (await Promise.all(lookups)).entries()) for (const id of ids) missing.add(`${kinds[i]}:${id}`);
  return missing;
}
