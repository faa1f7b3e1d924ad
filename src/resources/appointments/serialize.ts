import type { appointments, appointmentTypes } from '../../db/schema/index.ts';
import { idString, iso, isoOrNull } from '../../http/serialize.ts';
import type { CustomerContact } from '../customers/queries.ts';

export type AppointmentRow = typeof appointments.$inferSelect;
export type AppointmentTypeRow = typeof appointmentTypes.$inferSelect;
/** The customer's current details, shown as the appointment's contact. */

export function serializeAppointment(row: AppointmentRow, contact: CustomerContact) {
  return {
    object: 'appointment' as const,
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    starts_at: isoOrNull(row.startsAt),
    ends_at: isoOrNull(row.endsAt),
    all_day: row.allDay,
    location: row.location,
    customer_id: row.customerId,
    contact: { name: contact.name, email: contact.email, phone: contact.phone },
    user_id: row.userId === null ? null : idString(row.userId),
    appointment_type_id: row.appointmentTypeId,
    deal_id: row.dealId,
    quote_id: row.quoteId,
    invoice_id: row.invoiceId,
    notes: row.notes,
    cancellation_reason: row.cancellationReason,
    confirmed_at: isoOrNull(row.confirmedAt),
    cancelled_at: isoOrNull(row.cancelledAt),
    rescheduled_at: isoOrNull(row.rescheduledAt),
    metadata: row.metadata,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function serializeAppointmentType(row: AppointmentTypeRow) {
  return {
    object: 'appointment_type' as const,
    id: row.id,
    name: row.name,
    description: row.description,
    duration_minutes: row.durationMinutes,
    color: row.color,
    location: row.location,
    is_active: row.isActive,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
