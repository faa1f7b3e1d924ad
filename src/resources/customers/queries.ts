// SQL of customers; every function takes the tenant transaction first.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Sql } from '../../db/client.ts';
import { customers } from '../../db/schema/index.ts';
import { readAsTenant, type Tx } from '../../db/tenant.ts';
import { keyset, type PageRequest } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import type { CustomerRow } from './serialize.ts';

export type CustomerFilters = {
  q?: string;
  status?: 'lead' | 'customer';
  type?: 'individual' | 'business';
  email?: string;
  updatedSince?: string;
};

const SORTS = { created_at: customers.createdAt, updated_at: customers.updatedAt };

const searchText = sql`customer_search_text(${customers.name}, ${customers.email}, ${customers.companyName}, ${customers.phone})`;

export async function listCustomers(tx: Tx, companyId: string, page: PageRequest, filters: CustomerFilters) {
  const plan = keyset(page, SORTS, customers.id);
  const conditions: (SQL | undefined)[] = [eq(customers.companyId, companyId), plan.where];
  if (filters.status) conditions.push(eq(customers.status, filters.status));
  if (filters.type) conditions.push(eq(customers.type, filters.type));
  if (filters.email) conditions.push(sql`${customers.emailLower} = lower(${filters.email})`);
  if (filters.updatedSince) conditions.push(atOrAfter(customers.updatedAt, filters.updatedSince));
  if (filters.q) {
    // Substring (trigram-indexed ILIKE) or a typo-tolerant word match (<%), both served by customers_search.
    const q = filters.q.toLowerCase();
    const like = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    conditions.push(sql`(${searchText} like ${like} or ${q} <% ${searchText})`);
    // pg_trgm's default word-similarity threshold (0.6) misses two swapped letters in a short word
    // ('jansne' ~ 'jansen' scores 0.57); 0.5 catches them without matching unrelated words.
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', '0.5', true)`);
  }
  const rows = await tx
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  return { rows, plan };
}

export async function findCustomer(tx: Tx, companyId: string, id: string): Promise<CustomerRow | undefined> {
  const [row] = await tx
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, id)));
  return row;
}

/** The statement of readCustomer, built once: its text never changes, only its two uuids. */
let readCustomerStatement: string | undefined;

/** The customer by id outside a transaction, as the tenant in one round trip (readAsTenant). */
export async function readCustomer(
  deps: { db: Db; sql: Sql },
  companyId: string,
  id: string,
): Promise<CustomerRow | undefined> {
  readCustomerStatement ??= deps.db
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, sql.placeholder('companyId')), eq(customers.id, sql.placeholder('id'))))
    .toSQL().sql;
  const [row] = await readAsTenant(deps.sql, companyId, customers, {
    sql: readCustomerStatement,
    params: [companyId, id],
  });
  return row;
}

/**
 * The customer, locked until the transaction ends: a read-modify-write (update, convert) then sees the
 * latest committed version, so concurrent writers queue instead of failing without an If-Match.
 */
export async function lockCustomer(tx: Tx, companyId: string, id: string): Promise<CustomerRow | undefined> {
  const [row] = await tx
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, id)))
    .for('update');
  return row;
}

export async function emailInUse(tx: Tx, companyId: string, email: string, exceptId?: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(
        eq(customers.companyId, companyId),
        sql`${customers.emailLower} = lower(${email})`,
        exceptId ? sql`${customers.id} <> ${exceptId}` : undefined,
      ),
    );
  return row !== undefined;
}

export type CustomerFields = Partial<Omit<typeof customers.$inferInsert, 'companyId' | 'id' | 'version'>>;

export async function insertCustomer(tx: Tx, companyId: string, fields: CustomerFields & { email: string }) {
  const [row] = await tx
    .insert(customers)
    .values({ ...fields, companyId, id: newId() })
    .returning();
  return row;
}

/** Updates when the version still matches (or none is expected); undefined when it did not. */
export async function updateCustomer(tx: Tx, companyId: string, id: string, fields: CustomerFields, expected?: number) {
  const [row] = await tx
    .update(customers)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${customers.version} + 1` })
    .where(
      and(
        eq(customers.companyId, companyId),
        eq(customers.id, id),
        expected === undefined ? undefined : eq(customers.version, expected),
      ),
    )
    .returning();
  return row;
}
