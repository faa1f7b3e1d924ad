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
