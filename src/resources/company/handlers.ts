import type { OpenAPIHono } from '@hono/zod-openapi';
import { and, eq } from 'drizzle-orm';
import { getCompany, listUsers } from '../../../generated/routes.ts';
import { companies, users } from '../../db/schema/index.ts';
import { withTenant } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { message } from '../../http/messages.ts';
import { keyset, pageOf } from '../../http/pagination.ts';
import { ApiProblem } from '../../http/problems.ts';
import { serializeCompany, serializeUser } from './serialize.ts';

export const companyOperations = ['getCompany', 'listUsers'] as const;

export function registerCompany(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCompany, async (c) => {
    const { companyId } = c.get('auth');
    const [row] = await withTenant(c.get('deps').db, companyId, (tx) =>
      tx.select().from(companies).where(eq(companies.id, companyId)),
    );
    if (!row) throw new ApiProblem('not_found', message('company.not_found'));
    return c.json({ data: serializeCompany(row) }, 200);
  });

  app.openapi(listUsers, async (c) => {
    const query = c.req.valid('query');
    const { companyId } = c.get('auth');
    const page = { limit: query.limit, cursor: query.cursor, sort: 'id' };
    const plan = keyset(page, { id: users.id }, users.id);
    const rows = await withTenant(c.get('deps').db, companyId, (tx) =>
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
  });
}
