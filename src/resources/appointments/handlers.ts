import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { inOrder } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { etagOf } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { message } from '../../http/messages.ts';
import { ApiProblem } from '../../http/problems.ts';
import { newId } from '../../ids.ts';
import { contactOf } from '../customers/queries.ts';
import { availabilityPage } from './availability.ts';
import { appointmentUpdateColumns, newAppointmentColumns } from './inputs.ts';
import { appointmentMessages } from './messages.ts';
import { refuseUnfitKind, sendAppointmentMessage } from './notify.ts';
import * as q from './queries.ts';
import { type AppointmentRow, serializeAppointment, serializeAppointmentType } from './serialize.ts';
import {
  appointmentNotFound,
  onLockedAppointment,
  onLockedAppointmentWith,
  present,
  recordAppointmentChange,
  saveAppointment,
} from './writes.ts';

const nowOf = (c: Context<AppEnv>) => c.get('deps').clock();

/** The contact details shown when the customer is gone. */
const NO_CONTACT = { name: null, email: '', phone: null };

const OPEN = new Set<AppointmentRow['status']>(['pending', 'confirmed']);

/** Whether the JSON body named `key` (a default of the contract cannot tell). */
async function bodyHas(c: Context<AppEnv>, key: string): Promise<boolean> {
  try {
    const raw = await c.req.json();
    return typeof raw === 'object' && raw !== null && key in raw;
  } catch {
    return false;
  }
}

export const handlers = {
  listAppointments: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await q.listAppointments(c.get('tenant'), page, {
      status: query['filter[status]'],
      customerId: query['filter[customer_id]'],
      userId: query['filter[user_id]'] === undefined ? undefined : Number(query['filter[user_id]']),
      startsFrom: query['filter[starts_from]'],
      startsUntil: query['filter[starts_until]'],
      updatedSince: query['filter[updated_since]'],
      metadata: query.metadata,
    });
    return c.json({ data: data.map((r) => serializeAppointment(r, r.contact ?? NO_CONTACT)), meta }, 200);
  },

  getAppointment: async (c) => {
    const { appointment } = c.req.valid('param');
    const row = await q.readAppointment(c.get('tenant'), appointment);
    if (!row) throw appointmentNotFound();
    return c.json({ data: serializeAppointment(row, row.contact ?? NO_CONTACT) }, 200, { ETag: etagOf(row.version) });
  },

  createAppointment: async (c) => {
    const body = c.req.valid('json');
    const statusSent = await bodyHas(c, 'status');
    const { companyId } = c.get('tenant');
    const created = await runCreation(c, async (tx) => {
      const columns = await newAppointmentColumns(tx, companyId, body, statusSent);
      const [row, contact] = await inOrder(
        () => q.insertAppointment(tx, companyId, columns),
        () => contactOf(tx, companyId, columns.customerId),
      );
      const data = await recordAppointmentChange(tx, row, 'appointment.created', contact);
      return { status: 201 as const, body: { data }, headers: { ETag: etagOf(row.version) } };
    });
    return c.json(created.body, created.status, created.headers);
  },

  updateAppointment: async (c) => {
    const { appointment } = c.req.valid('param');
    const body = c.req.valid('json');
    const { row, data } = await onLockedAppointmentWith(
      c,
      appointment,
      q.appointmentSettingsOf,
      async (tx, current, companyId, settings) => {
        if (!OPEN.has(current.status))
          throw new ApiProblem(
            'conflict',
            appointmentMessages.message('appointment.not_changeable', { status: current.status }),
          );
        const changes = await appointmentUpdateColumns(tx, companyId, current, body, settings);
        if (Object.keys(changes).length === 0) return { row: current, data: await present(tx, current) };
        return saveAppointment(tx, current, changes, 'appointment.updated');
      },
    );
    return c.json({ data }, 200, { ETag: etagOf(row.version) });
  },

  deleteAppointment: async (c) => {
    const { appointment } = c.req.valid('param');
    await onLockedAppointment(c, appointment, (tx, current) => q.deleteAppointment(tx, current));
    return c.json({ data: { object: 'appointment', id: appointment, deleted: true as const } }, 200);
  },

  confirmAppointment: async (c) => {
    const { appointment } = c.req.valid('param');
    const { row, data } = await onLockedAppointment(c, appointment, async (tx, current) => {
      if (current.status !== 'pending')
        throw new ApiProblem(
          'conflict',
          appointmentMessages.message('appointment.confirm_not_pending', { status: current.status }),
        );
      if (current.startsAt === null)
        throw new ApiProblem('conflict', appointmentMessages.message('appointment.confirm_invitation'));
      return saveAppointment(tx, current, { status: 'confirmed', confirmedAt: sql`app_now()` }, 'appointment.updated');
    });
    return c.json({ data }, 200, { ETag: etagOf(row.version) });
  },

  cancelAppointment: async (c) => {
    const { appointment } = c.req.valid('param');
    const body = c.req.valid('json') ?? {};
    const now = nowOf(c);
    const { row, data } = await onLockedAppointment(c, appointment, async (tx, current) => {
      if (!OPEN.has(current.status))
        throw new ApiProblem(
          'conflict',
          appointmentMessages.message('appointment.cancel_closed', { status: current.status }),
        );
      const saved = await saveAppointment(
        tx,
        current,
        { status: 'cancelled', cancelledAt: sql`app_now()`, cancellationReason: body.cancellation_reason ?? null },
        'appointment.cancelled',
      );
      // The message goes in the same transaction: when it cannot be sent, the appointment is not cancelled.
      if (body.notify_customer)
        await sendAppointmentMessage(
          tx,
          c.get('deps').config,
          saved.row,
          { kind: 'cancellation', channel: 'email', message: null, language: body.language },
          now,
        );
      return saved;
    });
    return c.json({ data }, 200, { ETag: etagOf(row.version) });
  },

  completeAppointment: async (c) => {
    const { appointment } = c.req.valid('param');
    const { row, data } = await onLockedAppointment(c, appointment, async (tx, current) => {
      if (current.status !== 'confirmed')
        throw new ApiProblem(
          'conflict',
          appointmentMessages.message('appointment.complete_not_confirmed', { status: current.status }),
        );
      return saveAppointment(tx, current, { status: 'completed' }, 'appointment.updated');
    });
    return c.json({ data }, 200, { ETag: etagOf(row.version) });
  },

  notifyAppointment: async (c) => {
    const { appointment } = c.req.valid('param');
    const body = c.req.valid('json');
    const auth = c.get('auth');
    if (body.channel === 'whatsapp' && !auth.key.company.features.includes('whatsapp'))
      throw new ApiProblem('feature_not_available', message('auth.feature_needed', { features: ['whatsapp'] }));
    const { companyId } = c.get('tenant');
    const now = nowOf(c);
    const sent = await runCreation(c, async (tx) => {
      const row = await q.findAppointment(tx, companyId, appointment);
      if (!row) throw appointmentNotFound();
      refuseUnfitKind(body.kind, row, now);
      const { recipient, language } = await sendAppointmentMessage(
        tx,
        c.get('deps').config,
        row,
        { kind: body.kind, channel: body.channel, message: body.message ?? null, language: body.language },
        now,
      );
      const data = {
        object: 'appointment_notification' as const,
        id: newId(),
        appointment_id: row.id,
        kind: body.kind,
        channel: body.channel,
        recipient,
        language,
        message: body.message ?? null,
        queued_at: new Date().toISOString(),
      };
      return { status: 202 as const, body: { data } };
    });
    return c.json(sent.body, sent.status, sent.headers);
  },

  listAppointmentTypes: async (c) => {
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c
      .get('tenant')
      .transaction((tx) => q.listAppointmentTypes(tx, companyId, page, query['filter[is_active]']));
    return c.json({ data: data.map(serializeAppointmentType), meta }, 200);
  },

  getAppointmentAvailability: async (c) => {
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const now = nowOf(c);
    const page = await c.get('tenant').transaction((tx) => availabilityPage(tx, companyId, query, now));
    return c.json(page, 200);
  },
} satisfies Partial<Handlers>;
