// The README's typed-client example ("The typed client"), type-checked with the project (`npm run typecheck`);
// run it against a running service: CRM_API_KEY=svc_... npx tsx examples/typed-client.ts
import { createCrmClient, listAll, newIdempotencyKey, ok } from 'crm-workflow-service/client';

const crm = createCrmClient({
  apiKey: process.env.CRM_API_KEY ?? '',
  baseUrl: process.env.CRM_API_URL ?? 'http://127.0.0.1:3000/api/v1',
});

// A creation that is safe to retry: the same Idempotency-Key replays the first answer.
const { data: customer } = ok(
  await crm.POST('/customers', {
    params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
    body: { email: `eva.${Date.now()}@example.nl`, name: 'Eva de Boer' },
  }),
);

// An update only while nobody else changed the customer since we read it (else 412 precondition_failed).
const read = await crm.GET('/customers/{customer}', { params: { path: { customer: customer.id } } });
const updated = await crm.PATCH('/customers/{customer}', {
  params: { path: { customer: customer.id }, header: { 'If-Match': read.response.headers.get('ETag') ?? '' } },
  body: { phone: '+31 20 123 4567' },
});
console.log(updated.data?.data.phone ?? updated.error?.code);

// Every customer, page after page (cursors).
for await (const c of listAll((cursor) => crm.GET('/customers', { params: { query: { limit: 100, cursor } } }))) {
  console.log(c.id, c.name);
}
