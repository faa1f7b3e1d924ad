import { deals } from '../../db/schema/index.ts';
import { answerBatch } from '../../http/batch.ts';
import { etagOf } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { metadataLimit } from '../../http/metadata.ts';
import { customFieldsCondition } from '../custom-fields/filter.ts';
import { confirmValues, newValues, valuesPatch } from '../custom-fields/values.ts';
import { dealUpsert } from './batch.ts';
import { dealUpdateColumns, insertNewDeal } from './inputs.ts';
import * as q from './queries.ts';
import { serializeDeal } from './serialize.ts';
import { dealActionHandlers } from './state-actions.ts';
import {
  dealNotFound,
  externalRefConflict,
  keepingOneOpenDeal,
  onLockedDeal,
  patchDeal,
  recordDealChange,
  saveDeal,
} from './writes.ts';

export const handlers = {
  listDeals: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await q.listDeals(c.get('tenant'), page, {
      status: query['filter[status]'],
      stageId: query['filter[stage_id]'],
      customerId: query['filter[customer_id]'],
      assignedUserId: query['filter[assigned_user_id]'],
      externalRef: query['filter[external_ref]'],
      metadata: query.metadata,
      customFields: await customFieldsCondition(c, 'deals', deals, query['filter[custom_fields]']),
      archived: query['filter[archived]'],
      updatedSince: query['filter[updated_since]'],
    });
    return c.json({ data: data.map(serializeDeal), meta }, 200);
  },

  getDeal: async (c) => {
    const { deal } = c.req.valid('param');
    const row = await q.readDeal(c.get('tenant'), deal);
    if (!row) throw dealNotFound();
    return c.json({ data: serializeDeal(row) }, 200, { ETag: etagOf(row.version) });
  },

  createDeal: async (c) => {
    const sent = c.req.valid('json');
    const body = { ...sent, customFields: await newValues(c, 'deals', sent.custom_fields) };
    const { companyId } = c.get('tenant');
    const created = await runCreation(c, async (tx) => {
      await confirmValues(tx, c, 'deals', sent.custom_fields, true);
      const row = await insertNewDeal(tx, companyId, body, (tx, columns) =>
        keepingOneOpenDeal(tx, companyId, body.customer_id, (savepoint) => q.insertDeal(savepoint, companyId, columns)),
      ).catch(externalRefConflict);
      await recordDealChange(tx, row, 'deal.created');
      return { status: 201 as const, body: { data: serializeDeal(row) }, headers: { ETag: etagOf(row.version) } };
    });
    return c.json(created.body, created.status, created.headers);
  },

  updateDeal: async (c) => {
    const { deal } = c.req.valid('param');
    const sent = c.req.valid('json');
    const body = { ...sent, customFieldsPatch: await valuesPatch(c, 'deals', sent.custom_fields) };
    // Back to the quotes' value needs the deal's quotes, read after its lock: decided on the locked deal.
    const row =
      body.value !== null
        ? await patchDeal(c, deal, body)
        : await onLockedDeal(c, deal, async (tx, current, companyId) => {
            await confirmValues(tx, c, 'deals', sent.custom_fields, false);
            const changes = await dealUpdateColumns(tx, companyId, current, body);
            if (Object.keys(changes).length === 0) return current;
            const updated = await saveDeal(tx, current, changes).catch(externalRefConflict).catch(metadataLimit);
            await recordDealChange(tx, updated, 'deal.updated');
            return updated;
          });
    return c.json({ data: serializeDeal(row) }, 200, { ETag: etagOf(row.version) });
  },

  upsertDeals: async (c) => {
    const { atomic } = c.req.valid('query');
    const done = await answerBatch(c, dealUpsert, { object: 'deal_batch', serialize: serializeDeal, atomic });
    return c.json(done.body, done.status, done.headers);
  },

  ...dealActionHandlers,
} satisfies Partial<Handlers>;
