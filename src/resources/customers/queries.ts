// SQL of customers; every function takes the tenant transaction first.
import { type AnyColumn, and, eq, getTableColumns, inArray, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord, lockRecords, notBefore } from '../../db/change-time.ts';
import { type Related, relatedRow } from '../../db/record-reads.ts';
import type { CustomFieldValues } from '../../db/schema/columns.ts';
import { companies, customers } from '../../db/schema/index.ts';
import { builder, PreparedShapes, prepared, type Slotted, slotsFor } from '../../db/statements.ts';
import { sendUntilCommit, type Tenant, type Tx, tableRows } from '../../db/tenant.ts';
import type { FieldDefinition } from '../../domain/custom-fields.ts';
import { toE164 } from '../../domain/phone.ts';
import { type Metadata, metadataCondition, metadataMerge } from '../../http/metadata.ts';
import { keyset, type PageRequest, pageReader, readPage } from '../../http/pagination.ts';
import { atOrAfterSeconds, sinceSeconds } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import { customFieldSearch, type FieldSearch } from '../custom-fields/search.ts';
import type { CustomerRow } from './serialize.ts';

export type CustomerFilters = {
  q?: string;
  metadata?: Record<string, string>;
  /** The custom fields' filter as a condition (custom-fields/filter.ts), built for the request. */
  customFields?: SQL;
  /** The company's custom fields of customers, whose text-like values `q` also searches (custom-fields/search.ts). */
  searchFields?: ReadonlyMap<string, FieldDefinition>;
  status?: 'lead' | 'customer';
  type?: 'individual' | 'business';
  email?: string;
  updatedSince?: string;
};

const SORTS = { created_at: customers.createdAt, updated_at: customers.updatedAt };

/** The rows a search first reads in the page's order before it asks the trigram index (see searchCondition). */
const SEARCH_HEAD = 200;
/** Up to this many matches in the company, a search is answered through the trigram index; above, by the scan. */
const SEARCH_CANDIDATES = 1000;
/**
 * A term found in at least 1 of this many of the first rows is common: the ordered scan fills the page within
 * about take × this many rows (5% of the rows match "berg" in the bench: 15 ms scanned, 30 ms via the index).
 */
const SEARCH_DENSE = 100;

/** A term of digits, spaces and the punctuation of phone numbers (at least one digit) is also looked for by its digits. */
const PHONE_NUMBER = /^[0-9 +\-()./]*[0-9][0-9 +\-()./]*$/;
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
/** A text as an item of a PostgreSQL array literal (quoted, `"` and `\` escaped). */
const arrayItem = (text: string) => `"${text.replace(/["\\]/g, (ch) => `\\${ch}`)}"`;

/**
 * How `q` is looked for: the LIKE pattern of its lowercase text in search_text (name, email, company name and
 * phone, lowercased, one line each: drizzle/0023), and, for a phone number, of its digits in phone_digits.
 * `%`, `_` and `\` stand for themselves. toLowerCase is Unicode's default mapping, as ICU's root locale there.
 */
function searchTerm(q: string) {
  const text = q.toLowerCase();
  const digits = PHONE_NUMBER.test(q) ? q.replace(/[^0-9]/g, '') : '';
  return {
    text,
    pattern: `%${likeEscaped(text)}%`,
    digitsPattern: digits ? `%${digits}%` : null,
    // A line break could join the end of one field to the start of the next in search_text.
    multiline: text.includes('\n'),
    // LIKE '%…%' finds trigrams only in three letters or digits in a row; without them the index has nothing
    // to look up (for the digits too).
    indexable: /[\p{L}\p{N}]{3}/u.test(text) && (digits === '' || digits.length >= 3),
  };
}

type SearchTerm = ReturnType<typeof searchTerm>;

/**
 * The `q` condition on a row: the term in one of the fields (any case), or its digits in the phone's digits; or in
 * one of the custom fields (`fields`).
 */
function searchMatches(term: SearchTerm, fields: FieldSearch | undefined): SQL {
  const own = ownMatches(term);
  return fields === undefined ? own : sql`(${own} or ${fields.condition})`;
}

function ownMatches(term: SearchTerm): SQL {
  if (term.multiline) {
    // Rare enough to lowercase each field of each row; search_text would let such a term span two fields.
    const fields = [customers.name, customers.email, customers.companyName, customers.phone].map(
      (field) => sql`lower(${field} collate "und-x-icu") like ${term.pattern}`,
    );
    return sql`(${sql.join(fields, sql` or `)})`;
  }
  const byText = sql`${customers.searchText} like ${term.pattern}`;
  return term.digitsPattern === null ? byText : sql`(${byText} or ${customers.phoneDigits} like ${term.digitsPattern})`;
}

/**
 * The `q` condition (searchMatches), and how it is evaluated.
 *
 * Under row-level security the trigram index customers_search cannot serve this condition (LIKE is not
 * leakproof): evaluated on the rows, the condition makes a rare term read every row of the company. The
 * ordered scan is still the fastest for a common term, as it stops at the page's last row, so:
 * - one statement reads the first SEARCH_HEAD rows of the page (same filters, cursor and order). When they
 *   hold the whole page (take matches, or they are all the rows), or the term is common in them
 *   (SEARCH_DENSE), the condition is evaluated on the rows;
 * - otherwise the same statement asks app_search_customers (drizzle/0023), which runs the same condition for
 *   this tenant through the index, past the policy, and proposes the ids; the rows are still read under the
 *   policy (`id = any(ids)`). Past SEARCH_CANDIDATES matches the term is common after all: the rows are scanned;
 * - a term the index cannot look up (term.indexable, term.multiline) is evaluated on the rows.
 * Every path gives the same rows, in the page's order; only the cost differs.
 */
async function searchCondition(
  tx: Tx,
  term: SearchTerm,
  fields: FieldSearch | undefined,
  page: { conditions: (SQL | undefined)[]; orderBy: SQL[]; take: number },
): Promise<SQL> {
  const scanned = searchMatches(term, fields);
  if (!term.indexable || term.multiline || (fields !== undefined && !fields.indexable)) return scanned;
  // The custom fields' candidates (drizzle/0050) join the others; being only candidates, they are checked again.
  const ofFields =
    fields === undefined
      ? sql``
      : sql` union select app_search_customer_fields(${`{${fields.patterns.map(arrayItem).join(',')}}`}::text[],
                                                       ${SEARCH_CANDIDATES + 1})`;
  // The array is an init plan, computed only when the CASE takes that branch (and once: materialized).
  const [found] = await tx.execute<{ ids: string | null; n: number | null }>(sql`
    with s as materialized (
      select case when head.n < ${SEARCH_HEAD} or head.hits >= ${page.take}
                    or head.hits * ${SEARCH_DENSE} >= head.n then null
                  else array(select app_search_customers(${term.pattern}, ${term.digitsPattern}::text,
                                                         ${SEARCH_CANDIDATES + 1})${ofFields}) end as ids
      from (select count(*) as n, count(*) filter (where hit) as hits
            from (select ${scanned} as hit from ${customers} where ${and(...page.conditions)}
                  order by ${sql.join(page.orderBy, sql`, `)} limit ${SEARCH_HEAD}) h) head)
    select ids::text as ids, cardinality(ids) as n from s`);
  if (found.ids === null || found.n === null || found.n > SEARCH_CANDIDATES) return scanned;
  const candidates = sql`${customers.id} = any(${found.ids}::uuid[])`;
  return fields === undefined ? candidates : sql`(${candidates} and ${scanned})`;
}

/** The values of a page's conditions, `q` aside: only the filters given. */
type ConditionValues = {
  companyId: string;
  status?: CustomerFilters['status'];
  type?: CustomerFilters['type'];
  email?: string;
  updatedSince?: number;
};

function conditionValues(companyId: string, filters: CustomerFilters): ConditionValues {
  const values: ConditionValues = { companyId };
  if (filters.status) values.status = filters.status;
  if (filters.type) values.type = filters.type;
  // An empty address is a value too (it matches no one), not a missing filter.
  if (filters.email !== undefined) values.email = filters.email;
  if (filters.updatedSince) values.updatedSince = sinceSeconds(filters.updatedSince);
  return values;
}

/** The conditions of a page of customers, `q` aside, on conditionValues' values (or on their placeholders). */
function pageConditions(v: Slotted<ConditionValues>, where?: SQL): (SQL | undefined)[] {
  const conditions: (SQL | undefined)[] = [eq(customers.companyId, v.companyId), where];
  if (v.status !== undefined) conditions.push(eq(customers.status, v.status));
  if (v.type !== undefined) conditions.push(eq(customers.type, v.type));
  if (v.email !== undefined) conditions.push(sql`${customers.emailLower} = lower(${v.email})`);
  if (v.updatedSince !== undefined) conditions.push(atOrAfterSeconds(customers.updatedAt, v.updatedSince));
  return conditions;
}

/** A page with `q`: the search may ask the index first (searchCondition), so it runs in the transaction. */
export async function searchCustomers(tx: Tx, companyId: string, page: PageRequest, filters: CustomerFilters) {
  const plan = keyset(page, SORTS, customers.id);
  const conditions = pageConditions(conditionValues(companyId, filters), plan.where);
  conditions.push(await metadataCondition(tx, customers, filters.metadata), filters.customFields);
  if (filters.q) {
    const term = searchTerm(filters.q);
    const fields = customFieldSearch(filters.searchFields ?? new Map(), customers.customFields, term);
    conditions.push(await searchCondition(tx, term, fields, { conditions, orderBy: plan.orderBy, take: plan.take }));
  }
  const rows = await tx
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  return { rows, plan };
}

const customerPages = pageReader(customers, { sorts: SORTS, id: customers.id });

/**
 * A page without `q`: its one statement as the tenant in one round trip, built once per shape (pageReader). With a
 * metadata filter, whose candidates are values of this request, the statement is built for the request (readPage).
 */
export async function readCustomerPage(tenant: Tenant, page: PageRequest, filters: CustomerFilters) {
  const values = conditionValues(tenant.companyId, filters);
  const metadata = await metadataCondition(tenant, customers, filters.metadata);
  if (metadata || filters.customFields)
    return readPage(tenant, customers, page, { sorts: SORTS, id: customers.id }, [
      ...pageConditions(values),
      metadata,
      filters.customFields,
    ]);
  return customerPages(tenant, page, { values, conditions: (p) => pageConditions(slotsFor(values, p)) });
}

const CUSTOMER = prepared<{ companyId: string; id: string }>((p) =>
  builder
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, p.companyId), eq(customers.id, p.id))),
);

/**
 * The customer in the transaction. Built once, and handed to the connection now (before this returns), so that a
 * statement the caller sends next goes behind it in the same round trip (inOrder).
 */
export async function findCustomer(tx: Tx, companyId: string, id: string): Promise<CustomerRow | undefined> {
  const [row] = tableRows(customers, await CUSTOMER.run(tx, { companyId, id }));
  return row;
}

/** The customer by id outside a transaction, as the tenant in one round trip (readAsTenant). */
export async function readCustomer(tenant: Tenant, id: string): Promise<CustomerRow | undefined> {
  const [row] = tableRows(customers, await CUSTOMER.read(tenant, { companyId: tenant.companyId, id }));
  return row;
}

/**
 * The customer, locked until the transaction ends: a read-modify-write (update, convert) then sees the
 * latest committed version, so concurrent writers queue instead of failing without an If-Match. The change time
 * is taken after the lock (see change-time.ts) in the same statement: app_now_after_lock() is evaluated above the
 * subquery's row lock (its `limit` keeps the condition out of the subquery, so it runs on the locked row).
 */
export function lockCustomer(tx: Tx, companyId: string, id: string): Promise<CustomerRow | undefined> {
  return lockRecord(tx, customers, companyId, id);
}

/** A record's columns to write; its metadata a value, or an update's merge into the stored one (metadataChange). */
export type CustomerFields = Partial<
  Omit<typeof customers.$inferInsert, 'companyId' | 'id' | 'version' | 'metadata'>
> & {
  metadata?: Metadata | SQL;
};

/**
 * The fields with the phone also in E.164 (phone_e164) when they set the phone: read with the company's country
 * as the default region, so that `06 12345678` of a Dutch company is `+31612345678`.
 */
async function withE164<F extends { phone?: unknown }>(tx: Tx, companyId: string, fields: F, country?: CompanyCountry) {
  if (fields.phone === undefined) return fields;
  if (fields.phone !== null && typeof fields.phone !== 'string') return fields;
  if (fields.phone === null) return { ...fields, phoneE164: null };
  const region =
    country !== undefined
      ? country.country
      : ((await COMPANY_COUNTRY.run(tx, { companyId }))[0]?.country as string | null);
  return { ...fields, phoneE164: toE164(fields.phone, region ?? 'NL') };
}

/**
 * The company's country when the caller knows it already: the request's key carries it (src/auth/key-store.ts, kept
 * current by the companies_changed notification), which spares a creation the read and its round trip.
 */
export type CompanyCountry = { country: string | null };

const COMPANY_COUNTRY = prepared<{ companyId: string }>((p) =>
  builder.select({ country: companies.country }).from(companies).where(eq(companies.id, p.companyId)).limit(1),
);

export async function insertCustomer(tx: Tx, companyId: string, fields: CustomerFields & { email: string }) {
  const [row] = await tx
    .insert(customers)
    .values({ ...(await withE164(tx, companyId, fields)), companyId, id: newId() })
    .returning();
  return row;
}

/**
 * The new customer, or undefined when the company has a customer with that email already (in any case): the
 * unique index customers_email answers in the same statement, also for a concurrent creation, which the insert
 * waits for. No separate look-up, and no failed statement to roll back.
 */
export async function insertCustomerUnlessEmailTaken(
  tx: Tx,
  companyId: string,
  fields: CustomerFields & { email: string },
  country?: CompanyCountry,
): Promise<CustomerRow | undefined> {
  const values: Record<string, unknown> = {
    ...(await withE164(tx, companyId, fields, country)),
    companyId,
    id: newId(),
  };
  const columns = Object.keys(values).filter((key) => values[key] !== undefined);
  const statement = INSERTS.of(columns.join(), (p) =>
    builder
      .insert(customers)
      .values({ ...slotsOf(columns, p), email: p.email, companyId: p.companyId, id: p.id })
      .onConflictDoNothing({ target: [customers.companyId, customers.emailLower] })
      .returning(),
  );
  const [row] = tableRows(customers, await statement.run(tx, values));
  return row;
}

/** The statements of creations and of PATCHes, one per set of columns sent (and of versions an If-Match names). */
const INSERTS = new PreparedShapes<Record<string, unknown>>();
const PATCHES = new PreparedShapes<Record<string, unknown>>();

/** The placeholders of `keys`, under their names (a statement's columns). */
const slotsOf = (keys: string[], p: Record<string, Placeholder>) =>
  Object.fromEntries(keys.map((key) => [key, p[key]]));

/** The columns a change writes: values, or SQL such as app_now() to take the change's own time. */
export type CustomerChanges = Omit<PgUpdateSetSource<typeof customers>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

/** Updates when the version still matches (or none is expected); undefined when it did not. */
export async function updateCustomer(
  tx: Tx,
  companyId: string,
  id: string,
  fields: CustomerChanges,
  expected?: number,
) {
  return writeCustomer(tx, companyId, id, fields, [
    expected === undefined ? undefined : eq(customers.version, expected),
  ]);
}

/** The customer's new values with the next version, at the change time, where `conditions` hold; its new row. */
async function writeCustomer(
  tx: Tx,
  companyId: string,
  id: string,
  fields: CustomerChanges,
  conditions: (SQL | undefined)[],
): Promise<CustomerRow | undefined> {
  const [row] = await tx
    .update(customers)
    .set({
      ...(await withE164(tx, companyId, fields)),
      updatedAt: sql`app_now()`,
      version: sql`${customers.version} + 1`,
    })
    .where(and(eq(customers.companyId, companyId), eq(customers.id, id), ...conditions))
    .returning();
  return row;
}

/**
 * A PATCH's write, sent right behind lockCustomer (same round trip): the customer, where its version is one of
 * `expected` (undefined: any) and one of `fields` differs from what is stored, gets them with the next version,
 * at the change time the lock took. Undefined when nothing was written: not found, another version, or nothing to
 * change — the locked row tells which.
 */
export async function updateCustomerIfChanged(
  tx: Tx,
  companyId: string,
  id: string,
  fields: CustomerFields,
  expected: ReadonlySet<number> | undefined,
  patches: { metadata?: string | null; customFields?: string } = {},
): Promise<CustomerRow | undefined> {
  const { metadata, customFields } = patches;
  const merges = metadata !== undefined;
  const mergesValues = customFields !== undefined;
  const sent = Object.keys(fields);
  // Nothing sent, or an If-Match that names no version: nothing this statement could update.
  if ((sent.length === 0 && !merges && !mergesValues) || expected?.size === 0) return undefined;
  const values: Record<string, unknown> = { ...(await withE164(tx, companyId, fields)), companyId, id };
  const written = Object.keys(values).filter((key) => key !== 'companyId' && key !== 'id');
  // The metadata's patch is a value of its merge (metadataMerge), not the column's new value.
  if (merges) values.metadataPatch = metadata;
  // The custom fields' patch merges the same way (checked against the company's fields before).
  if (mergesValues) values.customFieldsPatch = customFields;
  const versions = expected === undefined ? [] : [...expected];
  versions.forEach((version, i) => {
    values[`version${i}`] = version;
  });
  const columns = getTableColumns(customers);
  const shape = `${written.join()}|${sent.join()}|${merges ? 'metadata' : ''}|${mergesValues ? 'custom_fields' : ''}|${expected === undefined ? '*' : versions.length}`;
  const statement = PATCHES.of(shape, (p) => {
    const merged = {
      ...(merges ? { metadata: metadataMerge(customers.metadata, p.metadataPatch) } : {}),
      ...(mergesValues ? { customFields: metadataMerge(customers.customFields, p.customFieldsPatch) } : {}),
    };
    return builder
      .update(customers)
      .set({ ...slotsOf(written, p), ...merged, updatedAt: sql`app_now()`, version: sql`${customers.version} + 1` })
      .where(
        and(
          eq(customers.companyId, p.companyId),
          eq(customers.id, p.id),
          expected === undefined
            ? undefined
            : inArray(
                customers.version,
                versions.map((_, i) => p[`version${i}`]),
              ),
          or(
            ...sent.map((key) => sql`${columns[key as keyof CustomerFields]} is distinct from ${p[key]}`),
            merged.metadata && sql`${customers.metadata} is distinct from ${merged.metadata}`,
            merged.customFields && sql`${customers.customFields} is distinct from ${merged.customFields}`,
          ),
        ),
      )
      .returning();
  });
  const [row] = tableRows(customers, await statement.run(tx, values));
  return row;
}

/**
 * Activity with the customer (a note on it, a deal of it, a note on one of its deals), in the activity's
 * transaction. last_activity_at is part of the customer's representation, so this is a change like any other:
 * updated_at (filter[updated_since]) and the version (ETag) move with it. No customer.updated event: the
 * activity's own event (note.created, deal.*) tells what happened.
 */
export async function touchCustomerActivity(tx: Tx, companyId: string, id: string) {
  // Not after the customer's lock (the activity locked its deal or nothing): never before the customer's last change.
  await touchCustomersActivity(tx, companyId, [id]);
}

/**
 * The customers a batch of deals names, locked (FOR NO KEY UPDATE, in id order) until the transaction ends: each is
 * checked to be the company's, and its activity is touched after the batch's writes (touchCustomersActivity) without
 * two batches ever waiting for each other in a cycle. The ids of those that exist.
 */
export async function lockCustomersForActivity(tx: Tx, companyId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), inArray(customers.id, ids)))
    .orderBy(customers.id)
    .for('no key update');
  return new Set(rows.map((row) => row.id));
}

/** touchCustomerActivity for several customers in one statement (a batch of deals). */
export async function touchCustomersActivity(tx: Tx, companyId: string, ids: string[]) {
  if (ids.length === 0) return;
  // Its answer is not needed: sent with the transaction's COMMIT.
  await sendUntilCommit(
    tx,
    tx
      .update(customers)
      .set({
        lastActivityAt: notBefore(customers.lastActivityAt),
        updatedAt: notBefore(customers.updatedAt),
        version: sql`${customers.version} + 1`,
      })
      .where(and(eq(customers.companyId, companyId), inArray(customers.id, ids))),
  );
}

/** A customer's contact details, as the inbox and the agenda show them beside a conversation or an appointment. */
export type CustomerContact = { name: string | null; email: string; phone: string | null };

const CONTACT_FIELDS = { name: customers.name, email: customers.email, phone: customers.phone };

/**
 * The contact details of each row's customer, read with a list's page (lists of conversations and of
 * appointments). The customer is read as it is now, so a renamed customer shows its new name everywhere.
 */
export const customerContact = (row: {
  companyId: AnyColumn;
  customerId: AnyColumn;
}): Related<CustomerContact | undefined> =>
  relatedRow(CONTACT_FIELDS, customers, and(eq(customers.companyId, row.companyId), eq(customers.id, row.customerId)));

/** One customer's contact details (one conversation or appointment); undefined when the customer is gone. */
export async function contactOf(tx: Tx, companyId: string, customerId: string): Promise<CustomerContact | undefined> {
  const [row] = await tx
    .select(CONTACT_FIELDS)
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)));
  return row;
}

/**
 * The customers a batch names (by id, or by lowercase email), locked until the transaction ends, in id order so
 * that two batches naming the same customers queue rather than deadlock. The change time is taken after the
 * locks, as lockCustomer does (the volatile condition stays above the locking subquery).
 */
export function lockCustomersOfBatch(
  tx: Tx,
  companyId: string,
  ids: string[],
  emailsLower: string[],
): Promise<CustomerRow[]> {
  if (ids.length === 0 && emailsLower.length === 0) return Promise.resolve([]);
  return lockRecords(
    tx,
    customers,
    and(
      eq(customers.companyId, companyId),
      or(
        ids.length ? inArray(customers.id, ids) : undefined,
        emailsLower.length ? inArray(customers.emailLower, emailsLower) : undefined,
      ),
    ),
  );
}

/** The columns a batch writes: every field of the customer a batch item can send. */
export type BatchColumns = Required<
  Pick<
    CustomerFields,
    | 'email'
    | 'type'
    | 'name'
    | 'phone'
    | 'address'
    | 'city'
    | 'postalCode'
    | 'country'
    | 'companyName'
    | 'vatNumber'
    | 'cocNumber'
    | 'peppolId'
  >
> & { metadata: Metadata; customFields: CustomFieldValues };

/** A batch's rows with their phones also in E.164, read with the company's country like withE164 (one lookup). */
async function rowsWithE164<R extends BatchColumns>(tx: Tx, companyId: string, rows: R[]) {
  const [company] = await tx
    .select({ country: companies.country })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1);
  return rows.map((row) => ({ ...row, phoneE164: toE164(row.phone, company?.country ?? 'NL') }));
}

/**
 * New leads of a batch in one statement. A row whose email another transaction created meanwhile is skipped (the
 * unique index answers, after waiting for that transaction): it is not returned, and the batch matches it again.
 */
export async function insertCustomersUnlessEmailTaken(
  tx: Tx,
  companyId: string,
  rows: (BatchColumns & { id: string })[],
): Promise<CustomerRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(customers)
    .values((await rowsWithE164(tx, companyId, rows)).map((row) => ({ ...row, companyId, status: 'lead' as const })))
    .onConflictDoNothing({ target: [customers.companyId, customers.emailLower] })
    .returning();
}

/**
 * Changed customers of a batch in one statement: each (locked by lockCustomersOfBatch) gets its new columns and
 * the next version, at the change time the locks took.
 */
export async function updateCustomersOfBatch(
  tx: Tx,
  companyId: string,
  rows: (BatchColumns & { id: string })[],
): Promise<CustomerRow[]> {
  if (rows.length === 0) return [];
  const input = (await rowsWithE164(tx, companyId, rows)).map((row) => ({
    id: row.id,
    email: row.email,
    type: row.type,
    name: row.name,
    phone: row.phone,
    address: row.address,
    city: row.city,
    postal_code: row.postalCode,
    country: row.country,
    company_name: row.companyName,
    vat_number: row.vatNumber,
    coc_number: row.cocNumber,
    peppol_id: row.peppolId,
    phone_e164: row.phoneE164,
    metadata: row.metadata,
    custom_fields: row.customFields,
  }));
  const u = (column: string) => sql.raw(`u.${column}`);
  return tx
    .update(customers)
    .set({
      email: sql`${u('email')}`,
      type: sql`${u('type')}`,
      name: sql`${u('name')}`,
      phone: sql`${u('phone')}`,
      address: sql`${u('address')}`,
      city: sql`${u('city')}`,
      postalCode: sql`${u('postal_code')}`,
      country: sql`${u('country')}`,
      companyName: sql`${u('company_name')}`,
      vatNumber: sql`${u('vat_number')}`,
      cocNumber: sql`${u('coc_number')}`,
      peppolId: sql`${u('peppol_id')}`,
      phoneE164: sql`${u('phone_e164')}`,
      metadata: sql`${u('metadata')}`,
      customFields: sql`${u('custom_fields')}`,
      updatedAt: sql`app_now()`,
      version: sql`${customers.version} + 1`,
    })
    .from(
      sql`jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as u(id uuid, email text, type text, name text, phone text,
            address text, city text, postal_code text, country text, company_name text, vat_number text, coc_number text,
            peppol_id text, phone_e164 text, metadata jsonb, custom_fields jsonb)`,
    )
    .where(and(eq(customers.companyId, companyId), sql`${customers.id} = u.id`))
    .returning();
}
