// The work order's state table (the contract's *Change the status of a work order*): for each target status, the
// statuses it can be reached from. `invoiced` and `cancelled` are final; moving to the current status is refused.
import type { WorkOrderRow } from './queries.ts';

export type WorkOrderStatus = WorkOrderRow['status'];

export const ALLOWED_FROM: { readonly [To in WorkOrderStatus]: readonly WorkOrderStatus[] } = {
  draft: ['planned'],
  planned: ['draft'],
  in_progress: ['draft', 'planned', 'completed'],
  completed: ['planned', 'in_progress'],
  invoiced: ['completed'],
  cancelled: ['draft', 'planned', 'in_progress'],
};

export const canMove = (from: WorkOrderStatus, to: WorkOrderStatus): boolean => ALLOWED_FROM[to].includes(from);

/** Lines, checklist and fields change while the work is still to be done or under way. */
export const EDITABLE: readonly WorkOrderStatus[] = ['draft', 'planned', 'in_progress'];
/** Only what never became work, or was called off, is deleted; the rest is kept for the records. */
export const DELETABLE: readonly WorkOrderStatus[] = ['draft', 'cancelled'];
/** Photos are added and removed until the work order is invoiced or cancelled. */
export const PHOTOS_OPEN: readonly WorkOrderStatus[] = ['draft', 'planned', 'in_progress', 'completed'];
/** The customer signs for the work while it is under way or once it is done (reopening clears the signature). */
export const SIGNABLE: readonly WorkOrderStatus[] = ['in_progress', 'completed'];

/** The contract's limit of photos per work order. */
export const MAX_PHOTOS = 30;
