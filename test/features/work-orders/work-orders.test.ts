// Work orders through the API: creation with lines (minutes, totals by the invoices' engine) and a checklist, the
// references to the same customer, every move of the state table allowed or refused, the required checklist
// points before completing, editing and deleting by status, the review request a completion asks for, task links,
// and the tenant boundary.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_FROM, type WorkOrderStatus } from '../../../src/resources/work-orders/rules.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let customerId: string;

const STATUSES: WorkOrderStatus[] = ['draft', 'planned', 'in_progress', 'completed', 'invoiced', 'cancelled'];

async function newCustomer(k = key, email: string | null = `jan-${randomBytes(4).toString('hex')}@bakkerijjansen.nl`) {
  const customer = await api.call('createCustomer', { key: k, body: { type: 'business', name: 'Jan Jansen', email } });
  expect(customer.status).toBe(201);
  return customer.body.data.id as string;
}

const create = (body: Record<string, unknown>, k = key) =>
  api.call('createWorkOrder', { key: k, body: { customer_id: customerId, ...body } });

const move = (id: string, body: Record<string, unknown>) =>
  api.call('changeWorkOrderStatus', { key, params: { work_order: id }, body });

/** A work order brought to `status` along allowed moves (the database is not touched behind the API's back). */
async function workOrderIn(status: WorkOrderStatus, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await create({ status: status === 'draft' ? 'draft' : 'planned', ...extra });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  const path: Partial<Record<WorkOrderStatus, WorkOrderStatus[]>> = {
    in_progress: ['in_progress'],
    completed: ['in_progress', 'completed'],
    invoiced: ['in_progress', 'completed', 'invoiced'],
    cancelled: ['cancelled'],
  };
  for (const step of path[status] ?? []) expect((await move(id, { status: step })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  customerId = await newCustomer();
});

describe('work orders', () => {
  it('creates a planned work order with lines, minutes, totals, a checklist and a number', async () => {
    const created = await create({
      status: 'planned',
      title: 'Onderhoud cv-ketel',
      type: 'Onderhoud',
      location: 'Prinsengracht 263, 1016 GV Amsterdam',
      scheduled_at: '2026-03-16T09:00:00+01:00',
      language: 'nl',
      items: [
        {
          type: 'labor',
          name: 'Arbeid monteur',
          quantity: 1.5,
          unit: 'uur',
          unit_price: 65,
          tax_rate: 21,
          minutes: 90,
        },
        { type: 'product', name: 'Filter cv-ketel', sku: 'FLT-2290', quantity: 1, unit_price: 24.95, tax_rate: 21 },
        { type: 'material', name: 'Afdichtring', quantity: 3, unit_price: 1.1, tax_rate: 9, discount_percentage: 10 },
      ],
      checklist: [{ label: 'Rookgasafvoer gecontroleerd', required: true }, { label: 'Koffie gehad' }],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBeTruthy();
    const wo = created.body.data;
    expect(wo).toMatchObject({
      object: 'work_order',
      status: 'planned',
      customer_id: customerId,
      customer: { name: 'Jan Jansen', type: 'business' },
      scheduled_at: '2026-03-16T08:00:00.000Z',
      started_at: null,
      signature: { is_signed: false, signed_by_name: null, signed_at: null },
      photos: [],
      currency: 'EUR',
    });
    expect(wo.number).toMatch(/^W\d{4}-\d{4}$/);
    // 97.50 + 24.95 + 2.97 (3 × 1.10 − 10 %) = 125.42; tax 21 % over 122.45 = 25.71, 9 % over 2.97 = 0.27.
    expect(wo.items.map((i: { line_total: string }) => i.line_total)).toEqual(['97.50', '24.95', '2.97']);
    expect(wo.items.map((i: { minutes: number | null }) => i.minutes)).toEqual([90, null, null]);
    expect(wo).toMatchObject({ subtotal: '125.42', tax_amount: '25.98', total: '151.40' });
    expect(wo.checklist).toMatchObject([
      { object: 'work_order_checklist_item', label: 'Rookgasafvoer gecontroleerd', required: true, checked: false },
      { label: 'Koffie gehad', required: false, checked: false, note: null },
    ]);
    const second = await create({});
    const [a, b] = [wo.number, second.body.data.number].map((n: string) => Number(n.slice(-4)));
    expect(b).toBe(a + 1);
    expect(second.body.data.status).toBe('draft');
  });

  it('refuses a text line with an amount and a line discount above its gross amount (the invoices’ rules)', async () => {
    const refused = await create({
      items: [
        { type: 'text', name: 'Toelichting', unit_price: 5 },
        { name: 'Arbeid', quantity: 1, unit_price: 10, discount_amount: 20 },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '/items/0/unit_price',
      '/items/1/discount_amount',
    ]);
  });

  it('creates only as draft or planned', async () => {
    const refused = await create({ status: 'in_progress' });
    expect(refused.status).toBe(422);
  });

  it('checks references against the customer: another customer’s appointment or quote, an unknown user', async () => {
    const other = await newCustomer();
    const quote = await api.call('createQuote', {
      key,
      body: { customer_id: other, title: 'Offerte', items: [{ name: 'X', unit_price: 1 }] },
    });
    const appointment = await api.call('createAppointment', {
      key,
      body: { customer_id: other, title: 'Bezoek', starts_at: '2026-05-04T09:00:00+02:00' },
    });
    expect(appointment.status).toBe(201);
    const refused = await create({
      quote_id: quote.body.data.id,
      appointment_id: appointment.body.data.id,
      assigned_user_id: '999999',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]).sort()).toEqual([
      ['/appointment_id', 'invalid_reference'],
      ['/assigned_user_id', 'invalid_reference'],
      ['/quote_id', 'invalid_reference'],
    ]);
    // The appointment of the same customer gives its start; the quote its deal.
    const fine = await api.call('createWorkOrder', {
      key,
      body: { customer_id: other, appointment_id: appointment.body.data.id, quote_id: quote.body.data.id },
    });
    expect(fine.status).toBe(201);
    expect(fine.body.data.scheduled_at).toBe('2026-05-04T07:00:00.000Z');
    const listed = await api.call('listWorkOrders', {
      key,
      query: { 'filter[appointment_id]': appointment.body.data.id },
    });
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([fine.body.data.id]);
  });

  describe('the state table: every move from every status', () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const allowed = ALLOWED_FROM[to].includes(from);
        it(`${from} → ${to}: ${allowed ? '200' : '409'}`, async () => {
          const id = await workOrderIn(from);
          const before = await api.call('getWorkOrder', { key, params: { work_order: id } });
          const moved = await move(id, { status: to });
          if (allowed) {
            expect(moved.status).toBe(200);
            expect(moved.body.data.status).toBe(to);
          } else {
            expect(moved.status).toBe(409);
            expect(moved.body.code).toBe('conflict');
            const after = await api.call('getWorkOrder', { key, params: { work_order: id } });
            expect(after.body.data).toEqual(before.body.data);
          }
        });
      }
    }
  });

  it('sets started_at once, completed_at on completing and clears it on reopening', async () => {
    const id = await workOrderIn('planned');
    const completed = await move(id, { status: 'completed' });
    expect(completed.body.data.started_at).not.toBeNull();
    expect(completed.body.data.completed_at).not.toBeNull();
    const started = completed.body.data.started_at;
    const reopened = await move(id, { status: 'in_progress' });
    expect(reopened.body.data).toMatchObject({ status: 'in_progress', completed_at: null, started_at: started });
  });

  it('does not complete while a required point is unchecked, and names it', async () => {
    const id = await workOrderIn('in_progress', {
      checklist: [
        { label: 'Rookgasafvoer gecontroleerd', required: true, checked: true },
        { label: 'Waterdruk gecontroleerd', required: true },
        { label: 'Optioneel', required: false },
      ],
    });
    const refused = await move(id, { status: 'completed' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('Waterdruk gecontroleerd');
    expect(refused.body.detail).not.toContain('Rookgasafvoer');
    expect(refused.body.detail).not.toContain('Optioneel');
    const checked = await api.call('updateWorkOrder', {
      key,
      params: { work_order: id },
      body: {
        checklist: [
          { label: 'Rookgasafvoer gecontroleerd', required: true, checked: true },
          { label: 'Waterdruk gecontroleerd', required: true, checked: true, note: '1,8 bar' },
          { label: 'Optioneel', required: false },
        ],
      },
    });
    expect(checked.status).toBe(200);
    expect((await move(id, { status: 'completed' })).status).toBe(200);
  });

  it('refuses status fields with another status, links the invoice of the same customer only', async () => {
    const id = await workOrderIn('completed');
    expect((await move(id, { status: 'in_progress', invoice_id: null })).status).toBe(422);
    expect((await move(id, { status: 'in_progress', send_review_request: true })).status).toBe(422);
    const otherInvoice = await api.call('createInvoice', {
      key,
      body: { customer_id: await newCustomer(), title: 'F', items: [{ name: 'X', unit_price: 1 }] },
    });
    const wrong = await move(id, { status: 'invoiced', invoice_id: otherInvoice.body.data.id });
    expect(wrong.status).toBe(422);
    const invoice = await api.call('createInvoice', {
      key,
      body: { customer_id: customerId, title: 'F', items: [{ name: 'X', unit_price: 1 }] },
    });
    const invoiced = await move(id, { status: 'invoiced', invoice_id: invoice.body.data.id });
    expect(invoiced.status).toBe(200);
    expect(invoiced.body.data.invoice_id).toBe(invoice.body.data.id);
  });

  it('edits while draft, planned or in progress; 409 once completed, invoiced or cancelled; honours If-Match', async () => {
    for (const status of STATUSES) {
      const id = await workOrderIn(status);
      const updated = await api.call('updateWorkOrder', {
        key,
        params: { work_order: id },
        body: {
          work_performed: 'Ketel gereinigd',
          items: [{ name: 'Arbeid', quantity: 2, unit_price: 50, minutes: 120 }],
        },
      });
      if (['draft', 'planned', 'in_progress'].includes(status)) {
        expect(updated.status).toBe(200);
        expect(updated.body.data).toMatchObject({
          work_performed: 'Ketel gereinigd',
          subtotal: '100.00',
          total: '121.00',
        });
        expect(updated.body.data.items[0].minutes).toBe(120);
      } else expect(updated.status).toBe(409);
    }
    const id = await workOrderIn('draft');
    const stale = await api.call('updateWorkOrder', {
      key,
      params: { work_order: id },
      headers: { 'If-Match': '"999"' },
      body: { title: 'x' },
    });
    expect(stale.status).toBe(412);
  });

  it('deletes only a draft or cancelled work order', async () => {
    for (const status of STATUSES) {
      const id = await workOrderIn(status);
      const deleted = await api.call('deleteWorkOrder', { key, params: { work_order: id } });
      if (status === 'draft' || status === 'cancelled') {
        expect(deleted.status).toBe(200);
        expect(deleted.body).toEqual({ data: { object: 'work_order', id, deleted: true } });
        expect((await api.call('getWorkOrder', { key, params: { work_order: id } })).status).toBe(404);
      } else expect(deleted.status).toBe(409);
    }
  });

  it('lists with filters and both sorts', async () => {
    const mine = await newCustomer();
    const ids: string[] = [];
    for (const status of ['draft', 'planned', 'planned'] as const) {
      const created = await api.call('createWorkOrder', { key, body: { customer_id: mine, status } });
      ids.push(created.body.data.id);
    }
    const planned = await api.call('listWorkOrders', {
      key,
      query: { 'filter[customer_id]': mine, 'filter[status]': 'planned' },
    });
    expect(planned.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    const oldest = await api.call('listWorkOrders', {
      key,
      query: { 'filter[customer_id]': mine, sort: 'created_at' },
    });
    expect(oldest.body.data.map((w: { id: string }) => w.id)).toEqual(ids);
    await api.call('updateWorkOrder', { key, params: { work_order: ids[0] }, body: { title: 'bijgewerkt' } });
    const updated = await api.call('listWorkOrders', {
      key,
      query: { 'filter[customer_id]': mine, sort: '-updated_at' },
    });
    expect(updated.body.data[0].id).toBe(ids[0]);
    const paged = await api.call('listWorkOrders', { key, query: { 'filter[customer_id]': mine, limit: 2 } });
    expect(paged.body.data).toHaveLength(2);
    const next = await api.call('listWorkOrders', {
      key,
      query: { 'filter[customer_id]': mine, limit: 2, cursor: paged.body.meta.next_cursor },
    });
    expect(next.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
  });

  it('completing with send_review_request creates a review request for the customer; without it none', async () => {
    const quiet = await workOrderIn('in_progress');
    expect((await move(quiet, { status: 'completed' })).status).toBe(200);
    expect(await api.sql`select 1 from review_requests where customer_id = ${customerId}`).toHaveLength(0);
    const asked = await workOrderIn('in_progress');
    expect((await move(asked, { status: 'completed', send_review_request: true })).status).toBe(200);
    const requests = await api.sql`select trigger, status from review_requests where customer_id = ${customerId}`;
    expect(requests).toEqual([{ trigger: 'work_order', status: 'sent' }]);
    // A second one is refused by the review request rules (an open request): the work order still completes.
    const again = await workOrderIn('in_progress');
    expect((await move(again, { status: 'completed', send_review_request: true })).status).toBe(200);
    expect(await api.sql`select 1 from review_requests where customer_id = ${customerId}`).toHaveLength(1);
  });

  it('a task links to a work order, and not to an unknown one', async () => {
    const id = await workOrderIn('planned');
    const task = await api.call('createTask', {
      key,
      body: { title: 'Onderdelen bestellen', links: [{ object: 'work_order', id }] },
    });
    expect(task.status).toBe(201);
    const unknown = await api.call('createTask', {
      key,
      body: { title: 'x', links: [{ object: 'work_order', id: '0195a1b0-2c3d-7e4f-8a5b-6c7d8e9f0a1b' }] },
    });
    expect(unknown.status).toBe(422);
  });

  it('records work_order.created and work_order.status_changed, readable with work_orders.read only', async () => {
    const t = await api.tenant();
    const created = await api.call('createWorkOrder', {
      key: t.key,
      body: { customer_id: await newCustomer(t.key), status: 'planned' },
    });
    const id = created.body.data.id;
    await api.call('changeWorkOrderStatus', {
      key: t.key,
      params: { work_order: id },
      body: { status: 'in_progress' },
    });
    // A refused move records nothing.
    await api.call('changeWorkOrderStatus', { key: t.key, params: { work_order: id }, body: { status: 'invoiced' } });
    const reader = await api.key(t.companyId, { scopes: ['events.read', 'work_orders.read'] });
    const events = await api.call('listEvents', { key: reader.key, query: { sort: 'created_at' } });
    expect(events.status).toBe(200);
    const ours = events.body.data.filter((e: { type: string }) => e.type.startsWith('work_order.'));
    expect(
      ours.map((e: { type: string; data: { object: { id: string; status: string } } }) => [
        e.type,
        e.data.object.status,
      ]),
    ).toEqual([
      ['work_order.created', 'planned'],
      ['work_order.status_changed', 'in_progress'],
    ]);
    expect(ours.every((e: { data: { object: { id: string } } }) => e.data.object.id === id)).toBe(true);
    const blind = await api.key(t.companyId, { scopes: ['events.read', 'customers.read'] });
    const hidden = await api.call('listEvents', { key: blind.key });
    expect(hidden.body.data.filter((e: { type: string }) => e.type.startsWith('work_order.'))).toEqual([]);
  });

  it('keeps tenants apart', async () => {
    const id = await workOrderIn('planned');
    const other = await api.tenant();
    expect((await api.call('getWorkOrder', { key: other.key, params: { work_order: id } })).status).toBe(404);
    expect(
      (
        await api.call('changeWorkOrderStatus', {
          key: other.key,
          params: { work_order: id },
          body: { status: 'draft' },
        })
      ).status,
    ).toBe(404);
    expect((await api.call('deleteWorkOrder', { key: other.key, params: { work_order: id } })).status).toBe(404);
    const list = await api.call('listWorkOrders', { key: other.key });
    expect(list.body.data).toEqual([]);
    // Another tenant's customer is unknown here.
    const refused = await api.call('createWorkOrder', { key: other.key, body: { customer_id: customerId } });
    expect(refused.status).toBe(422);
  });
});
