import type { Handlers } from '../../http/handler.ts';
import { ApiProblem } from '../../http/problems.ts';
import { companyMessages } from './messages.ts';
import * as q from './queries.ts';
import { reminderScheduleProblem } from './reminder-schedule.ts';
import { serializeCompany, serializeReminderSchedule, serializeUser } from './serialize.ts';

export const handlers = {
  getCompany: async (c) => {
    const row = await q.readCompany(c.get('tenant'));
    if (!row) throw new ApiProblem('not_found', companyMessages.message('company.not_found'));
    return c.json({ data: serializeCompany(row) }, 200);
  },

  listUsers: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: 'id' };
    const { data, meta } = await q.listUsers(c.get('tenant'), page, { status: query['filter[status]'] });
    return c.json({ data: data.map(serializeUser), meta }, 200);
  },

  getInvoiceReminderSchedule: async (c) => {
    const row = await q.readCompany(c.get('tenant'));
    if (!row) throw new ApiProblem('not_found', companyMessages.message('company.not_found'));
    return c.json({ data: serializeReminderSchedule(row.invoiceReminderSteps) }, 200);
  },

  setInvoiceReminderSchedule: async (c) => {
    const { steps } = c.req.valid('json');
    const problem = reminderScheduleProblem(steps);
    if (problem) throw problem;
    const tenant = c.get('tenant');
    const stored = await tenant.transaction((tx) => q.setReminderSteps(tx, tenant.companyId, steps));
    return c.json({ data: serializeReminderSchedule(stored) }, 200);
  },
} satisfies Partial<Handlers>;
