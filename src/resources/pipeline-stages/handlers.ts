import type { Handlers } from '../../http/handler.ts';
import * as q from './queries.ts';
import { serializeStage } from './serialize.ts';

export const handlers = {
  listPipelineStages: async (c) => {
    const query = c.req.valid('query');
    const { companyId, key } = c.get('auth');
    const language = c.get('language');
    // Always board order; the list has no sort parameter.
    const page = { limit: query.limit, cursor: query.cursor, sort: 'position' };
    const { data, meta } = await c.get('tenant').transaction((tx) => q.listStages(tx, companyId, page));
    return c.json({ data: data.map((row) => serializeStage(row, language, key.company.language)), meta }, 200, {
      'Content-Language': language,
    });
  },
} satisfies Partial<Handlers>;
