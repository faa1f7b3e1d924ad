// What task tests need besides the API: users (inserted as the web application would), customers and deals to
// link to, the company's boards and a few shortcuts over the API.
import { expect } from 'vitest';
import type { TestApi } from '../../harness/api.ts';

export async function userOf(
  api: TestApi,
  companyId: string,
  opts: { name?: string; email?: string; status?: 'active' | 'inactive' } = {},
) {
  const [row] = await api.sql<{ id: string }[]>`
    insert into users (company_id, name, email, status)
    values (${companyId}, ${opts.name ?? 'Sanne de Vries'}, ${opts.email ?? `${crypto.randomUUID()}@example.nl`},
            ${opts.status ?? 'active'})
    returning id`;
  return Number(row.id);
}

export async function customerOf(api: TestApi, key: string, name = 'Bakkerij Jansen'): Promise<string> {
  const res = await api.call('createCustomer', { key, body: { name, email: `${crypto.randomUUID()}@example.nl` } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

export async function dealOf(api: TestApi, key: string): Promise<string> {
  const customer_id = await customerOf(api, key);
  const res = await api.call('createDeal', { key, body: { customer_id } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

/** The company's boards (the default one made on this first read), by name, with their columns by category. */
export async function boardsOf(api: TestApi, key: string) {
  const res = await api.call<'listTaskBoards'>('listTaskBoards', { key });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The default board's default column of each category. */
export async function defaultColumns(api: TestApi, key: string) {
  const board = (await boardsOf(api, key)).find((b) => b.is_default);
  if (!board) throw new Error('no default board');
  const of = (category: string) => {
    const column = board.statuses.find((s) => s.category === category && s.is_default);
    if (!column) throw new Error(`no default ${category} column`);
    return column.id;
  };
  return {
    board: board.id,
    open: of('open'),
    inProgress: of('in_progress'),
    completed: of('completed'),
    cancelled: of('cancelled'),
  };
}

export async function taskOf(api: TestApi, key: string, body: Record<string, unknown> = {}) {
  const res = await api.call<'createTask'>('createTask', { key, body: { title: 'Offerte opstellen', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function commentsOf(api: TestApi, key: string, task: string) {
  const res = await api.call<'listTaskComments'>('listTaskComments', { key, params: { task } });
  expect(res.status).toBe(200);
  return res.body.data;
}

export const MISSING = '01900000-0000-7000-8000-000000000000';
