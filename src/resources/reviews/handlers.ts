import type { Context } from 'hono';
import type { Delivery } from '../../channels/index.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { etagOf } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { ApiProblem } from '../../http/problems.ts';
import { reviewMessages } from './messages.ts';
import { changeReview, hide, publish, removeReply, setReply } from './moderation.ts';
import { CACHE_CONTROL, contentTag, feedOf, notModified, widgetScript } from './published.ts';
import * as q from './queries.ts';
import { createReviewRequest } from './requests.ts';
import { serializeReview, serializeReviewRequest } from './serialize.ts';

export const handlers = {
  listReviews: async (c) => {
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction((tx) =>
      q.listReviews(tx, companyId, page, {
        status: query['filter[status]'],
        source: query['filter[source]'],
        rating: query['filter[rating]'],
        customerId: query['filter[customer_id]'],
        updatedSince: query['filter[updated_since]'],
      }),
    );
    return c.json({ data: data.map(serializeReview), meta }, 200);
  },

  getReview: async (c) => {
    const { review } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const row = await c.get('tenant').transaction((tx) => q.findReview(tx, companyId, review));
    if (!row) throw new ApiProblem('not_found', reviewMessages.message('review.not_found'));
    return c.json({ data: serializeReview(row) }, 200, { ETag: etagOf(row.version) });
  },

  replyToReview: async (c) => changeReview(c, c.req.valid('param').review, setReply(c.req.valid('json').reply)),

  deleteReviewReply: async (c) => changeReview(c, c.req.valid('param').review, removeReply),

  hideReview: async (c) => changeReview(c, c.req.valid('param').review, hide(c.req.valid('json').hidden_reason)),

  publishReview: async (c) => changeReview(c, c.req.valid('param').review, publish),

  listPublishedReviews: async (c) => {
    const { feed } = await feedOf(c, c.req.valid('param').widget_id, c.req.valid('query').limit);
    const tag = contentTag(JSON.stringify(feed));
    if (notModified(c, tag)) return c.body(null, 304, { ETag: tag });
    return c.json(feed, 200, { ETag: tag, 'Cache-Control': CACHE_CONTROL });
  },

  getReviewWidget: async (c) => {
    const query = c.req.valid('query');
    const found = await feedOf(c, c.req.valid('param').widget_id, query.limit);
    // `lang` fixes the language; without it the widget follows the page it is placed in.
    const script = widgetScript(found.feed, query.lang ?? found.language, found.timeZone, query.lang !== undefined);
    const tag = contentTag(script);
    if (notModified(c, tag)) return c.body(null, 304, { ETag: tag });
    return c.body(script, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      ETag: tag,
      'Cache-Control': CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
    });
  },

  listReviewRequests: async (c) => {
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction((tx) =>
      q.listRequests(tx, companyId, page, {
        status: query['filter[status]'],
        customerId: query['filter[customer_id]'],
        updatedSince: query['filter[updated_since]'],
      }),
    );
    const publicUrl = linkBase(c);
    return c.json({ data: data.map((row) => serializeReviewRequest(row, publicUrl)), meta }, 200);
  },

  getReviewRequest: async (c) => {
    const { review_request } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const row = await c.get('tenant').transaction((tx) => q.findRequest(tx, companyId, review_request));
    if (!row) throw new ApiProblem('not_found', reviewMessages.message('review_request.not_found'));
    return c.json({ data: serializeReviewRequest(row, linkBase(c)) }, 200);
  },

  createReviewRequest: async (c) => {
    const body = c.req.valid('json');
    const { company } = c.get('auth').key;
    const companyLanguage = (['nl', 'en', 'de', 'fr'] as const).find((l) => l === company.language) ?? 'en';
    const publicUrl = c.get('deps').config.publicUrl;
    // Sending over WhatsApp needs the company's WhatsApp feature, like the inbox's WhatsApp replies.
    if (body.channel === 'whatsapp' && !company.features.includes('whatsapp'))
      throw new ApiProblem('feature_not_available', reviewMessages.message('review_request.whatsapp_feature'));
    const whatsappSent: { delivery?: Delivery & { accepted: true } } = {};
    const channels = c.get('deps').channels;
    try {
      const created = await runCreation(c, async (tx) => {
        const row = await createReviewRequest(
          tx,
          {
            companyId: company.id,
            shop: company.name,
            companyLanguage,
            publicUrl,
            now: c.get('deps').clock(),
            channels,
            whatsappSent,
          },
          body,
        );
        return { status: 201 as const, body: { data: serializeReviewRequest(row, publicUrl) } };
      });
      return c.json(created.body, created.status, created.headers);
    } catch (error) {
      if (whatsappSent.delivery && !(error instanceof ApiProblem)) {
        // Sent but not stored (the commit failed): the customer has the message, the service no request. Said
        // loudly, with WhatsApp's id, so that it can be found; a retry would send it again.
        c.get('deps').log.error(
          { err: error, requestId: c.get('requestId'), whatsappMessageId: whatsappSent.delivery.whatsappMessageId },
          'WhatsApp accepted a review request that could not be stored',
        );
      }
      throw error;
    }
  },
} satisfies Partial<Handlers>;

/** The base of review-page links for this key: null without `reviews.write` (see serializeReviewRequest). */
function linkBase(c: Context<AppEnv>): string | null {
  return c.get('auth').scopes.has('reviews.write') ? c.get('deps').config.publicUrl : null;
}
