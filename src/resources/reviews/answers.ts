// What the customer's review page does with a request: opening it marks it `opened`; answering it creates the
// review (source `request`, verified) and completes the request, once. Every step locks the request's row first,
// so two answers sent at the same moment queue behind each other and the second finds it completed: one review
// per request, never two.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import { unstorable } from '../../http/storable-text.ts';
import * as q from './queries.ts';
import { REQUEST_VALID_DAYS } from './requests.ts';
import { type ReviewRequestRow, serializeReview, serializeReviewRequest } from './serialize.ts';

export type PageState =
  | { kind: 'unknown' }
  | { kind: 'closed'; request: ReviewRequestRow }
  | { kind: 'answered'; request: ReviewRequestRow }
  | { kind: 'open'; request: ReviewRequestRow };

const DAY_MS = 86_400_000;

/** The state of a locked request as the page sees it; a request past its time expires here if the cron has not. */
async function stateOf(tx: Tx, request: ReviewRequestRow, now: Date): Promise<PageState> {
  if (request.status === 'completed') return { kind: 'answered', request };
  if (request.status === 'expired' || request.status === 'cancelled' || request.status === 'failed')
    return { kind: 'closed', request };
  if (request.sentAt && request.sentAt.getTime() < now.getTime() - REQUEST_VALID_DAYS * DAY_MS)
    return { kind: 'closed', request: await q.updateRequest(tx, request, { status: 'expired' }) };
  return { kind: 'open', request };
}

export async function openRequest(tx: Tx, companyId: string, token: string, now: Date): Promise<PageState> {
  const request = await q.lockRequestByToken(tx, companyId, token);
  if (!request) return { kind: 'unknown' };
  const state = await stateOf(tx, request, now);
  if (state.kind !== 'open' || request.status === 'opened') return state;
  return { kind: 'open', request: await q.updateRequest(tx, request, { status: 'opened', openedAt: sql`app_now()` }) };
}

export type Answer = { rating: number; comment: string | null; name: string; city: string | null; consent: boolean };
export type AnswerField = 'rating' | 'comment' | 'name' | 'city';
export type AnswerProblem = 'required' | 'too_long' | 'invalid';

export const ANSWER_LIMITS = { comment: 5000, name: 100, city: 100 } as const;

/** The form's fields checked; `errors` names each field that is wrong and why. */
export function readAnswer(form: Record<string, string | undefined>) {
  const errors: Partial<Record<AnswerField, AnswerProblem>> = {};
  const text = (field: 'comment' | 'name' | 'city') => {
    const value = (form[field] ?? '').trim();
    if (value.length > ANSWER_LIMITS[field]) errors[field] = 'too_long';
    // U+0000 (`%00` in the form) cannot be stored: shown next to the field like any other mistake.
    else if (unstorable(value)) errors[field] = 'invalid';
    return value === '' ? null : value;
  };
  const ratingText = form.rating ?? '';
  const rating = /^[1-5]$/.test(ratingText) ? Number(ratingText) : 0;
  if (!rating) errors.rating = ratingText === '' ? 'required' : 'invalid';
  const comment = text('comment');
  const name = text('name');
  if (name === null) errors.name = 'required';
  const city = text('city');
  const answer: Answer | null =
    Object.keys(errors).length === 0 && name !== null
      ? { rating, comment, name, city, consent: form.consent === 'yes' }
      : null;
  return { answer, errors };
}

/** The locked request's state, without marking it opened (the form's POST). */
export async function lockedState(tx: Tx, companyId: string, token: string, now: Date): Promise<PageState> {
  const request = await q.lockRequestByToken(tx, companyId, token);
  return request ? stateOf(tx, request, now) : { kind: 'unknown' };
}

/** The answer of an open, locked request: its review, and the request completed. */
export async function completeRequest(tx: Tx, request: ReviewRequestRow, answer: Answer) {
  const review = await q.insertReview(tx, request.companyId, {
    status: 'published',
    source: 'request',
    rating: answer.rating,
    comment: answer.comment,
    authorName: answer.name,
    authorCity: answer.city,
    customerId: request.customerId,
    language: request.language,
    isVerified: true,
    consentPublish: answer.consent,
  });
  const completed = await q.updateRequest(tx, request, {
    status: 'completed',
    reviewId: review.id,
    completedAt: sql`app_now()`,
    openedAt: request.openedAt ?? sql`app_now()`,
  });
  // The review and the completed request are told in the same transaction as the change.
  await recordEvent(tx, request.companyId, {
    type: 'review.created',
    scope: 'reviews.read',
    customerId: review.customerId,
    object: serializeReview(review),
  });
  await recordEvent(tx, request.companyId, {
    type: 'review_request.completed',
    scope: 'reviews.read',
    customerId: completed.customerId,
    object: serializeReviewRequest(completed, null),
  });
  return { review, request: completed };
}
