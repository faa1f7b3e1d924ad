// The expire_review_requests task (hourly, see CRONTAB in worker.ts): a review request that was sent or opened
// but not completed within 30 days after sending becomes `expired` (the contract's ReviewRequest status). Each
// company in a tenant transaction of its own, so row-level security holds here as in a request.
import type { Task } from 'graphile-worker';
import type { Db } from '../db/client.ts';
import type { CronPayload } from '../db/maintenance.ts';
import { companies } from '../db/schema/index.ts';
import { withTenant } from '../db/tenant.ts';
import { expireRequests } from '../resources/reviews/queries.ts';
import { REQUEST_VALID_DAYS } from '../resources/reviews/requests.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      expire_review_requests: CronPayload;
    }
  }
}

/** Expires every company's overdue requests; returns how many. */
export async function expireReviewRequests(db: Db): Promise<number> {
  const rows = await db.select({ id: companies.id }).from(companies);
  let expired = 0;
  for (const { id } of rows) expired += await withTenant(db, id, (tx) => expireRequests(tx, id, REQUEST_VALID_DAYS));
  return expired;
}

export function expireReviewRequestsTask(db: Db): Task<'expire_review_requests'> {
  return async () => {
    await expireReviewRequests(db);
  };
}
