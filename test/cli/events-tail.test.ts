// `npm run cli -- events tail` as a child process against the API on a real socket: it prints the company's new
// events live (each once, in order, only those after its start unless --since), as JSON lines with --json,
// forwards each to a local receiver signed per Standard Webhooks (verified with the `standardwebhooks` library),
// filters by type, and stops with exit 0 on SIGTERM; a wrong key ends it at once. The CLI is killed by its PID.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand, UsageError } from '../../src/cli/args.ts';
import { newSecret } from '../../src/webhooks/sign.ts';
import { signatureHeaders, startReceiver } from '../features/webhook-endpoints/receiver.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { eventually } from '../harness/async.ts';
import { type ChildLines, runNode } from '../integrator/service.ts';

let api: TestApi;
let server: ReturnType<typeof serve>;
let base: string;
const running: ChildLines[] = [];

beforeAll(async () => {
  api = await setupApi();
  const address = await new Promise<AddressInfo>((resolve) => {
    server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info));
  });
  base = `http://127.0.0.1:${address.port}/api/v1`;
});

afterAll(async () => {
  for (const child of running) await child.stop();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

function tail(args: string[], key: string): ChildLines {
  const child = runNode(['--import', 'tsx', 'src/cli/main.ts', 'events', 'tail', '--api-url', base, ...args], {
    CRM_API_KEY: key,
    LOG_LEVEL: 'silent',
  });
  running.push(child);
  return child;
}

const ready = (child: ChildLines) =>
  eventually(async () => {
    expect(child.lines().some((l) => l.startsWith('Tailing the events of company'))).toBe(true);
  }, 30_000);

async function createCustomer(key: string, name: string) {
  const created = await api.call('createCustomer', { key, body: { email: `${name.split(' ')[0]}@example.nl`, name } });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

describe('events tail', () => {
  it('prints the new events live, each once, and forwards them signed to a local URL', async () => {
    const { key } = await api.tenant();
    const before = await createCustomer(key, 'Anna Voorafgaand');
    const receiver = await startReceiver();
    const secret = newSecret();
    const child = tail(
      ['--json', '--interval', '200ms', '--forward-to', receiver.url('/local'), '--secret', secret],
      key,
    );
    await ready(child);

    const ids = [await createCustomer(key, 'Bram Daarna'), await createCustomer(key, 'Carla Daarna')];
    const events = () =>
      child
        .lines()
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
    await eventually(async () => {
      expect(events()).toHaveLength(2);
      expect(receiver.received).toHaveLength(2);
    }, 20_000);
    // More polls pass (the catch-up window overlaps the previous ones): nothing is printed twice.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(events().map((e) => e.data.object.id)).toEqual(ids);
    expect(events().map((e) => e.data.object.id)).not.toContain(before);
    const listed = await api.call('getEvent', { key, params: { event: events()[0].id } });
    expect(events()[0]).toEqual(listed.body.data);

    const verifier = new Webhook(secret);
    for (const [i, message] of receiver.received.entries()) {
      const verified = verifier.verify(message.rawBody, signatureHeaders(message)) as { id: string; type: string };
      expect(verified).toEqual(events()[i]);
      expect(message.headers['webhook-id']).toBe(events()[i].id);
    }
    expect(child.lines().filter((l) => l.includes('forwarded to') && l.endsWith(': 204'))).toHaveLength(2);
    expect(receiver.received).toHaveLength(2);

    const started = Date.now();
    await child.stop();
    expect(await child.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);

  it('with --since also prints earlier events, and --types keeps only those types (text lines)', async () => {
    const { key } = await api.tenant();
    const earlier = await createCustomer(key, 'Dirk Eerder');
    const child = tail(['--since', '1h', '--types', 'customer.created', '--interval', '200ms'], key);
    await ready(child);
    const convert = await api.call('convertCustomer', { key, params: { customer: earlier } });
    expect(convert.status).toBe(200);
    const later = await createCustomer(key, 'Eva Later');
    await eventually(async () => {
      const lines = child.lines().filter((l) => / customer\.created /.test(l));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`customer ${earlier} Dirk Eerder`);
      expect(lines[1]).toContain(`customer ${later} Eva Later`);
    }, 20_000);
    expect(child.lines().some((l) => l.includes('customer.converted'))).toBe(false);

    // A change that began a minute ago but commits only now: its event appears with the earlier time, behind
    // events already printed, and is printed all the same (the catch-up window overlaps by 5 minutes).
    const late = 'evt_LateLateLateLateLate00';
    await api.sql`insert into events (company_id, id, type, scope, customer_id, data, created_at)
                  select company_id, ${late}, type, scope, customer_id, data, now() - interval '60 seconds'
                  from events where type = 'customer.created' and customer_id = ${later}`;
    await eventually(async () => {
      expect(child.lines().filter((l) => l.includes(late))).toHaveLength(1);
    }, 20_000);
    expect(child.lines().filter((l) => / customer\.created /.test(l))).toHaveLength(3);
  }, 60_000);

  it('ends at once with exit 1 when the key is refused', async () => {
    const child = tail([], 'svc_notarealkeynotarealkeynotarealkeynotarealkeynota');
    expect(await child.exited).toBe(1);
    expect(child.lines().join('\n')).toMatch(/401/);
  }, 30_000);
});

describe('events tail arguments', () => {
  const parse = (...args: string[]) => parseCommand(['events', 'tail', '--key', 'svc_x', ...args]);

  it('reads durations, URLs and secrets', () => {
    const command = parse('--since', '10m', '--forward-to', 'http://127.0.0.1:4242/webhooks', '--interval', '500ms');
    expect(command).toMatchObject({
      name: 'events tail',
      apiKey: 'svc_x',
      forwardTo: 'http://127.0.0.1:4242/webhooks',
      intervalMs: 500,
    });
    if (command.name !== 'events tail') throw new Error(command.name);
    expect(Math.abs((command.since?.getTime() ?? 0) - (Date.now() - 600_000))).toBeLessThan(5_000);
  });

  it.each([
    [['--since', 'yesterday'], /--since/],
    [['--forward-to', 'ftp://x'], /--forward-to/],
    [['--secret', newSecret()], /--forward-to too/],
    [['--forward-to', 'http://127.0.0.1:1', '--secret', 'nope'], /--secret/],
    [['--interval', '10ms'], /at least 200ms/],
    [['--types', 'Deal won'], /--types/],
  ])('refuses %j', (args, message) => {
    expect(() => parse(...args)).toThrow(UsageError);
    expect(() => parse(...args)).toThrow(message);
  });
});
