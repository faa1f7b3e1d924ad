// The demo company (CLI `demo`, and the first start of `npm start` on an empty database): a realistic tenant
// with data of every kind that exists, its history in the event log, and a full-access key.

import { and, eq, sql } from 'drizzle-orm';
import { ALL_SCOPES } from '../auth/scopes.ts';
import { loadConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import {
  companies,
  customers,
  customFields,
  deals,
  events,
  notes,
  type pipelineStages,
  taskBoards,
  taskChecklistItems,
  taskComments,
  taskLinks,
  taskStatuses,
  tasks,
  users,
} from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { enterStage } from '../domain/deals.ts';
import { toE164 } from '../domain/phone.ts';
import type { EventType } from '../events/catalogue.ts';
import { recordEvent } from '../events/record.ts';
import { FileStorages } from '../files/storages.ts';
import { newId } from '../ids.ts';
import { type CustomerRow, serializeCustomer } from '../resources/customers/serialize.ts';
import { type DealRow, serializeDeal } from '../resources/deals/serialize.ts';
import { SCOPE_OF_PARENT } from '../resources/notes/note-writes.ts';
import { serializeNote } from '../resources/notes/serialize.ts';
import { type ColumnRow, serializeTask, type TaskLink, type TaskRow } from '../resources/tasks/serialize.ts';
import { TASK_TEXTS } from '../resources/tasks/texts.ts';
import { insertCompany } from '../services/companies.ts';
import { createKey, type Expiry } from '../services/keys.ts';
import { activeStages } from '../services/pipelines.ts';
import { addDemoAppointments } from './demo-appointments.ts';
import { addDemoConversations } from './demo-conversations.ts';
import { COMPANY_DAYS_AGO, DEMO_BOARDS, DEMO_COMPANY, DEMO_USERS } from './demo-data/company.ts';
import { DEMO_CUSTOM_FIELDS, demoCustomerValues, demoDealValues } from './demo-data/custom-fields.ts';
import { DEMO_CUSTOMERS, type DemoCustomer } from './demo-data/customers.ts';
import { DEMO_DEALS, type DemoDeal } from './demo-data/deals.ts';
import { DEMO_TASKS, type DemoTask } from './demo-data/tasks.ts';
import { addDemoOrders } from './demo-orders.ts';
import { addDemoReviews } from './demo-reviews.ts';
import { addDemoSales } from './demo-sales.ts';
import { addDemoWorkOrders } from './demo-work-orders.ts';

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

export type Demo = { companyId: string; key: string; expiresAt: Date | null };

/**
 * The demo company with its full-access key, which expires like any other key (365 days by default).
 * `storages`: the installation's (the CLI's configuration); PostgreSQL alone by default. `serviceUrl`: its
 * PUBLIC_URL, the base of the API addresses in the demo's events (an unconfigured installation's by default).
 */
export async function createDemo(
  db: Db,
  expiresIn: Expiry = '365d',
  storages = new FileStorages('postgres', undefined),
  serviceUrl = loadConfig({}).publicUrl,
): Promise<Demo> {
  const now = new Date();
  const since = daysBefore(now, COMPANY_DAYS_AGO, 0);
  // One transaction, the key included: a failure leaves no half-filled demo company, nor one without its key
  // (ensureDemo would never make another).
  return db.transaction(async (tx) => {
    const company = await insertCompany(tx, { ...DEMO_COMPANY, createdAt: since, updatedAt: since });
    await fillCompany(tx, company.id, now, storages, serviceUrl);
    // The company's rows were written as the tenant; keys are the operator's (the service's own role).
    await tx.execute(sql`reset role`);
    const { key, row } = await createKey(tx, {
      companyId: company.id,
      name: 'Demo key',
      scopes: [...ALL_SCOPES],
      expiresIn,
    });
    return { companyId: company.id, key, expiresAt: row.expiresAt };
  });
}

/** The demo, on the first start only: when the database has no company at all. */
export async function ensureDemo(
  db: Db,
  storages: FileStorages,
  serviceUrl: string,
): Promise<({ created: true } & Demo) | { created: false; companyId: string }> {
  const [existing] = await db.select({ id: companies.id }).from(companies).orderBy(companies.createdAt).limit(1);
  if (existing) return { created: false, companyId: existing.id };
  return { created: true, ...(await createDemo(db, '365d', storages, serviceUrl)) };
}

async function fillCompany(
  tx: Tx,
  companyId: string,
  now: Date,
  storages: FileStorages,
  serviceUrl: string,
): Promise<void> {
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

  // The company's default pipeline, in board order (the demo deals name its stages by index).
  const stageRows = await activeStages(tx, companyId);

  const columnsOfBoard: ColumnRow[][] = [];
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
    const columnRows = await tx
      .insert(taskStatuses)
      .values(
        board.columns.map((column, i) => {
          const isDefault = !seen.has(column.category);
          seen.add(column.category);
          // Positions start at 0, as the contract shows them.
          return { companyId, id: newId(), boardId, ...column, position: i, isDefault };
        }),
      )
      .returning();
    columnsOfBoard.push(columnRows);
  }

  const userOf = (key: string) => {
    const user = userByKey.get(key);
    if (!user) throw new Error(`demo data names an unknown user ${key}`);
    return user;
  };
  // The company's own fields (issue 51), before the records that carry their values.
  await tx.insert(customFields).values(DEMO_CUSTOM_FIELDS.map((field) => ({ ...field, companyId, id: newId() })));
  const customerByName = new Map<string, CustomerRow>();
  for (const [i, customer] of DEMO_CUSTOMERS.entries()) {
    customerByName.set(customer.name, await addCustomer(tx, companyId, customer, i, now, userOf));
  }
  const dealByCustomer = new Map<string, string>();
  for (const [i, deal] of DEMO_DEALS.entries()) {
    const customer = customerByName.get(deal.customer);
    if (!customer) throw new Error(`demo deal of unknown customer ${deal.customer}`);
    dealByCustomer.set(deal.customer, await addDeal(tx, deal, customer, i, now, { stages: stageRows, author: userOf }));
  }
  for (const [i, task] of DEMO_TASKS.entries()) {
    const link = (object: 'customer' | 'deal', name: string): TaskLink => {
      const id = object === 'customer' ? customerByName.get(name)?.id : dealByCustomer.get(name);
      if (!id) throw new Error(`demo task ${task.title} links an unknown ${object} of ${name}`);
      return { object, id };
    };
    const links = [
      ...(task.customers ?? []).map((name) => link('customer', name)),
      ...(task.deals ?? []).map((name) => link('deal', name)),
    ];
    await addTask(tx, companyId, task, i, now, { columns: columnsOfBoard, links, user: userOf });
  }
  await addDemoOrders(tx, companyId, now);
  await addDemoSales(tx, companyId, now, [...customerByName.values()], storages, serviceUrl);
  await addDemoAppointments(tx, companyId, now, { sanne: userOf('sanne'), ahmed: userOf('ahmed') }, [
    ...customerByName.values(),
  ]);
  await addDemoConversations(tx, companyId, now, { customers: [...customerByName.values()], user: userOf });
  await addDemoWorkOrders(tx, companyId, now, userOf('ahmed'), [...customerByName.values()], storages);
  await addDemoReviews(tx, companyId, now, [...customerByName.values()]);
}

/**
 * A task as it was created (in its board's first column) and moved to its column, with its links, checklist,
 * comments and the system line of the move, and the events the API would have recorded.
 */
async function addTask(
  tx: Tx,
  companyId: string,
  task: DemoTask,
  seed: number,
  now: Date,
  context: { columns: ColumnRow[][]; links: TaskLink[]; user: (key: string) => Author },
): Promise<void> {
  const columns = context.columns[task.board];
  const column = columns?.[task.column];
  if (!columns || !column) throw new Error(`demo task ${task.title} names an unknown column`);
  const createdAt = daysBefore(now, task.daysAgo, seed + 11);
  const at = (afterDays: number, step: number) =>
    later(createdAt, daysBefore(now, task.daysAgo - afterDays, seed * 5 + step));
  const movedAt = task.movedAfterDays === undefined ? createdAt : at(task.movedAfterDays, 1);
  const due = task.dueInDays === undefined ? null : new Date(now.getTime() + task.dueInDays * DAY_MS);
  const row: TaskRow = {
    companyId,
    id: newId(),
    metadata: {},
    boardId: column.boardId,
    statusId: column.id,
    status: column.category,
    title: task.title,
    description: task.description ?? null,
    priority: task.priority,
    dueDate: due ? due.toISOString().slice(0, 10) : null,
    assignedUserId: task.assignee ? context.user(task.assignee).id : null,
    createdByUserId: task.creator ? context.user(task.creator).id : null,
    position: seed,
    completedAt: column.category === 'completed' ? movedAt : null,
    cancelledAt: column.category === 'cancelled' ? movedAt : null,
    createdAt,
    updatedAt: movedAt,
    version: task.movedAfterDays === undefined ? 1 : 2,
  };
  await tx.insert(tasks).values(row);
  if (context.links.length > 0)
    await tx
      .insert(taskLinks)
      .values(
        context.links.map((l, position) => ({ companyId, taskId: row.id, object: l.object, targetId: l.id, position })),
      );
  if (task.checklist)
    await tx.insert(taskChecklistItems).values(
      task.checklist.map(([text, isDone], position) => ({
        companyId,
        id: newId(),
        taskId: row.id,
        text,
        isDone,
        position,
        createdAt,
      })),
    );
  const lines = (task.comments ?? []).map((c, i) => ({
    body: c.body,
    isSystem: false,
    authorUserId: c.author ? context.user(c.author).id : null,
    createdAt: at(c.afterDays, 10 + i),
  }));
  if (task.movedAfterDays !== undefined && columns[0]) {
    lines.push({
      body: TASK_TEXTS.nl.moved(columns[0].name, column.name),
      isSystem: true,
      authorUserId: null,
      createdAt: movedAt,
    });
  }
  if (lines.length > 0)
    await tx.insert(taskComments).values(lines.map((l) => ({ ...l, companyId, id: newId(), taskId: row.id })));

  const hasOpenActions = (task.checklist ?? []).some(([, done]) => !done);
  const view = (state: TaskRow) => serializeTask({ ...state, links: context.links, hasOpenActions });
  const first = columns[0];
  const created: TaskRow =
    task.movedAfterDays === undefined || !first
      ? row
      : {
          ...row,
          statusId: first.id,
          status: first.category,
          completedAt: null,
          cancelledAt: null,
          updatedAt: createdAt,
          version: 1,
        };
  await historicTaskEvent(tx, companyId, createdAt, 'task.created', view(created));
  if (task.movedAfterDays !== undefined) {
    await historicTaskEvent(tx, companyId, movedAt, 'task.updated', view(row));
    if (column.category === 'completed') await historicTaskEvent(tx, companyId, movedAt, 'task.completed', view(row));
  }
}

async function historicTaskEvent(tx: Tx, companyId: string, when: Date, type: EventType, object: unknown) {
  const id = await recordEvent(tx, companyId, { type, scope: 'tasks.read', customerId: null, object });
  await tx
    .update(events)
    .set({ createdAt: when })
    .where(and(eq(events.companyId, companyId), eq(events.id, id)));
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
): Promise<CustomerRow> {
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
      // The demo company is Dutch (companies.country's default).
      phoneE164: toE164(customer.phone, 'NL'),
      companyName: customer.companyName ?? null,
      vatNumber: customer.vatNumber ?? null,
      cocNumber: customer.cocNumber ?? null,
      peppolId: customer.peppolId ?? null,
      address: customer.address,
      postalCode: customer.postalCode,
      city: customer.city,
      country: 'NL',
      emailUnsubscribed: customer.emailUnsubscribed === true,
      customFields: demoCustomerValues(seed, customer.type === 'business'),
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
  return row;
}

/**
 * A deal as it was created and then moved, won or lost and archived, each step with the events the API
 * would have recorded (the deal as it was after that step); then its notes.
 */
async function addDeal(
  tx: Tx,
  deal: DemoDeal,
  customer: CustomerRow,
  seed: number,
  now: Date,
  context: { stages: (typeof pipelineStages.$inferSelect)[]; author: (key: string) => Author },
): Promise<string> {
  const customerDays = Math.round((now.getTime() - customer.createdAt.getTime()) / DAY_MS);
  const at = (afterDays: number, step: number) =>
    later(customer.createdAt, daysBefore(now, customerDays - afterDays, seed * 7 + step));
  const stageAt = (index: number) => {
    const stage = context.stages[index];
    if (!stage) throw new Error(`demo deal ${deal.title} names an unknown stage ${index}`);
    return stage;
  };
  const createdAt = at(deal.afterDays, 0);
  let state: DealRow = {
    companyId: customer.companyId,
    id: newId(),
    externalRef: null,
    metadata: {},
    customFields: demoDealValues(seed, now),
    title: deal.title,
    description: deal.description,
    status: 'open',
    value: deal.value ?? null,
    currency: 'EUR',
    valueSource: deal.value ? 'manual' : 'quotes',
    stageId: stageAt(0).id,
    customerId: customer.id,
    assignedUserId: deal.owner ? context.author(deal.owner).id : null,
    source: 'web',
    lostReason: null,
    isArchived: false,
    stageChangedAt: createdAt,
    wonAt: null,
    lostAt: null,
    archivedAt: null,
    createdAt,
    updatedAt: createdAt,
    version: 1,
  };
  const history: { when: Date; type: EventType; object: ReturnType<typeof serializeDeal> }[] = [
    { when: createdAt, type: 'deal.created', object: serializeDeal(state) },
  ];
  for (const [i, move] of (deal.moves ?? []).entries()) {
    const when = at(move.afterDays, i + 1);
    const { entered, statusEvent } = enterStage(state, stageAt(move.stage), when, move.lostReason ?? null);
    state = { ...state, ...entered, updatedAt: when, version: state.version + 1 };
    const object = serializeDeal(state);
    history.push({ when, type: 'deal.stage_changed', object });
    if (statusEvent) history.push({ when, type: statusEvent, object });
  }
  if (deal.archivedAfterDays !== undefined) {
    const when = at(deal.archivedAfterDays, 20);
    state = { ...state, isArchived: true, archivedAt: when, updatedAt: when, version: state.version + 1 };
    history.push({ when, type: 'deal.updated', object: serializeDeal(state) });
  }
  await tx.insert(deals).values(state);
  for (const event of history) {
    await historic(tx, state.companyId, event.when, customer.id, event.type, { object: event.object }, 'deal');
  }
  for (const [i, note] of (deal.notes ?? []).entries()) {
    const writer = context.author(note.author);
    const when = at(note.afterDays, 30 + i);
    const [noteRow] = await tx
      .insert(notes)
      .values({
        companyId: state.companyId,
        id: newId(),
        parentType: 'deal',
        dealId: state.id,
        content: note.content,
        isImportant: note.important === true,
        authorUserId: writer.id,
        createdAt: when,
        updatedAt: when,
      })
      .returning();
    await historic(
      tx,
      state.companyId,
      when,
      customer.id,
      'note.created',
      { object: serializeNote({ ...noteRow, authorName: writer.name }) },
      'deal',
    );
  }
  return state.id;
}

/** Records an event and dates it back to when the demo pretends it happened, so the timeline reads right. */
async function historic(
  tx: Tx,
  companyId: string,
  when: Date,
  customerId: string,
  type: EventType,
  { object }: { object: unknown },
  about: keyof typeof SCOPE_OF_PARENT = 'customer',
): Promise<void> {
  const id = await recordEvent(tx, companyId, { type, scope: SCOPE_OF_PARENT[about], customerId, object });
  await tx
    .update(events)
    .set({ createdAt: when })
    .where(and(eq(events.companyId, companyId), eq(events.id, id)));
}
