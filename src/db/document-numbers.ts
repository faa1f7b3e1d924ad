// The next number of a kind of document for a company, gapless and unique: the counter row of the company,
// kind and year is incremented in the creating transaction (not a sequence, which would leave gaps on every
// rollback), so concurrent creations wait for each other's commit and a rolled-back creation gives its number
// back. The year is the current year in the company's time zone.
import { sql } from 'drizzle-orm';
import { formatDocumentNumber, type NumberedKind } from '../domain/numbering.ts';
import type { Tx } from './tenant.ts';

export async function nextDocumentNumber(tx: Tx, companyId: string, kind: NumberedKind): Promise<string> {
  const [row] = await tx.execute<{ year: number; last_number: number }>(sql`
    insert into document_counters as c (company_id, kind, year, last_number)
    select ${companyId}, ${kind},
           extract(year from app_now() at time zone coalesce(
             (select time_zone from companies where id = ${companyId}), 'Europe/Amsterdam'))::int,
           1
    on conflict (company_id, kind, year) do update set last_number = c.last_number + 1
    returning year, last_number`);
  return formatDocumentNumber(kind, Number(row.year), Number(row.last_number));
}
