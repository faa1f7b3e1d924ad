import { and, eq } from 'drizzle-orm';
import { companies, users } from '../../db/schema/index.ts';
import type { Handlers } from '../../http/handler.ts';
import { keyset, pageOf } from '../../http/pagination.ts';
import { ApiProblem } from '../../http/problems.ts';
import { companyMessages } from './messages.ts';
import { serializeCompany, serializeUser } from './serialize.ts';

export const handlers = {
  getCompany: async (c) => {
    const { companyId } = c.get('tenant');
    const [row] = await c
      .get('tenant')
      .transaction((tx) => tx.select().from(companies).where(eq(companies.id, companyId)));
    if (!row) throw new ApiProblem('not_found', companyMessages.message('company.not_found'));
    return c.json({ data: serializeCompany(row) }, 200);
  },

  listUsers: async (c) => {
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: 'id' };
    const plan = keyset(page, { id: users.id }, users.id);
    const rows = await c.get('tenant').transaction((tx) =>
      tx
        .select()
        .from(users)
        .where(
          and(
            eq(users.companyId, companyId),
            query['filter[status]'] ? eq(users.status, query['filter[status]']) : undefined,
            plan.where,
          ),
        )
        .orderBy(...plan.orderBy)
        .limit(plan.take),
    );
    const { data, meta } = pageOf(rows, page, plan, (u) => [u.id, String(u.id)]);
    return c.json({ data: data.map(serializeUser), meta }, 200);
  },
} satisfies Partial<Handlers>;
