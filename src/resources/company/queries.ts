// SQL of the company and its users; every read takes the tenant first.
import { eq } from 'drizzle-orm';
import { RECORD_KEY, recordReader } from '../../db/record-reads.ts';
import { companies, users } from '../../db/schema/index.ts';
import type { Tenant } from '../../db/tenant.ts';
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
