// Every GET of one record reads the record with what it shows beside its row (a task's links and checklist, an
// invoice's payments, a work order's photos, an order's lines and notes, a customer's contact) in one statement
// as the tenant (recordReader): one round trip, no transaction. Counted by the statements the service's
// pools send, as list-round-trips.test.ts does for the lists. The record stays confined to the company by
// row-level security, whatever the statement's where-clause says; the where-clause still names the company, for
// a distributed plan (docs/scaling.md).
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { type Tenant, tenantOf } from '../../src/db/tenant.ts';
import { readAppointment } from '../../src/resources/appointments/queries.ts';
import { readCompany } from '../../src/resources/company/queries.ts';
import { readConversation } from '../../src/resources/conversations/queries.ts';
import { readEvent } from '../../src/resources/events/queries.ts';
import { readInvoice } from '../../src/resources/invoices/queries.ts';
import { readOrder } from '../../src/resources/orders/queries.ts';
import { readTask } from '../../src/resources/tasks/queries.ts';
import { readEndpoint } from '../../src/resources/webhook-endpoints/queries.ts';
import { readWorkOrder } from '../../src/resources/work-orders/queries.ts';
import { appointmentOf } from '../features/appointments/fixtures.ts';
import { conversationOf, customerRow } from '../features/conversations/fixtures.ts';
import { orderOf } from '../features/orders/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { statementsDuring } from '../harness/statements.ts';

let api: TestApi;

/** The record of each GET, by its path parameter. */
type Records = Record<
  'task' | 'invoice' | 'work_order' | 'appointment' | 'endpoint' | 'conversation' | 'order' | 'event',
  string
>;
type Company = { companyId: string; key: string; customer: string; records: Records };
let a: Company;
let b: Company;

async function created(operationId: OperationId, key: string, opts: Parameters<TestApi['call']>[1] = {}) {
  const answer = await api.call(operationId, { key, ...opts });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data.id as string;
}

/** A company with one record of each kind, each with something shown beside its row. */
async function companyWithRecords(): Promise<Company> {
  const { companyId, key } = await api.tenant();
  const customer = await customerRow(api, companyId, { name: 'Anna de Boer', phone: '+31612345678' });
  const task = await created('createTask', key, {
    body: { title: 'Offerte opstellen', links: [{ object: 'customer', id: customer }] },
  });
  await api.sql`insert into task_checklist_items (company_id, id, task_id, text, is_done, position)
    values (${companyId}, ${randomUUID()}, ${task}, 'Dakfoto', false, 0)`;
  const invoice = await created('createInvoice', key, {
    body: {
      customer_id: customer,
      title: 'Vervanging cv-ketel',
      items: [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }],
    },
  });
  await api.call('sendInvoice', { key, params: { invoice } });
  await created('createInvoicePayment', key, {
    params: { invoice },
    body: { amount: 10.1, payment_method: 'ideal' },
  });
  const work_order = await created('createWorkOrder', key, { body: { customer_id: customer, status: 'planned' } });
  const photo = new FormData();
  const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();
  photo.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dak.png');
  photo.set('caption', 'Dakgoot');
  await created('createWorkOrderPhoto', key, { params: { work_order }, rawBody: photo });
  const appointment = (await appointmentOf(api, key, { customer_id: customer })).id;
  const endpoint = await created('createWebhookEndpoint', key, {
    body: { url: 'http://127.0.0.1:9/hooks', events: ['customer.created'] },
  });
  const conversation = (await conversationOf(api, companyId, { customerId: customer })).id;
  const order = await orderOf(api, companyId);
  await created('createOrderNote', key, { params: { order }, body: { content: 'Gebeld' } });
  const [{ id: event }] = await api.sql`select id from events where company_id = ${companyId}
    and type = 'invoice.created'`;
  return {
    companyId,
    key,
    customer,
    records: { task, invoice, work_order, appointment, endpoint, conversation, order, event },
  };
}

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  a = await companyWithRecords();
  b = await companyWithRecords();
});

const GETS = [
  { get: 'getTask', param: 'task', table: 'tasks' },
  { get: 'getInvoice', param: 'invoice', table: 'invoices' },
  { get: 'getWorkOrder', param: 'work_order', table: 'work_orders' },
  { get: 'getAppointment', param: 'appointment', table: 'appointments' },
  { get: 'getWebhookEndpoint', param: 'endpoint', table: 'webhook_endpoints' },
  { get: 'getConversation', param: 'conversation', table: 'conversations' },
  { get: 'getOrder', param: 'order', table: 'orders' },
  { get: 'getEvent', param: 'event', table: 'events' },
] as const satisfies { get: OperationId; param: keyof Records; table: string }[];

/** One request, after one that warmed the key cache (its lookup is not the read's); the statements it sent. */
async function sentBy(operationId: OperationId, params: Record<string, string>) {
  expect((await api.call(operationId, { key: a.key, params })).status).toBe(200);
  let status = 0;
  const sent = await statementsDuring(api.deps, async () => {
    status = (await api.call(operationId, { key: a.key, params })).status;
  });
  expect(status).toBe(200);
  return sent;
}

describe.each(GETS)('$get', ({ get, param, table }) => {
  it('reads the record in one statement as the tenant: one round trip, no transaction', async () => {
    const sent = await sentBy(get, { [param]: a.records[param] });
    expect(sent.map((s) => s.pool)).toEqual(['tenant']);
    expect(sent[0]?.text).toMatch(/set_config\('app\.company_id'/);
  });

  it('names the company in its own condition (not only the tenant setting): a distributed plan routes it to one shard', async () => {
    // docs/scaling.md: with company_id as the distribution column, a statement reaches one node only when its
    // where-clause pins the record's company_id to a value; row-level security alone would confine it but send it
    // to every node.
    const [read] = await sentBy(get, { [param]: a.records[param] });
    const inner = read?.text.slice(read.text.indexOf('cross join lateral')) ?? '';
    expect(inner).toMatch(new RegExp(`"${table}"\\."company_id" = \\$\\d+`));
  });

  it('answers 404 for another company’s record', async () => {
    const other = await api.call(get, { key: a.key, params: { [param]: b.records[param] } });
    expect(other.status).toBe(404);
    const theirs = await api.call(get, { key: b.key, params: { [param]: b.records[param] } });
    expect(theirs.status).toBe(200);
  });
});

describe('getCompany', () => {
  it('reads the company in one statement as the tenant', async () => {
    const sent = await sentBy('getCompany', {});
    expect(sent.map((s) => s.pool)).toEqual(['tenant']);
  });
});

describe('what a record shows beside its row, read in the same statement', () => {
  const got = async (operationId: OperationId, param: keyof Records) =>
    (await api.call(operationId, { key: a.key, params: { [param]: a.records[param] } })).body.data;

  it('a task’s links and open checklist, an invoice’s exact payment', async () => {
    const task = await got('getTask', 'task');
    expect(task.links).toEqual([{ object: 'customer', id: a.customer }]);
    expect(task.has_open_actions).toBe(true);
    const invoice = await got('getInvoice', 'invoice');
    expect(invoice.payments).toMatchObject([{ amount: '10.10', payment_method: 'ideal' }]);
    expect(invoice.amount_paid).toBe('10.10');
  });

  it('a work order’s photo with its file, an order’s lines and note', async () => {
    const workOrder = await got('getWorkOrder', 'work_order');
    expect(workOrder.photos).toHaveLength(1);
    expect(workOrder.photos[0]).toMatchObject({ caption: 'Dakgoot', download_url: expect.any(String) });
    // The photo's file (a joined table's row, which the PDF shows) comes back as drizzle reads it.
    const read = await readWorkOrder(tenantOf(api.deps, a.companyId), a.records.work_order);
    expect(read?.photos[0]?.file).toMatchObject({ name: 'dak.png', mimeType: 'image/png', storage: 'postgres' });
    expect(read?.photos[0]?.file.size).toBeGreaterThan(0);
    expect(read?.photos[0]?.file.createdAt).toBeInstanceOf(Date);
    const order = await got('getOrder', 'order');
    expect(order.items.map((item: { name: string }) => item.name)).toEqual([
      'Espressobonen Huisblend 1 kg',
      'Melkopschuimkan RVS 600 ml',
    ]);
    expect(order.items[0]).toMatchObject({ quantity: '2.00', unit_price: '22.90', is_taxable: true });
    expect(order.notes).toMatchObject([{ content: 'Gebeld' }]);
  });

  it('a conversation’s and an appointment’s customer contact', async () => {
    const conversation = await got('getConversation', 'conversation');
    expect(conversation.customer).toEqual({ name: 'Anna de Boer', email: expect.any(String), phone: '+31612345678' });
    const appointment = await got('getAppointment', 'appointment');
    expect(appointment.contact).toMatchObject({ name: 'Anna de Boer', phone: '+31612345678' });
  });
});

describe('row-level security, not the where-clause, confines the one-statement read', () => {
  const reads = (tenant: Tenant, records: Records) => [
    readCompany(tenant),
    readTask(tenant, records.task),
    readInvoice(tenant, records.invoice),
    readWorkOrder(tenant, records.work_order),
    readAppointment(tenant, records.appointment),
    readEndpoint(tenant, records.endpoint),
    readConversation(tenant, records.conversation),
    readOrder(tenant, records.order),
    readEvent(tenant, records.event),
  ];

  it('a record asked for company A on a session set to company B reads nothing', async () => {
    // The statement's conditions name A; the tenant setting its read runs under is B's.
    const asB = tenantOf(api.deps, b.companyId);
    const crossed: Tenant = {
      companyId: a.companyId,
      transaction: (work) => asB.transaction(work),
      read: (table, statement) => asB.read(table, statement),
      readRows: (statement) => asB.readRows(statement),
    };
    const found = await Promise.all(reads(crossed, a.records));
    expect(found.filter((record) => record !== undefined)).toEqual([]);
    // The same records for A itself are there.
    const own = await Promise.all(reads(tenantOf(api.deps, a.companyId), a.records));
    for (const record of own) expect(record).toBeDefined();
  });
});
