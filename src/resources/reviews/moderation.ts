// The company's changes to a review: its reply, hiding and publishing. Each runs on the locked review after the
// If-Match check; a change that changes nothing writes nothing (the version and `updated_at` stay).

import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Tx } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion } from '../../http/etag.ts';
import { ApiProblem } from '../../http/problems.ts';
import { reviewMessages } from './messages.ts';
import * as q from './queries.ts';
import { type ReviewRow, serializeReview } from './serialize.ts';

export type HiddenReason = 'spam' | 'offensive' | 'personal_data' | 'not_a_customer' | 'duplicate' | 'other';

/** What a change does to the review, or null when it would change nothing. */
type Change = (review: ReviewRow) => q.ReviewChanges | null;

export const setReply =
  (reply: string): Change =>
  (review) =>
    review.reply === reply ? null : { reply, repliedAt: sql`app_now()` };

export const removeReply: Change = (review) => (review.reply === null ? null : { reply: null, repliedAt: null });

export const hide =
  (reason: HiddenReason): Change =>
  (review) =>
    review.status === 'hidden' && review.hiddenReason === reason ? null : { status: 'hidden', hiddenReason: reason };

export const publish: Change = (review) =>
  review.status === 'published' ? null : { status: 'published', hiddenReason: null };

/** Applies `change` to the review named in the path and answers with it and its ETag. */
export async function changeReview(c: Context<AppEnv>, id: string, change: Change) {
  const expected = expectedVersion(c);
  const { companyId } = c.get('tenant');
  const row = await c.get('tenant').transaction(async (tx: Tx) => {
    const current = await q.lockReview(tx, companyId, id);
    checkIfMatch(current, expected, () => new ApiProblem('not_found', reviewMessages.message('review.not_found')));
    const changes = change(current);
    return changes ? q.updateReview(tx, current, changes) : current;
  });
  return c.json({ data: serializeReview(row) }, 200, { ETag: etagOf(row.version) });
}
