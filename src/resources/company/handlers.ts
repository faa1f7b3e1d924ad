import { eq } from 'drizzle-orm';
import { companies, users } from '../../db/schema/index.ts';
import type { Handlers } from '../../http/handler.ts';
import { selectPage } from '../../http/pagination.ts';
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
    const { data, meta } = await c
      .get('tenant')
      .transaction((tx) =>
        selectPage(tx, users, page, { sorts: { id: users.id }, id: users.id }, [
          eq(users.companyId, companyId),
          query['filter[status]'] ? eq(users.status, query['filter[status]']) : undefined,
        ]),
      );
    return c.json({ data: data.map(serializeUser), meta }, 200);
  },
} satisfies Partial<Handlers>;
