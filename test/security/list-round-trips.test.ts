// The lists of conversations, appointments, tasks and invoices read a page with what it shows beside each row
// (contacts, links and checklist, payments) in one statement as the tenant (readPage): one round trip, no
// transaction. Counted here by the statements the service's pools send (postgres.js `debug` hook). The page
// and its related reads stay confined to the company by row-level security, whatever the statement's
// where-clause says.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { type Tenant, tenantOf } from '../../src/db/tenant.ts';
import { listConversations } from '../../src/resources/conversations/queries.ts';
import { listInvoices } from '../../src/resources/invoices/queries.ts';
import { listTasks } from '../../src/resources/tasks/queries.ts';
import { appointmentOf } from '../features/appointments/fixtures.ts';
import { conversationOf, customerRow } from '../features/conversations/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { statementsDuring } from '../harness/statements.ts';

let api: TestApi;
type Company = { companyId: string; key: string; customer: string };
let a: Company;
let b: Company;

/** A company with one conversation, appointment, task (a link, an open checklist point) and paid-in-part invoice. */
async function companyWithLists(): Promise<Company> {
  const { companyId, key } = await api.tenant();
  const customer = await customerRow(api, companyId, { name: 'Anna de Boer', phone: '+31612345678' });
  await conversationOf(api, companyId, { customerId: customer });
  await appointmentOf(api, key, { customer_id: customer, starts_at: '2026-03-16T09:00:00+01:00' });
  const task = await api.call('createTask', {
    key,
    body: { title: 'Offerte opstellen', links: [{ object: 'customer', id: customer }] },
  });
  expect(task.status, JSON.stringify(task.body)).toBe(201);
  await api.sql`insert into task_checklist_items (company_id, id, task_id, text, is_done, position)
    values (${companyId}, ${randomUUID()}, ${task.body.data.id}, 'Dakfoto', false, 0)`;
  const invoice = await api.call('createInvoice', {
    key,
    body: {
      customer_id: customer,
      title: 'Vervanging cv-ketel',
      items: [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }],
    },
  });
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
  await api.call('sendInvoice', { key, params: { invoice: invoice.body.data.id } });
  const paid = await api.call('createInvoicePayment', {
    key,
    params: { invoice: invoice.body.data.id },
    body: { amount: 10.1, payment_method: 'ideal' },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return { companyId, key, customer };
}

beforeAll(async () => {
  api = await setupApi();
  a = await companyWithLists();
  b = await companyWithLists();
});

const LISTS = [
  { list: 'listConversations', get: 'getConversation', param: 'conversation' },
  { list: 'listAppointments', get: 'getAppointment', param: 'appointment' },
  { list: 'listTasks', get: 'getTask', param: 'task' },
  { list: 'listInvoices', get: 'getInvoice', param: 'invoice' },
] as const satisfies { list: OperationId; get: OperationId; param: string }[];

describe.each(LISTS)('$list', ({ list, get, param }) => {
  it('reads a page in one statement as the tenant: one round trip, no transaction', async () => {
    // The first request warms the key cache (its lookup is not the list's).
    expect((await api.call(list, { key: a.key })).status).toBe(200);
    let status = 0;
    const sent = await statementsDuring(api.deps, async () => {
      status = (await api.call(list, { key: a.key })).status;
    });
    expect(status).toBe(200);
    expect(sent.map((s) => s.pool)).toEqual(['tenant']);
    expect(sent[0]?.text).toMatch(/set_config\('app\.company_id'/);
  });

  it('shows each row as the single read does (related values included)', async () => {
    const page = await api.call(list, { key: a.key });
    expect(page.body.data).toHaveLength(1);
    const [row] = page.body.data;
    const one = await api.call(get, { key: a.key, params: { [param]: row.id } });
    expect(one.status).toBe(200);
    expect(row).toEqual(one.body.data);
  });

  it('shows only the company’s own rows', async () => {
    const ofA = (await api.call(list, { key: a.key })).body.data.map((r: { id: string }) => r.id);
    const ofB = (await api.call(list, { key: b.key })).body.data.map((r: { id: string }) => r.id);
    expect(ofA).toHaveLength(1);
    expect(ofB).toHaveLength(1);
    expect(ofA).not.toEqual(ofB);
  });
});

describe('the related values as the lists show them', () => {
  it('a conversation’s contact, a task’s link and open checklist, an invoice’s exact payment', async () => {
    const [conversation] = (await api.call('listConversations', { key: a.key })).body.data;
    expect(conversation.customer).toEqual({ name: 'Anna de Boer', email: expect.any(String), phone: '+31612345678' });
    const [appointment] = (await api.call('listAppointments', { key: a.key })).body.data;
    expect(appointment.contact).toMatchObject({ name: 'Anna de Boer', phone: '+31612345678' });
    const [task] = (await api.call('listTasks', { key: a.key })).body.data;
    expect(task.links).toEqual([{ object: 'customer', id: a.customer }]);
    expect(task.has_open_actions).toBe(true);
    const [invoice] = (await api.call('listInvoices', { key: a.key })).body.data;
    expect(invoice.payments).toMatchObject([{ amount: '10.10', payment_method: 'ideal' }]);
    expect(invoice.amount_paid).toBe('10.10');
  });
});

describe('row-level security, not the where-clause, confines the one-statement page', () => {
  it('a page asked for company A on a session set to company B reads nothing', async () => {
    // The statement's conditions name A; the tenant setting its read runs under is B's.
    const asB = tenantOf(api.deps, b.companyId);
    const crossed: Tenant = {
      companyId: a.companyId,
      transaction: (work) => asB.transaction(work),
      read: (table, statement) => asB.read(table, statement),
      readRows: (statement) => asB.readRows(statement),
    };
    const page = { limit: 25, sort: 'created_at' };
    expect((await listConversations(crossed, { ...page, sort: 'last_message_at' }, {})).data).toEqual([]);
    expect((await listTasks(crossed, page, {})).data).toEqual([]);
    expect((await listInvoices(crossed, page, {})).data).toEqual([]);
    // The same pages for A itself are there.
    const own = tenantOf(api.deps, a.companyId);
    expect((await listInvoices(own, page, {})).data).toHaveLength(1);
  });
});
