// The demo company (CLI `demo`, and the first start of `npm start` on an empty database): a realistic tenant
// with data of every kind that exists, its history in the event log, and a full-access key.
import { and, eq } from 'drizzle-orm';
import { ALL_SCOPES } from '../auth/scopes.ts';
import type { Db } from '../db/client.ts';
import {
  companies,
  customers,
  events,
  notes,
  pipelineStages,
  taskBoards,
  taskStatuses,
  users,
} from '../db/schema/index.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import { type EventType, recordEvent, SCOPE_OF_PARENT } from '../events/record.ts';
import { newId } from '../ids.ts';
import { type CustomerRow, serializeCustomer } from '../resources/customers/serialize.ts';
import { serializeNote } from '../resources/notes/serialize.ts';
import { createCompany } from '../services/companies.ts';
import { createKey } from '../services/keys.ts';
import {
  COMPANY_DAYS_AGO,
  DEMO_BOARDS,
  DEMO_COMPANY,
  DEMO_CUSTOMERS,
  DEMO_STAGES,
  DEMO_USERS,
  type DemoCustomer,
} from './demo-data.ts';

const DAY_MS = 86_400_000;

/**
 * A moment `days` before `now` during working hours (the hour varies with `seed`), never in the future and
 * whole milliseconds like every stored timestamp.
 */
function daysBefore(now: Date, days: number, seed: number): Date {
  const at = new Date(now.getTime() - days * DAY_MS);
  const s = seed + 3;
  at.setUTCHours(7 + (s % 9), (s * 17) % 60, (s * 31) % 60, 0);
  return at.getTime() < now.getTime() ? at : new Date(now.getTime() - 60_000 * (seed + 1));
}

const later = (a: Date, b: Date) => (a > b ? a : b);

export async function createDemo(db: Db): Promise<{ companyId: string; key: string }> {
  const now = new Date();
  const since = daysBefore(now, COMPANY_DAYS_AGO, 0);
  const company = await createCompany(db, { ...DEMO_COMPANY, createdAt: since, updatedAt: since });
  try {
    await withTenant(db, company.id, (tx) => fillCompany(tx, company.id, now));
  } catch (error) {
    // Nothing of the tenant was written (one transaction); leave no empty demo company behind either.
    await db.delete(companies).where(eq(companies.id, company.id));
    throw error;
  }
  const { key } = await createKey(db, {
    companyId: company.id,
    name: 'Demo key',
    scopes: [...ALL_SCOPES],
    expiresIn: 'never',
  });
  return { companyId: company.id, key };
}

/** The demo, on the first start only: when the database has no company at all. */
export async function ensureDemo(
  db: Db,
): Promise<{ created: true; companyId: string; key: string } | { created: false }> {
  const [existing] = await db.select({ id: companies.id }).from(companies).limit(1);
  if (existing) return { created: false };
  return { created: true, ...(await createDemo(db)) };
}

async function fillCompany(tx: Tx, companyId: string, now: Date): Promise<void> {
  const userRows = await tx
    .insert(users)
    .values(
      DEMO_USERS.map((user, i) => ({
        companyId,
        name: user.name,
        email: user.email,
        role: user.role,
        isOwner: user.isOwner === true,
        status: user.inactive ? ('inactive' as const) : ('active' as const),
        createdAt: daysBefore(now, user.daysAgo, i),
      })),
    )
    .returning();
  const userByKey = new Map(DEMO_USERS.map((user, i) => [user.key, userRows[i]]));

  await tx.insert(pipelineStages).values(
    DEMO_STAGES.map((stage, i) => ({
      companyId,
      nameNl: stage.names.nl,
      nameEn: stage.names.en,
      nameDe: stage.names.de,
      nameFr: stage.names.fr,
      type: stage.type,
      isDefault: stage.isDefault === true,
      position: i + 1,
      probability: stage.probability,
      color: stage.color,
      createdAt: daysBefore(now, COMPANY_DAYS_AGO, i + 1),
    })),
  );

  for (const [b, board] of DEMO_BOARDS.entries()) {
    const boardId = newId();
    await tx.insert(taskBoards).values({
      companyId,
      id: boardId,
      name: board.name,
      isDefault: board.isDefault === true,
      position: b + 1,
      createdAt: daysBefore(now, COMPANY_DAYS_AGO - b * 30, b + 1),
    });
    const seen = new Set<string>();
    await tx.insert(taskStatuses).values(
      board.columns.map((column, i) => {
        const isDefault = !seen.has(column.category);
        seen.add(column.category);
        return { companyId, id: newId(), boardId, ...column, position: i + 1, isDefault };
      }),
    );
  }

  for (const [i, customer] of DEMO_CUSTOMERS.entries()) {
    await addCustomer(tx, companyId, customer, i, now, (key) => {
      const user = userByKey.get(key);
      if (!user) throw new Error(`demo note by unknown user ${key}`);
      return user;
    });
  }
}

type Author = typeof users.$inferSelect;

/** A customer as it was created (a lead), converted, and given notes; each step with its event. */
async function addCustomer(
  tx: Tx,
  companyId: string,
  customer: DemoCustomer,
  seed: number,
  now: Date,
  author: (key: string) => Author,
): Promise<void> {
  const createdAt = daysBefore(now, customer.daysAgo, seed);
  const at = (afterDays: number, step: number) =>
    later(createdAt, daysBefore(now, customer.daysAgo - afterDays, seed + step));
  const convertedAt = customer.convertedAfterDays === undefined ? null : at(customer.convertedAfterDays, 3);
  const noteTimes = (customer.notes ?? []).map((note, i) => at(note.afterDays, 5 + i));
  const lastActivityAt = noteTimes.reduce<Date | null>((last, t) => (last && last > t ? last : t), null);

  const [row] = await tx
    .insert(customers)
    .values({
      companyId,
      id: newId(),
      type: customer.type,
      status: convertedAt ? 'customer' : 'lead',
      name: customer.name,
      email: customer.email,
      phone: customer.phone,
      companyName: customer.companyName ?? null,
      vatNumber: customer.vatNumber ?? null,
      cocNumber: customer.cocNumber ?? null,
      address: customer.address,
      postalCode: customer.postalCode,
      city: customer.city,
      country: 'NL',
      emailUnsubscribed: customer.emailUnsubscribed === true,
      convertedAt,
      lastActivityAt,
      createdAt,
      updatedAt: convertedAt ?? createdAt,
      // Conversion is an update: it counts in the version (the ETag), as through the API.
      version: convertedAt ? 2 : 1,
    })
    .returning();

  const activityBefore = (moment: Date) =>
    noteTimes.filter((t) => t <= moment).reduce<Date | null>((last, t) => (last && last > t ? last : t), null);
  const asOf = (moment: Date, changes: Partial<CustomerRow>): CustomerRow => ({
    ...row,
    lastActivityAt: activityBefore(moment),
    ...changes,
  });

  await historic(tx, companyId, createdAt, row.id, 'customer.created', {
    object: serializeCustomer(asOf(createdAt, { status: 'lead', convertedAt: null, updatedAt: createdAt })),
  });
  if (convertedAt) {
    await historic(tx, companyId, convertedAt, row.id, 'customer.converted', {
      object: serializeCustomer(asOf(convertedAt, {})),
    });
  }

  for (const [i, note] of (customer.notes ?? []).entries()) {
    const writer = author(note.author);
    const [noteRow] = await tx
      .insert(notes)
      .values({
        companyId,
        id: newId(),
        parentType: 'customer',
        customerId: row.id,
        content: note.content,
        isImportant: note.important === true,
        authorUserId: writer.id,
        createdAt: noteTimes[i],
        updatedAt: noteTimes[i],
      })
      .returning();
    await historic(tx, companyId, noteTimes[i], row.id, 'note.created', {
      object: serializeNote({ ...noteRow, authorName: writer.name }),
    });
  }
}

/** Records an event and dates it back to when the demo pretends it happened, so the timeline reads right. */
async function historic(
  tx: Tx,
  companyId: string,
  when: Date,
  customerId: string,
  type: EventType,
  { object }: { object: unknown },
): Promise<void> {
  const id = await recordEvent(tx, companyId, { type, scope: SCOPE_OF_PARENT.customer, customerId, object });
  await tx
    .update(events)
    .set({ createdAt: when })
    .where(and(eq(events.companyId, companyId), eq(events.id, id)));
}
