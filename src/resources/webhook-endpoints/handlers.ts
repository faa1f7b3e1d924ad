import { type SQL, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { WebhookEndpointUpdateSchema } from '../../../generated/routes.ts';
import { inOrder } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { changedMetadata, newMetadata } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { newSecret } from '../../webhooks/sign.ts';
import type { UrlPolicy } from '../../webhooks/url-guard.ts';
import { webhookMessages } from './messages.ts';
import { sendPing } from './ping.ts';
import * as q from './queries.ts';
import { checkEndpointUrl, checkSelection, readScopesOf, scopesAfterRedirect } from './rules.ts';
import { type EndpointRow, serializeEndpoint, serializeEndpointWithSecret } from './serialize.ts';

const OVERLAP_SECONDS = { none: null, '1h': 3600, '24h': 86_400, '7d': 7 * 86_400 } as const;

const notFound = () => new ApiProblem('not_found', webhookMessages.message('webhook.endpoint_not_found'));

const policyOf = (c: Context<AppEnv>): UrlPolicy => ({
  allowPrivate: c.get('deps').config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
});

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The columns a PATCH changes; fields sent with the value they already have change nothing. */
function changesOf(
  current: EndpointRow,
  body: z.infer<typeof WebhookEndpointUpdateSchema>,
  keyScopes: ReadonlySet<string>,
): q.EndpointFields {
  const changes: q.EndpointFields = { ...changedMetadata(current.metadata, body.metadata) };
  if (body.url !== undefined && body.url !== current.url) changes.url = body.url;
  if (body.description !== undefined && body.description !== current.description) {
    changes.description = body.description;
  }
  if (body.events !== undefined) {
    // Choosing the events again is choosing them with this key's visibility (as at creation).
    const scopes = readScopesOf(keyScopes);
    if (!sameList(body.events, current.events) || !sameList(scopes, current.scopes)) {
      changes.events = [...body.events];
      changes.scopes = scopes;
    }
  }
  if (body.status !== undefined && body.status !== current.status) {
    const now: SQL = sql`app_now()`;
    changes.status = body.status;
    changes.disabledReason = body.status === 'disabled' ? 'disabled_by_user' : null;
    changes.disabledAt = body.status === 'disabled' ? now : null;
    // Re-enabling starts the failure count again: 5 more days before the service disables it.
    if (body.status === 'active') changes.failingSince = null;
  }
  return changes;
}

export const handlers = {
  listWebhookEndpoints: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await q.listEndpoints(c.get('tenant'), page, {
      status: query['filter[status]'],
      metadata: query.metadata,
    });
    const now = new Date();
    return c.json({ data: data.map((row) => serializeEndpoint(row, now)), meta }, 200);
  },

  getWebhookEndpoint: async (c) => {
    const { endpoint } = c.req.valid('param');
    const row = await q.readEndpoint(c.get('tenant'), endpoint);
    if (!row) throw notFound();
    return c.json({ data: serializeEndpoint(row) }, 200, { ETag: etagOf(row.version) });
  },

  createWebhookEndpoint: async (c) => {
    const body = c.req.valid('json');
    const { companyId, scopes } = c.get('auth');
    const policy = policyOf(c);
    // The checks run inside the idempotent work (DNS included), so a repeat with the same key replays the
    // first answer instead of resolving the host again and perhaps answering differently.
    const created = await runCreation(c, async (tx) => {
      checkSelection(body.events, scopes);
      const refusal = await checkEndpointUrl(body.url, policy);
      if (refusal) throw refusal;
      // The endpoint's time (from which on it receives events) is taken after DNS and the lock, not at the
      // transaction's start. Changes recording an event meanwhile wait for this commit (migration 0019), so an event
      // is either older than the endpoint or sees it and gets its fan-out job, also for the company's first one.
      const { before, row } = await q.insertEndpointCounted(tx, companyId, {
        url: body.url,
        description: body.description ?? null,
        events: [...body.events],
        scopes: readScopesOf(scopes),
        secret: newSecret(),
        metadata: newMetadata(body.metadata),
      });
      // Past the limit, the insert is undone with the transaction (or the idempotent work's savepoint).
      if (before >= q.MAX_ENDPOINTS_PER_COMPANY) {
        throw new ApiProblem(
          'limit_reached',
          webhookMessages.message('webhook.endpoint_limit', { max: q.MAX_ENDPOINTS_PER_COMPANY }),
        );
      }
      return {
        status: 201 as const,
        body: { data: serializeEndpointWithSecret(row) },
        headers: { ETag: etagOf(row.version) },
      };
    });
    return c.json(created.body, created.status, created.headers);
  },

  updateWebhookEndpoint: async (c) => {
    const { endpoint } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId, scopes } = c.get('auth');
    if (body.events !== undefined) checkSelection(body.events, scopes);
    // Resolved before the transaction: a slow DNS answer should not hold a database connection and a lock.
    if (body.url !== undefined) {
      const refusal = await checkEndpointUrl(body.url, policyOf(c));
      if (refusal) throw refusal;
    }
    const describing = Object.keys(body).length === 1 && body.description !== undefined;
    const row = await c.get('tenant').transaction(async (tx) => {
      if (describing) {
        // A new description needs no decision: the lock (with the change time) and the conditional write go in
        // one round trip; the locked row then tells what the write did not do (404, 412, nothing to change).
        const [current, updated] = await inOrder(
          () => q.lockEndpoint(tx, companyId, endpoint),
          () => q.describeEndpointIfChanged(tx, companyId, endpoint, body.description ?? null, expected),
        );
        checkIfMatch(current, expected, notFound);
        return updated ?? current;
      }
      // Deliveries before the endpoint: the delivery task locks in that order too, so the two cannot deadlock.
      // Rolled back with everything else when the checks below fail.
      if (body.status === 'disabled') await q.failPendingDeliveries(tx, companyId, endpoint);
      const current = await q.lockEndpoint(tx, companyId, endpoint);
      checkIfMatch(current, expected, notFound);
      const changes = changesOf(current, body, scopes);
      // Events chosen again take this key's scopes (changesOf); otherwise the endpoint keeps its own.
      if (changes.url !== undefined && changes.scopes === undefined) {
        const kept = scopesAfterRedirect(current.events, current.scopes, scopes);
        if (kept.length !== current.scopes.length) changes.scopes = kept;
      }
      if (Object.keys(changes).length === 0) return current;
      const updated = await q.updateEndpoint(tx, companyId, endpoint, changes);
      if (!updated) throw notFound();
      return updated;
    });
    return c.json({ data: serializeEndpoint(row) }, 200, { ETag: etagOf(row.version) });
  },

  deleteWebhookEndpoint: async (c) => {
    const { endpoint } = c.req.valid('param');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    await c.get('tenant').transaction(async (tx) => {
      // The delivery log first, in the delivery task's lock order (see update); undone by a failed check.
      await q.deleteDeliveryLog(tx, companyId, endpoint);
      const current = await q.lockEndpoint(tx, companyId, endpoint);
      checkIfMatch(current, expected, notFound);
      await q.deleteEndpoint(tx, companyId, endpoint);
      // Again for the deliveries a fan-out wrote since the first pass: it holds the endpoint (FOR KEY SHARE) until
      // its commit, so the deletion above waited for it and this pass sees them.
      await q.deleteDeliveryLog(tx, companyId, endpoint);
    });
    return c.json({ data: { object: 'webhook_endpoint', id: endpoint, deleted: true as const } }, 200);
  },

  testWebhookEndpoint: async (c) => {
    const { endpoint } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const row = await q.readEndpoint(c.get('tenant'), endpoint);
    if (!row) throw notFound();
    const decision = await c.get('deps').webhookTestLimits.consume(`${companyId}:${endpoint}`);
    if (!decision.allowed) {
      throw new ApiProblem(
        'rate_limited',
        webhookMessages.message('webhook.test_rate_limited'),
        {},
        { 'Retry-After': String(Math.max(1, decision.retryAfter)) },
      );
    }
    // Sent outside any transaction: the receiver may take up to 10 seconds.
    return c.json({ data: await sendPing(row, policyOf(c)) }, 200);
  },

  rotateWebhookEndpointSecret: async (c) => {
    const { endpoint } = c.req.valid('param');
    // Without a body the route hands over {}: the contract's default overlap applies.
    const { overlap = '24h' } = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    const rotated = await runCreation(c, async (tx) => {
      const current = await q.lockEndpoint(tx, companyId, endpoint);
      checkIfMatch(current, expected, notFound);
      const row = await q.rotateSecret(tx, companyId, endpoint, newSecret(), OVERLAP_SECONDS[overlap]);
      if (!row) throw notFound();
      return {
        status: 200 as const,
        body: { data: serializeEndpointWithSecret(row) },
        headers: { ETag: etagOf(row.version) },
      };
    });
    return c.json(rotated.body, rotated.status, rotated.headers);
  },
} satisfies Partial<Handlers>;
