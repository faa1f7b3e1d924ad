// SQL of the company and its users; every read takes the tenant first.
import { eq, sql } from 'drizzle-orm';
import { RECORD_KEY, recordReader } from '../../db/record-reads.ts';
import { companies, users } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import type { ReminderStep } from '../../domain/reminder-schedule.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';

export type UserFilters = { status?: (typeof users.$inferSelect)['status'] };

const readCompanyRow = recordReader(companies, [eq(companies.id, RECORD_KEY.companyId)]);

/** The tenant's own company: one statement as the tenant in one round trip. */
export const readCompany = (tenant: Tenant) => readCompanyRow(tenant, tenant.companyId);

/** A page of the company's users: one statement as the tenant in one round trip. */
export const listUsers = (tenant: Tenant, page: PageRequest, filters: UserFilters) =>
  readPage(tenant, users, page, { sorts: { id: users.id }, id: users.id }, [
    eq(users.companyId, tenant.companyId),
    filters.status ? eq(users.status, filters.status) : undefined,
  ]);

/** Replaces the company's invoice reminder schedule (checked by the caller: reminderScheduleProblem); the new one. */
export async function setReminderSteps(tx: Tx, companyId: string, steps: ReminderStep[]): Promise<ReminderStep[]> {
  const [row] = await tx
    .update(companies)
    .set({ invoiceReminderSteps: steps, updatedAt: sql`app_now()` })
    .where(eq(companies.id, companyId))
    .returning({ steps: companies.invoiceReminderSteps });
  return row?.steps ?? [];
}

/** The company's invoice reminder schedule in force. */
export async function reminderSteps(tx: Tx, companyId: string): Promise<ReminderStep[]> {
  const [row] = await tx
    .select({ steps: companies.invoiceReminderSteps })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.steps ?? [];
}
