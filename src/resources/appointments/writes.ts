// The steps every appointment change shares: working on the locked appointment (404, If-Match), saving a new
// version, and recording its event and its customer's activity in the same transaction.
import type { Context } from 'hono';
import { inOrder, type Tx } from '../../db/tenant.ts';
import type { EventType } from '../../events/catalogue.ts';
import { recordEvent } from '../../events/record.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, expectedVersion, preconditionFailed } from '../../http/etag.ts';
import { ApiProblem } from '../../http/problems.ts';
import { contactOf, touchCustomerActivity } from '../customers/queries.ts';
import { appointmentMessages } from './messages.ts';
import * as q from './queries.ts';
import { type AppointmentRow, serializeAppointment } from './serialize.ts';

export const appointmentNotFound = () =>
  new ApiProblem('not_found', appointmentMessages.message('appointment.not_found'));

type Contact = Awaited<ReturnType<typeof contactOf>>;

/** The appointment as the API shows it, with its customer's current contact details (read now, unless given). */
export async function present(tx: Tx, row: AppointmentRow, contact?: Contact) {
  const known = contact ?? (await contactOf(tx, row.companyId, row.customerId));
  return serializeAppointment(row, known ?? { name: null, email: '', phone: null });
}

/** Runs `work` on the appointment locked in a tenant transaction, after the If-Match check. */
export function onLockedAppointment<T>(
  c: Context<AppEnv>,
  id: string,
  work: (tx: Tx, current: AppointmentRow, companyId: string) => Promise<T>,
): Promise<T> {
  return onLockedAppointmentWith(c, id, async () => undefined, work);
}

/** The same, with what `read` reads sent right behind the lock, in its round trip (an update's settings). */
export function onLockedAppointmentWith<T, R>(
  c: Context<AppEnv>,
  id: string,
  read: (tx: Tx, companyId: string) => PromiseLike<R>,
  work: (tx: Tx, current: AppointmentRow, companyId: string, read: R) => Promise<T>,
): Promise<T> {
  const expected = expectedVersion(c);
  const { companyId } = c.get('tenant');
  return c.get('tenant').transaction(async (tx) => {
    const [current, alongside] = await inOrder(
      () => q.lockAppointment(tx, companyId, id),
      () => read(tx, companyId),
    );
    checkIfMatch(current, expected, appointmentNotFound);
    return work(tx, current, companyId, alongside);
  });
}

/**
 * The next version of the locked appointment, its change recorded (recordAppointmentChange); the customer's contact
 * details are read in the update's round trip (an update never changes the customer).
 */
export async function saveAppointment(
  tx: Tx,
  current: AppointmentRow,
  changes: q.AppointmentChanges,
  type: EventType,
): Promise<{ row: AppointmentRow; data: ReturnType<typeof serializeAppointment> }> {
  const [updated, contact] = await inOrder(
    () => q.updateAppointment(tx, current, changes),
    () => contactOf(tx, current.companyId, current.customerId),
  );
  // Cannot happen while the row is locked; kept so a lost update can never pass silently.
  if (!updated) throw preconditionFailed(current.version + 1);
  return { row: updated, data: await recordAppointmentChange(tx, updated, type, contact) };
}

/**
 * What follows every recorded change of an appointment: its event with the appointment as it is now (seen with
 * appointments.read, on its customer's timeline), and the activity with its customer. Returns the object.
 */
export async function recordAppointmentChange(tx: Tx, row: AppointmentRow, type: EventType, contact?: Contact) {
  const object = await present(tx, row, contact);
  await recordEvent(tx, row.companyId, { type, scope: 'appointments.read', customerId: row.customerId, object });
  await touchCustomerActivity(tx, row.companyId, row.customerId);
  return object;
}
