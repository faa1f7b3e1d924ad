// Notes on customers and on deals: the same four operations (parent-notes.ts), each parent finding itself.
import type { Tx } from '../../db/tenant.ts';
import type { Handlers } from '../../http/handler.ts';
import { ApiProblem } from '../../http/problems.ts';
import { customerMessages } from '../customers/messages.ts';
import { findCustomer } from '../customers/queries.ts';
import { findDeal } from '../deals/queries.ts';
import { dealNotFound } from '../deals/writes.ts';
import type { NoteHome } from './note-writes.ts';
import { notesUnder } from './parent-notes.ts';

/** A customer's notes: their events are seen with customers.read, on the customer's own timeline. */
const customerNotes = notesUnder(
  'customer',
  async (tx: Tx, companyId: string, customerId: string): Promise<NoteHome> => {
    const customer = await findCustomer(tx, companyId, customerId);
    if (!customer) throw new ApiProblem('not_found', customerMessages.message('customer.not_found'));
    return { parent: { type: 'customer', id: customerId }, customerId };
  },
);

/**
 * A deal's notes (archived deals included): their events are seen with deals.read and show on the timeline of
 * the deal's customer, like the deal's own events. The deal itself does not change and emits nothing; its
 * customer's last activity does (addNote).
 */
const dealNotes = notesUnder('deal', async (tx: Tx, companyId: string, dealId: string): Promise<NoteHome> => {
  const deal = await findDeal(tx, companyId, dealId);
  if (!deal) throw dealNotFound();
  return { parent: { type: 'deal', id: dealId }, customerId: deal.customerId };
});

// The two parents' handlers look alike but stay apart: each is typed by its own operation (its path parameter,
// body and answers), which one generated set of handlers could not be.
export const handlers = {
  listCustomerNotes: async (c) =>
    c.json(await customerNotes.list(c, c.req.valid('param').customer, c.req.valid('query')), 200),
  createCustomerNote: async (c) => {
    const created = await customerNotes.create(c, c.req.valid('param').customer, c.req.valid('json'));
    return c.json(created.body, created.status, created.headers);
  },
  updateCustomerNote: async (c) => {
    const { customer, note } = c.req.valid('param');
    const updated = await customerNotes.update(c, customer, note, c.req.valid('json'));
    return c.json(updated.body, 200, updated.headers);
  },
  deleteCustomerNote: async (c) => {
    const { customer, note } = c.req.valid('param');
    return c.json(await customerNotes.remove(c, customer, note), 200);
  },

  listDealNotes: async (c) => c.json(await dealNotes.list(c, c.req.valid('param').deal, c.req.valid('query')), 200),
  createDealNote: async (c) => {
    const created = await dealNotes.create(c, c.req.valid('param').deal, c.req.valid('json'));
    return c.json(created.body, created.status, created.headers);
  },
  updateDealNote: async (c) => {
    const { deal, note } = c.req.valid('param');
    const updated = await dealNotes.update(c, deal, note, c.req.valid('json'));
    return c.json(updated.body, 200, updated.headers);
  },
  deleteDealNote: async (c) => {
    const { deal, note } = c.req.valid('param');
    return c.json(await dealNotes.remove(c, deal, note), 200);
  },
} satisfies Partial<Handlers>;
