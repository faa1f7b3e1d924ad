// Fills customers.phone_e164 (drizzle/0035) for the rows written before the service kept it: run after the
// migrations, company by company as the tenant role (customers' row-level security is forced, so only a tenant
// transaction sees their rows), in batches. The service fills the column on every write since, so a later run finds
// only numbers that are not possible phone numbers, which stay null. The rule of the domain (src/domain/phone.ts) is
// the one exception to the layers here: a data migration must store what the service would.
import type postgres from 'postgres';
import { toE164 } from '../domain/phone.ts';

const BATCH = 1000;

/** How many customers got their phone in E.164. */
export async function backfillPhoneE164(sql: postgres.Sql): Promise<number> {
  let filled = 0;
  // A superuser (or a role exempt from row-level security) sees which companies have rows to fill; the owner
  // alone sees no customers outside a tenant transaction, so it visits every company.
  const [role] = await sql<{ sees: boolean }[]>`
    select rolsuper or rolbypassrls as sees from pg_roles where rolname = current_user`;
  const companies = role?.sees
    ? await sql<{ id: string; country: string }[]>`
        select id, country from companies c where exists (
          select 1 from customers u where u.company_id = c.id and u.phone_e164 is null and u.phone <> '')`
    : await sql<{ id: string; country: string }[]>`select id, country from companies`;
  for (const company of companies) {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const done = await sql.begin(async (tx) => {
        await tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${company.id}, true)`;
        const rows = await tx<{ id: string; phone: string }[]>`
          select id, phone from customers
          where company_id = ${company.id} and phone_e164 is null and phone <> '' and id > ${after}
          order by id limit ${BATCH}`;
        const found = rows
          .map((r) => ({ id: r.id, e164: toE164(r.phone, company.country) }))
          .filter((r): r is { id: string; e164: string } => r.e164 !== null);
        if (found.length > 0) {
          await tx`
            update customers set phone_e164 = v.e164
            from unnest(${found.map((r) => r.id)}::uuid[], ${found.map((r) => r.e164)}::text[]) as v(id, e164)
            where customers.company_id = ${company.id} and customers.id = v.id`;
          filled += found.length;
        }
        after = rows.at(-1)?.id ?? after;
        return rows.length < BATCH;
      });
      if (done) break;
    }
  }
  return filled;
}
