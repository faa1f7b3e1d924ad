// The demo's reviews: published ones (verified through a review request, and typed in by the company), one
// answered by the company, and one hidden with its reason, so that GET /reviews, the moderation and the public
// feed of the demo all show something. Each is told in the event log, dated back like the rest of the demo (within
// the 30 days events are kept, so the log lists them all).
import { and, eq } from 'drizzle-orm';
import { events } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { recordEvent } from '../events/record.ts';
import type { CustomerRow } from '../resources/customers/serialize.ts';
import { insertReview } from '../resources/reviews/queries.ts';
import { serializeReview } from '../resources/reviews/serialize.ts';

const DAY_MS = 86_400_000;

type DemoReview = {
  daysAgo: number;
  rating: number;
  comment: string | null;
  /** Index into the demo's customers: a review that came through a review request (verified). */
  customer?: number;
  author?: string;
  city?: string;
  source: 'request' | 'manual';
  reply?: { text: string; daysLater: number };
  hidden?: 'spam' | 'offensive' | 'personal_data' | 'not_a_customer' | 'duplicate' | 'other';
};

const REVIEWS: DemoReview[] = [
  {
    daysAgo: 26,
    rating: 5,
    comment: 'Cv-ketel binnen een dag vervangen, netjes gewerkt en alles goed uitgelegd. Aanrader!',
    customer: 0,
    source: 'request',
    reply: { text: 'Dank u wel! Fijn dat alles naar wens is verlopen.', daysLater: 1 },
  },
  {
    daysAgo: 19,
    rating: 4,
    comment: 'Vakkundige monteur, alleen een half uur later dan afgesproken.',
    customer: 1,
    source: 'request',
    reply: { text: 'Excuses voor de vertraging, we hebben de planning van die dag aangepast.', daysLater: 2 },
  },
  {
    daysAgo: 12,
    rating: 5,
    comment: 'Snel een afspraak voor het onderhoud en een duidelijke offerte.',
    customer: 2,
    source: 'request',
  },
  {
    daysAgo: 7,
    rating: 4,
    comment: 'Goede service bij de storing van vorige week.',
    author: 'Marco Visser',
    city: 'Amersfoort',
    source: 'manual',
  },
  {
    daysAgo: 3,
    rating: 1,
    comment: 'Bel 06-12345678 voor goedkope ketels!!! www.ketel-deals.example',
    author: 'Ketel Deals',
    source: 'manual',
    hidden: 'spam',
  },
];

export async function addDemoReviews(tx: Tx, companyId: string, now: Date, customers: CustomerRow[]): Promise<void> {
  for (const [i, review] of REVIEWS.entries()) {
    const reviewedAt = new Date(now.getTime() - review.daysAgo * DAY_MS - (i + 1) * 3_600_000);
    reviewedAt.setUTCMilliseconds(0);
    const customer = review.customer === undefined ? undefined : customers[review.customer];
    if (review.customer !== undefined && !customer)
      throw new Error(`demo review of unknown customer ${review.customer}`);
    const repliedAt = review.reply ? new Date(reviewedAt.getTime() + review.reply.daysLater * DAY_MS) : null;
    const updatedAt = repliedAt ?? reviewedAt;
    const row = await insertReview(tx, companyId, {
      status: review.hidden ? 'hidden' : 'published',
      hiddenReason: review.hidden ?? null,
      source: review.source,
      rating: review.rating,
      comment: review.comment,
      authorName: customer?.name ?? review.author ?? 'Anoniem',
      authorCity: customer?.city ?? review.city ?? null,
      customerId: customer?.id ?? null,
      language: 'nl',
      // Verified: it came through a review request sent to a customer of the company.
      isVerified: review.source === 'request',
      consentPublish: !review.hidden,
      reply: review.reply?.text ?? null,
      repliedAt,
      reviewedAt,
      createdAt: reviewedAt,
      updatedAt,
    });
    const id = await recordEvent(tx, companyId, {
      type: 'review.created',
      scope: 'reviews.read',
      customerId: row.customerId,
      // As it was written: the reply and the hiding came later.
      object: serializeReview({
        ...row,
        status: 'published',
        hiddenReason: null,
        reply: null,
        repliedAt: null,
        updatedAt: reviewedAt,
      }),
    });
    await tx
      .update(events)
      .set({ createdAt: reviewedAt })
      .where(and(eq(events.companyId, companyId), eq(events.id, id)));
  }
}
