import type { Handlers } from '../../http/handler.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { eventMessages } from './messages.ts';
import * as q from './queries.ts';
import { EVENT_TYPES, type EventType, serializeEvent } from './serialize.ts';

const notFound = () => new ApiProblem('not_found', eventMessages.message('event.not_found'));

const isEventType = (value: string): value is EventType => EVENT_TYPES.some((type) => type === value);

/**
 * `filter[type]`: the route has checked its syntax; an unknown type is a 422 (the contract), so a typo is not
 * mistaken for "no events". A known type the key may not read just yields nothing.
 */
function typesOf(list: string): EventType[] {
  const names = [...new Set(list.split(','))];
  const unknown = names.filter((name) => !isEventType(name));
  if (unknown.length > 0) {
    const detail = eventMessages.message('event.unknown_types', {
      unknown: unknown.join(', '),
      known: EVENT_TYPES.join(', '),
    });
    throw invalidFields([{ pointer: null, parameter: 'filter[type]', code: 'invalid_enum', detail }]);
  }
  return names.filter(isEventType);
}

export const handlers = {
  listEvents: async (c) => {
    const query = c.req.valid('query');
    const { scopes } = c.get('auth');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const filterType = query['filter[type]'];
    const filters = {
      types: filterType === undefined ? undefined : typesOf(filterType),
      createdSince: query['filter[created_since]'],
    };
    const { data, meta } = await q.listEvents(c.get('tenant'), [...scopes], page, filters);
    const context = { serviceUrl: c.get('deps').config.publicUrl };
    return c.json({ data: data.map((row) => serializeEvent(row, context)), meta }, 200);
  },

  getEvent: async (c) => {
    const { event } = c.req.valid('param');
    const { scopes } = c.get('auth');
    const row = await q.readEvent(c.get('tenant'), event);
    if (!row) throw notFound();
    // The contract answers an event of data the key may not read with 403 naming the scope (not 404).
    if (!scopes.has(row.scope)) {
      throw new ApiProblem('insufficient_scope', eventMessages.message('event.scope_needed', { scope: row.scope }), {
        required_scope: row.scope,
      });
    }
    return c.json({ data: serializeEvent(row, { serviceUrl: c.get('deps').config.publicUrl }) }, 200);
  },
} satisfies Partial<Handlers>;
