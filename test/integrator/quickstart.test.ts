// The README's quickstart, step by step, as a newcomer runs it: `WEBHOOK_ALLOW_PRIVATE_URLS=true npm start` (a
// child process on a free port, on a fresh database of the run), the key it prints, the registration and the
// change sent with the README's own request bodies, and examples/webhook-receiver.mjs as a child process that
// prints the verified event — and refuses a forged one.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../harness/async.ts';
import { freePort } from '../harness/processes.ts';
import { type ChildLines, type RunningService, runNode, startService } from './service.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const QUICKSTART = README.slice(
  README.indexOf('## Quickstart'),
  README.indexOf('\n## ', README.indexOf('## Quickstart') + 3),
);

/** The JSON bodies of the section's curl commands (`-d '{…}'`), in order, and the path each is sent to. */
const requests = [...QUICKSTART.matchAll(/-d '(\{.*?\})' \$API(\/[a-z-]+)/g)].map((m) => ({
  body: JSON.parse(m[1]) as Record<string, unknown>,
  path: m[2],
}));

let service: RunningService;
let receiver: ChildLines | undefined;

beforeAll(async () => {
  service = await startService({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

afterAll(async () => {
  await receiver?.stop();
  await service?.stop();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${service.api}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${service.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('the README quickstart', () => {
  it('names the commands this test runs', () => {
    expect(QUICKSTART).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true npm start');
    expect(QUICKSTART).toContain('WEBHOOK_SECRET=whsec_... node examples/webhook-receiver.mjs');
    expect(requests.map((r) => r.path)).toEqual(['/webhook-endpoints', '/customers']);
    // The receiver is as short as the README says.
    const lines = readFileSync(resolve(ROOT, 'examples/webhook-receiver.mjs'), 'utf8').trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(26);
  });

  it('goes from npm start to a verified webhook', async () => {
    // 1. npm start printed the demo company's key (startService read it from the output).
    expect(service.output()).toContain(service.key);

    // 2. Register the receiver's address, on a free port instead of the README's 4242.
    const port = await freePort();
    const [registration, change] = requests;
    const endpoint = await post(registration.path, {
      ...registration.body,
      url: String(registration.body.url).replace('4242', String(port)),
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const secret = endpoint.body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);

    // 3. Run the receiver with that secret.
    receiver = runNode(['examples/webhook-receiver.mjs'], { WEBHOOK_SECRET: secret, RECEIVER_PORT: String(port) });
    await eventually(async () => {
      expect(receiver?.lines()).toContain(`Receiving webhooks on http://127.0.0.1:${port}/webhooks`);
    }, 15_000);

    // A forged message (signed with another secret) is refused with 400 and printed as rejected.
    const forged = await fetch(`http://127.0.0.1:${port}/webhooks`, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJlIG9mIG91cnM=',
      },
      body: '{"type":"customer.created"}',
    });
    expect(forged.status).toBe(400);

    // 4. Make a change: the receiver prints the verified event.
    const customer = await post(change.path, change.body);
    expect(customer.status).toBe(201);
    await eventually(async () => {
      expect(receiver?.lines().some((l) => l.startsWith('verified customer.created evt_'))).toBe(true);
    }, 20_000);
    const printed = receiver?.lines().find((l) => l.startsWith('verified ')) ?? '';
    expect(printed).toContain(`customer ${customer.body.data.id} ${change.body.name}`);
    expect(receiver?.lines().filter((l) => l.startsWith('rejected a message'))).toHaveLength(1);
  }, 60_000);
});
