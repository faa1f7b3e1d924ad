// Dates and date-times lie in the years 1 to 9999 in UTC, for every date and time field of every operation: PostgreSQL
// has no year 0 (a year-0 date once answered 500 with SQLSTATE 22008) and a year past 9999 would be written back
// against the contract's Timestamp. Outside the range the answer is 422 naming the field and the range.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;
let customerId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const customer = await api.call('createCustomer', { key, body: { email: 'kalender@example.nl', name: 'Kalender' } });
  customerId = customer.body.data.id;
});

const RANGE = /years 1 to 9999/;

describe('a body date outside the years 1 to 9999', () => {
  it.each(['0000-01-01', '0000-12-31'])('POST /tasks due_date %s answers 422 naming the field', async (date) => {
    const res = await api.call('createTask', { key, body: { title: 'Jaar nul', due_date: date } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject([
      { pointer: '/due_date', code: 'invalid_format', detail: expect.stringMatching(RANGE) },
    ]);
  });

  it('POST /invoices invoice_date 0000-01-01 answers 422', async () => {
    const res = await api.call('createInvoice', {
      key,
      body: { customer_id: customerId, title: 'Jaar nul', invoice_date: '0000-01-01' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject([{ pointer: '/invoice_date', code: 'invalid_format' }]);
  });

  it.each([
    '0000-01-01T00:00:00Z',
    // Year 1 as written, year 0 in UTC.
    '0001-01-01T00:30:00+01:00',
  ])('a payment paid_at %s answers 422 before anything else is judged', async (paidAt) => {
    const res = await api.call('createInvoicePayment', {
      key,
      params: { invoice: randomUUID() },
      body: { amount: 10, paid_at: paidAt },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject([
      { pointer: '/paid_at', code: 'invalid_format', detail: expect.stringMatching(RANGE) },
    ]);
  });

  it('an appointment starting in year 10000 in UTC answers 422', async () => {
    const res = await api.call('createAppointment', {
      key,
      body: { customer_id: customerId, starts_at: '9999-12-31T23:30:00-01:00' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject([{ pointer: '/starts_at', code: 'invalid_format' }]);
  });

  it('the first and last day of the range are taken', async () => {
    for (const due_date of ['0001-01-01', '9999-12-31']) {
      const res = await api.call('createTask', { key, body: { title: 'Grens', due_date } });
      expect(res.status).toBe(201);
      expect(res.body.data.due_date).toBe(due_date);
    }
  });
});

describe('a query date-time outside the range', () => {
  it.each([
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-14:00',
  ])('filter[updated_since]=%s answers 422 naming the parameter', async (since) => {
    const res = await api.call('listCustomers', { key, query: { 'filter[updated_since]': since } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject([{ parameter: 'filter[updated_since]', code: 'invalid_format' }]);
  });
});
