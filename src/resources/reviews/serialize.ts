import type { reviewRequests, reviews } from '../../db/schema/index.ts';
import { iso, isoOrNull } from '../../http/serialize.ts';

export type ReviewRow = typeof reviews.$inferSelect;
export type ReviewRequestRow = typeof reviewRequests.$inferSelect;

export function serializeReview(row: ReviewRow) {
  return {
    object: 'review' as const,
    id: row.id,
    status: row.status,
    hidden_reason: row.hiddenReason,
    source: row.source,
    rating: row.rating,
    comment: row.comment,
    author: { name: row.authorName, city: row.authorCity },
    customer_id: row.customerId,
    language: row.language,
    is_verified: row.isVerified,
    consent_publish: row.consentPublish,
    reply: row.reply,
    replied_at: isoOrNull(row.repliedAt),
    reviewed_at: iso(row.reviewedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** The review page of a request: `{PUBLIC_URL}/review/{token}` (the token also names the company: see tokens.ts). */
export const reviewPageUrl = (publicUrl: string, token: string) => `${publicUrl}/review/${token}`;

/**
 * @param publicUrl the service's public address when the reader may write reviews, else null: the page link
 *   publishes a verified review, so it is a write credential and a key with `reviews.read` alone sees `url: null`
 *   (as do events, which `reviews.read` suffices to receive).
 */
export function serializeReviewRequest(row: ReviewRequestRow, publicUrl: string | null) {
  return {
    object: 'review_request' as const,
    id: row.id,
    status: row.status,
    channel: row.channel,
    trigger: row.trigger,
    customer_id: row.customerId,
    recipient: { name: row.recipientName, email: row.recipientEmail, phone: row.recipientPhone },
    language: row.language,
    url: publicUrl === null ? null : reviewPageUrl(publicUrl, row.token),
    review_id: row.reviewId,
    scheduled_at: isoOrNull(row.scheduledAt),
    sent_at: isoOrNull(row.sentAt),
    opened_at: isoOrNull(row.openedAt),
    completed_at: isoOrNull(row.completedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
