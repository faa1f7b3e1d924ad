// One postgres.js pool per process and the drizzle instance on it.
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.ts';

export type Sql = postgres.Sql;
export type Db = ReturnType<typeof createDb>['db'];

export function createDb(url: string, max = 10) {
  const sql = postgres(url, {
    max,
    onnotice: () => {},
    // Timestamps stay strings where a cursor needs every digit; drizzle maps them per column.
    connection: { application_name: 'crm-service' },
  });
  const db = drizzle(sql, { schema });
  return { sql, db };
}

/**
 * A pool whose sessions run as app_api from the start (the `role` startup parameter), for readAsTenant: its
 * statements are planned as app_api, so row-level security is part of every plan and prepared statements
 * (planned once per connection) can be used. Nothing on it can read a row without app.company_id set.
 */
export function createTenantPool(url: string, max = 10): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    connection: { application_name: 'crm-service', role: 'app_api' } as Record<string, string>,
  });
}
