// Every request's work runs in withTenant: one transaction as the non-owner role app_api with
// app.company_id set, so row-level security confines it to one company whatever its queries say.
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export function withTenant<T>(db: Db, companyId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true)`);
    return work(tx);
  });
}
