// The API process's requests shared between companies in turn (issue 46, src/http/request-turns.ts): a company holds
// at most its share of the turns, so another company's request starts while the first company's requests wait; a
// company with too many waiting is answered 429 concurrency_limited with Retry-After (checked against the contract
// by `call`), and /metrics shows the turns and counts the refusal. The waits are made by a row lock the test holds,
// never by timing.
import { connect } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { listenOnLoopback } from '../harness/loopback-server.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let api: TestApi;
let owner: postgres.Sql;

beforeAll(async () => {
  // Four turns: a company may hold two of them, and three of its requests may wait.
  api = await setupApi({ API_REQUEST_TURNS: '4', API_REQUESTS_WAITING_PER_COMPANY: '3', METRICS_TOKEN: TOKEN });
  owner = postgres(api.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await owner.end({ timeout: 1 });
});

const metric = async (line: string) => {
  const response = await api.app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  const found = (await response.text()).split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
};

/**
 * B's two turns held: the test locks the customer's row, and two changes of B wait for it, each holding a turn.
 * `release` lets them go (and may be called again); `changes` are their answers.
 */
async function holdTurnsOf(key: string, id: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const locked = owner.begin(async (tx) => {
    await tx`select id from customers where id = ${id} for update`;
    held();
    await released;
  });
  await holding;
  const changes = ['Eén', 'Twee'].map((name) =>
    api.call('updateCustomer', { key, params: { customer: id }, body: { name } }),
  );
  await until(() => api.deps.requestTurns.running === 2, "B's two changes hold B's two turns");
  return {
    changes,
    release: async () => {
      release();
      await locked;
    },
  };
}

describe('request turns', () => {
  it("a company's waiting requests leave turns to another company; one too many waiting is refused with 429", async () => {
    expect(api.deps.requestTurns.limits).toEqual({ turns: 4, turnsPerCompany: 2, waitingPerCompany: 3 });
    const b = await api.tenant();
    const a = await api.tenant();
    const created = await api.call('createCustomer', { key: b.key, body: { email: 'slot@example.nl', name: 'Vast' } });
    const id = created.body.data.id as string;
    const refusedBefore = await metric('crm_concurrency_refusals_total{kind="requests"}');

    // B's changes wait for a row the test locks, each holding one of B's turns.
    const turns = await holdTurnsOf(b.key, id);
    try {
      const { changes } = turns;
      // Two turns are free, but B holds its share: its next requests wait.
      const waiting = [1, 2, 3].map(() => api.call('getMe', { key: b.key }));
      await until(() => api.deps.requestTurns.waiting === 3, "B's next three requests wait");
      expect(await metric('crm_request_turns{state="waiting"}')).toBe(3);

      const refused = await api.call('getMe', { key: b.key, headers: { 'Accept-Language': 'en' } });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'concurrency_limited', status: 429 });
      expect(refused.body.detail).toMatch(/3 requests waiting for their turn/);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await metric('crm_concurrency_refusals_total{kind="requests"}')).toBe(refusedBefore + 1);

      // A is answered now, while B's requests still wait.
      const other = await api.call('getMe', { key: a.key });
      expect(other.status).toBe(200);
      expect(api.deps.requestTurns.waiting).toBe(3);

      await turns.release();
      expect((await Promise.all(changes)).map((r) => r.status)).toEqual([200, 200]);
      expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200, 200]);
      expect(api.deps.requestTurns.running + api.deps.requestTurns.waiting).toBe(0);
    } finally {
      await turns.release();
    }
  });

  it('a request whose client went away while it waited for its turn gives the turn back', async () => {
    const b = await api.tenant();
    const { origin } = await listenOnLoopback(api.app, api.config);
    const created = await api.call('createCustomer', { key: b.key, body: { email: 'weg@example.nl', name: 'Weg' } });
    const id = created.body.data.id as string;
    // B's changes wait for a row the test locks, each holding one of B's turns.
    const turns = await holdTurnsOf(b.key, id);
    try {
      const { changes } = turns;
      // A whole POST over a socket, which then closes while the request waits for B's turn.
      const body = JSON.stringify({ email: 'later@example.nl', name: 'Later' });
      const { port } = new URL(origin);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `POST /api/v1/customers HTTP/1.1\r\nHost: api.test\r\nAuthorization: Bearer ${b.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await until(() => api.deps.requestTurns.waiting === 1, 'the POST waits for its turn');
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await turns.release();
      expect((await Promise.all(changes)).map((r) => r.status)).toEqual([200, 200]);
      // Its turn came and went: reading the body of a gone client does not wait for ever, holding the turn.
      await until(
        () => api.deps.requestTurns.running + api.deps.requestTurns.waiting === 0,
        'every turn is given back',
        10_000,
      );
      expect((await api.call('getMe', { key: b.key })).status).toBe(200);
    } finally {
      await turns.release();
    }
  });
});
