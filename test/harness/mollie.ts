// A local fake of Mollie's payments API (v2) on 127.0.0.1, for the official client (@mollie/api-client) pointed at
// it with `company payments ID --mollie-base-url`: POST /v2/payments creates an open payment with a checkout link,
// GET /v2/payments/{id} reads one (404 for another key's or an unknown id), in Mollie's JSON (HAL) shape. A test
// moves a payment on (`settle`: paid, failed, expired, canceled), makes the API fail (`down`: 503 or connections
// refused) and posts Mollie's webhook (`notify`: `id=…` as a form to the payment's webhookUrl). Refunds: POST
// /v2/payments/{id}/refunds (a paid payment, at most what is left of it; one refund per Idempotency-Key, as Mollie
// answers a repeated key), GET one and the list; `settleRefund` moves one on, `refuseRefunds` answers 422.
// `holdPayments` keeps new payments' answers until released (a slow Mollie). GET /checkout/{id} is a page naming the
// payment, for a browser sent there. Used by the drill
// (scripts/drills/payments.ts) too, so it imports nothing of the service or of vitest.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FakeStatus = 'open' | 'pending' | 'authorized' | 'paid' | 'failed' | 'expired' | 'canceled';

export type FakePayment = {
  id: string;
  apiKey: string;
  status: FakeStatus;
  amount: { value: string; currency: string };
  description: string;
  redirectUrl: string;
  webhookUrl: string;
  locale: string | null;
  metadata: Record<string, unknown>;
  method: string | null;
  createdAt: string;
  expiresAt: string;
  paidAt: string | null;
};

export type FakeRefundStatus = 'queued' | 'pending' | 'processing' | 'refunded' | 'failed' | 'canceled';

export type FakeRefund = {
  id: string;
  paymentId: string;
  status: FakeRefundStatus;
  amount: { value: string; currency: string };
  description: string;
  metadata: Record<string, unknown>;
  createdAt: string;
};

export type FakeCall = { method: string; path: string; authorization: string | undefined; idempotencyKey?: string };

/** `503`: every request answers 503 (Retry-After: 0); `refuse`: connections are closed at once. */
export type DownMode = 'up' | '503' | 'refuse';

export type FakeMollie = {
  /** The API root to give the client (`…/v2/`). */
  apiUrl: string;
  origin: string;
  payments: Map<string, FakePayment>;
  calls: FakeCall[];
  refunds: Map<string, FakeRefund>;
  down(mode: DownMode): void;
  /** New payments' answers wait until the returned function is called (their calls are recorded at once). */
  holdPayments(): () => void;
  /** The status a new refund is answered with (`pending` unless set). */
  refundStatus(status: FakeRefundStatus): void;
  /** New refunds are refused with 422 and this detail (null: accepted again). */
  refuseRefunds(detail: string | null): void;
  settleRefund(id: string, status: FakeRefundStatus): FakeRefund;
  /** Moves the payment to `status` (as the customer's checkout would), with the method chosen. */
  settle(id: string, status: FakeStatus, method?: string): FakePayment;
  /** Posts Mollie's webhook for the payment to its webhookUrl; answers the service's status and body. */
  notify(id: string, options?: { webhookUrl?: string }): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
};

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const problem = (res: ServerResponse, status: number, title: string, detail: string, field?: string) => {
  res.writeHead(status, { 'content-type': 'application/hal+json' });
  res.end(JSON.stringify({ status, title, detail, ...(field ? { field } : {}), _links: {} }));
};

export async function startFakeMollie(): Promise<FakeMollie> {
  const payments = new Map<string, FakePayment>();
  const calls: FakeCall[] = [];
  const sockets = new Set<Socket>();
  const refunds = new Map<string, FakeRefund>();
  const idempotent = new Map<string, string>();
  let mode: DownMode = 'up';
  let origin = '';
  let held: Promise<void> | null = null;
  let newRefundStatus: FakeRefundStatus = 'pending';
  let refusal: string | null = null;

  const refundJson = (refund: FakeRefund) => ({
    resource: 'refund',
    id: refund.id,
    mode: 'test',
    amount: refund.amount,
    status: refund.status,
    createdAt: refund.createdAt,
    description: refund.description,
    metadata: refund.metadata,
    paymentId: refund.paymentId,
    _links: {
      self: { href: `${origin}/v2/payments/${refund.paymentId}/refunds/${refund.id}`, type: 'application/hal+json' },
      payment: { href: `${origin}/v2/payments/${refund.paymentId}`, type: 'application/hal+json' },
    },
  });
  const cents = (value: string) => Math.round(Number(value) * 100);

  const json = (payment: FakePayment) => ({
    resource: 'payment',
    id: payment.id,
    mode: payment.apiKey.startsWith('live_') ? 'live' : 'test',
    createdAt: payment.createdAt,
    amount: payment.amount,
    description: payment.description,
    method: payment.method,
    metadata: payment.metadata,
    status: payment.status,
    isCancelable: payment.status === 'open',
    ...(payment.status === 'open' ? { expiresAt: payment.expiresAt } : {}),
    ...(payment.paidAt ? { paidAt: payment.paidAt } : {}),
    locale: payment.locale,
    profileId: 'pfl_QkEhN94Ba',
    sequenceType: 'oneoff',
    redirectUrl: payment.redirectUrl,
    webhookUrl: payment.webhookUrl,
    _links: {
      self: { href: `${origin}/v2/payments/${payment.id}`, type: 'application/hal+json' },
      ...(payment.status === 'open'
        ? { checkout: { href: `${origin}/checkout/${payment.id}`, type: 'text/html' } }
        : {}),
      dashboard: { href: `https://my.mollie.com/dashboard/payments/${payment.id}`, type: 'text/html' },
    },
  });

  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const authorization = req.headers.authorization;
    const idempotencyKey = req.headers['idempotency-key'];
    calls.push({
      method: req.method ?? '',
      path,
      authorization,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
    });
    if (mode === 'refuse') {
      req.socket.destroy();
      return;
    }
    if (mode === '503') {
      res.writeHead(503, { 'content-type': 'application/hal+json', 'retry-after': '0' });
      res.end(JSON.stringify({ status: 503, title: 'Service Unavailable', detail: 'Down for a test', _links: {} }));
      return;
    }
    // The checkout a customer is sent to (no key: a browser opens it).
    const checkout = /^\/checkout\/([A-Za-z0-9_]+)$/.exec(path);
    if (req.method === 'GET' && checkout) {
      const payment = payments.get(checkout[1] ?? '');
      res.writeHead(payment ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Test checkout</title><h1 id="payment">${payment ? payment.id : 'unknown'}</h1>`);
      return;
    }
    const apiKey = /^Bearer ((test|live)_[A-Za-z0-9]{30,})$/.exec(authorization ?? '')?.[1];
    if (!apiKey) return problem(res, 401, 'Unauthorized Request', 'Missing authentication, or failed to authenticate');
    if (req.method === 'POST' && path === '/v2/payments') {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      if (held) await held;
      const amount = body.amount as { value?: string; currency?: string } | undefined;
      if (!amount?.value || !/^\d+\.\d{2}$/.test(amount.value) || !amount.currency)
        return problem(res, 422, 'Unprocessable Entity', 'The amount is invalid', 'amount');
      if (typeof body.description !== 'string' || typeof body.redirectUrl !== 'string')
        return problem(res, 422, 'Unprocessable Entity', 'The description and redirectUrl are required', 'description');
      const now = Date.now();
      const payment: FakePayment = {
        id: `tr_${randomBytes(8).toString('hex')}`,
        apiKey,
        status: 'open',
        amount: { value: amount.value, currency: amount.currency },
        description: body.description,
        redirectUrl: body.redirectUrl,
        webhookUrl: typeof body.webhookUrl === 'string' ? body.webhookUrl : '',
        locale: typeof body.locale === 'string' ? body.locale : null,
        metadata: (body.metadata as Record<string, unknown>) ?? {},
        method: null,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 15 * 60_000).toISOString(),
        paidAt: null,
      };
      payments.set(payment.id, payment);
      res.writeHead(201, { 'content-type': 'application/hal+json' });
      res.end(JSON.stringify(json(payment)));
      return;
    }
    const refundsOf = /^\/v2\/payments\/([A-Za-z0-9_]+)\/refunds(?:\/([A-Za-z0-9_]+))?$/.exec(path);
    if (refundsOf) {
      const payment = payments.get(refundsOf[1] ?? '');
      if (!payment || payment.apiKey !== apiKey)
        return problem(res, 404, 'Not Found', `No payment exists with token ${refundsOf[1]}.`);
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/hal+json' });
        res.end(JSON.stringify(body));
      };
      const ofPayment = [...refunds.values()].filter((r) => r.paymentId === payment.id);
      if (req.method === 'GET' && refundsOf[2]) {
        const refund = ofPayment.find((r) => r.id === refundsOf[2]);
        if (!refund) return problem(res, 404, 'Not Found', `No refund exists with token ${refundsOf[2]}.`);
        return answer(200, refundJson(refund));
      }
      if (req.method === 'GET')
        return answer(200, {
          count: ofPayment.length,
          _embedded: { refunds: ofPayment.map(refundJson) },
          _links: { self: { href: `${origin}${path}`, type: 'application/hal+json' }, previous: null, next: null },
        });
      if (req.method !== 'POST' || refundsOf[2]) return problem(res, 404, 'Not Found', 'The resource does not exist');
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      const key = typeof idempotencyKey === 'string' ? `${apiKey}:${idempotencyKey}` : null;
      const repeated = key ? refunds.get(idempotent.get(key) ?? '') : undefined;
      if (repeated) return answer(201, refundJson(repeated));
      if (refusal) return problem(res, 422, 'Unprocessable Entity', refusal, 'amount');
      const amount = body.amount as { value?: string; currency?: string } | undefined;
      if (!amount?.value || !/^\d+\.\d{2}$/.test(amount.value) || amount.currency !== payment.amount.currency)
        return problem(res, 422, 'Unprocessable Entity', 'The amount is invalid', 'amount');
      const refunded = ofPayment
        .filter((r) => r.status !== 'failed' && r.status !== 'canceled')
        .reduce((sum, r) => sum + cents(r.amount.value), 0);
      if (payment.status !== 'paid')
        return problem(res, 422, 'Unprocessable Entity', 'The payment cannot be refunded', 'paymentId');
      if (refunded + cents(amount.value) > cents(payment.amount.value))
        return problem(
          res,
          422,
          'Unprocessable Entity',
          'The amount is higher than the amount that is refundable for this payment',
          'amount',
        );
      const refund: FakeRefund = {
        id: `re_${randomBytes(8).toString('hex')}`,
        paymentId: payment.id,
        status: newRefundStatus,
        amount: { value: amount.value, currency: amount.currency },
        description: typeof body.description === 'string' ? body.description : '',
        metadata: (body.metadata as Record<string, unknown>) ?? {},
        createdAt: new Date().toISOString(),
      };
      refunds.set(refund.id, refund);
      if (key) idempotent.set(key, refund.id);
      return answer(201, refundJson(refund));
    }
    const match = /^\/v2\/payments\/([A-Za-z0-9_]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const payment = payments.get(match[1] ?? '');
      if (!payment || payment.apiKey !== apiKey)
        return problem(res, 404, 'Not Found', `No payment exists with token ${match[1]}.`);
      res.writeHead(200, { 'content-type': 'application/hal+json' });
      res.end(JSON.stringify(json(payment)));
      return;
    }
    problem(res, 404, 'Not Found', 'The resource does not exist');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${origin}/v2/`,
    origin,
    payments,
    calls,
    refunds,
    down: (next) => {
      mode = next;
    },
    holdPayments() {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = () => {
          held = null;
          resolve();
        };
      });
      return release;
    },
    refundStatus: (status) => {
      newRefundStatus = status;
    },
    refuseRefunds: (detail) => {
      refusal = detail;
    },
    settleRefund(id, status) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`fake Mollie: no refund ${id}`);
      refund.status = status;
      return refund;
    },
    settle(id, status, method = 'ideal') {
      const payment = payments.get(id);
      if (!payment) throw new Error(`fake Mollie: no payment ${id}`);
      payment.status = status;
      if (status !== 'open') payment.method = method;
      if (status === 'paid') payment.paidAt = new Date(Date.now() - 1000).toISOString();
      return payment;
    },
    async notify(id, options = {}) {
      const url = options.webhookUrl ?? payments.get(id)?.webhookUrl;
      if (!url) throw new Error(`fake Mollie: no webhook address for ${id}`);
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id }).toString(),
      });
      return { status: response.status, body: await response.text() };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
