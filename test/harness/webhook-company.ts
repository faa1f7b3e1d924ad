// A company with one webhook endpoint (every event) posting to a receiver on 127.0.0.1, and one customer whose
// events a test records: what the tests of worker processes (several workers, a database outage) deliver.
import type { Db } from '../../src/db/client.ts';
import * as schema from '../../src/db/schema/index.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/record.ts';
import { prefixedId } from '../../src/ids.ts';
import { insertCustomer } from '../../src/resources/customers/queries.ts';
import { serializeCustomer } from '../../src/resources/customers/serialize.ts';
import { createCompany } from '../../src/services/companies.ts';
import { newSecret } from '../../src/webhooks/sign.ts';

export async function companyWithEndpoint(
  db: Db,
  receiverPort: number,
  names: { company: string; customer: string; email: string },
): Promise<{
  companyId: string;
  customer: { id: string; object: unknown };
  /** `n` customer.updated events in one transaction (each with its fan-out job): their ids. */
  burst: (n: number) => Promise<string[]>;
}> {
  const { id: companyId } = await createCompany(db, { name: names.company });
  const customer = await withTenant(db, companyId, async (tx) => {
    await tx.insert(schema.webhookEndpoints).values({
      companyId,
      id: prefixedId('we'),
      url: `http://127.0.0.1:${receiverPort}/hook`,
      secret: newSecret(),
      events: ['*'],
      scopes: ['customers.read'],
    });
    const row = await insertCustomer(tx, companyId, { email: names.email, name: names.customer });
    return { id: row.id, object: serializeCustomer(row) };
  });
  const burst = (n: number) =>
    withTenant(db, companyId, async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++)
        ids.push(
          await recordEvent(tx, companyId, {
            type: 'customer.updated',
            scope: 'customers.read',
            customerId: customer.id,
            object: customer.object,
          }),
        );
      return ids;
    });
  return { companyId, customer, burst };
}
