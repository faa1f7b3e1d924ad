// A company with one webhook endpoint (every event) posting to a receiver on 127.0.0.1, and one customer whose
// events a test records: what the tests of worker processes (several workers, a database outage) deliver.
import type { Db } from '../../src/db/client.ts';
import * as schema from '../../src/db/schema/index.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { prefixedId } from '../../src/ids.ts';
import { insertCustomer } from '../../src/resources/customers/queries.ts';
import { serializeCustomer } from '../../src/resources/customers/serialize.ts';
import { createCompany } from '../../src/services/companies.ts';
import { newSecret } from '../../src/webhooks/sign.ts';

export async function companyWithEndpoint(
  db: Db,
  receiverPort: number,
  names: { company: string; customer: string; email: string },
): Promise<{ companyId: string; customer: { id: string; object: unknown } }> {
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
  return { companyId, customer };
}
