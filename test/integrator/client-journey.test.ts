// The integrator's journey with the exported typed client (`crm-workflow-service/client`) against the real
// service, started as `npm start` runs it (a child process on a free port, API and worker): directly, and again
// through Prism's validating proxy (`npm run mock -- --proxy`), where any request or answer outside the contract
// would be reported. The webhook message reaches a local receiver and is verified with `standardwebhooks`.
//
// With CRM_API_URL (ending in /api/v1) and CRM_API_KEY set, the journey runs against that service instead of
// starting one (README, "Contract tests"); it must run with WEBHOOK_ALLOW_PRIVATE_URLS=true on this machine.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CrmClient, createCrmClient, ok } from 'crm-workflow-service/client';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeaders, startReceiver } from '../features/webhook-endpoints/receiver.ts';
import { eventually } from '../harness/async.ts';
import { freePort, type Started, startHttpProcess } from '../harness/processes.ts';
import { integratorJourney } from './journey.ts';
import { type RunningService, runNode, startService } from './service.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const given = process.env.CRM_API_URL && process.env.CRM_API_KEY;
let service: RunningService | undefined;
let api: string;
let key: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  if (given) {
    api = process.env.CRM_API_URL as string;
    key = process.env.CRM_API_KEY as string;
  } else {
    service = await startService();
    ({ api, key } = service);
  }
});

afterAll(async () => {
  await service?.stop();
});

/** Runs the journey, wins the deal, and verifies the signed deal.won message the receiver gets. */
async function journeyWithWebhook(client: CrmClient, path: string) {
  const { deal, endpoint } = await integratorJourney(client, {
    behaviour: true,
    webhookUrl: receiver.url(path),
    email: `eva.${randomUUID().slice(0, 8)}@example.nl`,
  });
  const won = ok(await client.POST('/deals/{deal}/win', { params: { path: { deal: deal.id } } })).data;
  expect(won.status).toBe('won');

  const verifier = new Webhook(endpoint.secret);
  await eventually(async () => {
    expect(receiver.received.filter((r) => r.path === path)).toHaveLength(1);
  }, 20_000);
  const message = receiver.received.find((r) => r.path === path);
  if (!message) throw new Error('no message');
  // Verified on the raw body: the library throws unless the v1 signature matches and the timestamp is recent.
  const event = verifier.verify(message.rawBody, signatureHeaders(message)) as {
    id: string;
    type: string;
    data: { object: { id: string; status: string } };
  };
  expect(event.type).toBe('deal.won');
  expect(event.data.object).toMatchObject({ id: deal.id, status: 'won' });
  // A message changed on the way fails verification.
  expect(() => verifier.verify(message.rawBody.replace('"won"', '"lost"'), signatureHeaders(message))).toThrow();
  // The message is the event as the API lists it.
  const listed = ok(await client.GET('/events/{event}', { params: { path: { event: event.id } } })).data;
  expect(JSON.parse(message.rawBody)).toEqual(listed);
  ok(await client.DELETE('/webhook-endpoints/{endpoint}', { params: { path: { endpoint: endpoint.id } } }));
}

describe('the typed client against the real service', () => {
  it('creates, updates, pages, moves a deal and receives its verified webhook', async () => {
    await journeyWithWebhook(createCrmClient({ baseUrl: api, apiKey: key, language: 'en' }), '/direct');
  }, 60_000);

  it('answers problems typed by the contract', async () => {
    const client = createCrmClient({ baseUrl: api, apiKey: key, language: 'en' });
    const missing = await client.GET('/customers/{customer}', {
      params: { path: { customer: '01900000-0000-7000-8000-000000000001' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'not_found', status: 404 });
    expect(() => ok(missing)).toThrow(/404 not_found/);
    const wrongKey = createCrmClient({ baseUrl: api, apiKey: `${key.slice(0, -1)}x` });
    expect((await wrongKey.GET('/me')).error?.code).toBe('invalid_api_key');
  });
});

describe("examples/typed-client.ts, the README's example", () => {
  it("is the README's code, and runs against the service", async () => {
    const file = readFileSync(resolve(ROOT, 'examples/typed-client.ts'), 'utf8');
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## The typed client'));
    const block = section.slice(
      section.indexOf('```ts\n') + 6,
      section.indexOf('```\n', section.indexOf('```ts\n') + 6),
    );
    // The file is the block plus its two lines of introduction.
    expect(file.split('\n').slice(2).join('\n')).toBe(block);

    const example = runNode(['--import', 'tsx', 'examples/typed-client.ts'], { CRM_API_URL: api, CRM_API_KEY: key });
    expect(await example.exited, example.lines().join('\n')).toBe(0);
    expect(example.lines()[0]).toBe('+31 20 123 4567');
    expect(example.lines().filter((l) => l.endsWith(' Eva de Boer')).length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

describe.skipIf(given)('the same journey through Prism’s validating proxy (npm run mock -- --proxy)', () => {
  let prism: Started;
  const violations: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    prism = await startHttpProcess(
      process.execPath,
      ['--import', 'tsx', 'scripts/mock.ts', '--port', String(port), '--proxy', service?.origin ?? ''],
      `http://127.0.0.1:${port}`,
    );
  });

  afterAll(async () => {
    await prism?.stop();
  });

  it('passes without a violation of the contract', async () => {
    const client = createCrmClient({
      baseUrl: `${prism.url}/api/v1`,
      apiKey: key,
      fetch: async (request) => {
        const response = await fetch(request);
        const reported = response.headers.get('sl-violations');
        if (reported) violations.push(`${request.method} ${request.url}: ${reported}`);
        return response;
      },
    });
    await journeyWithWebhook(client, '/through-prism');
    expect(violations).toEqual([]);
  }, 90_000);
});
