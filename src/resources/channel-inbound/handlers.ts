// The keyless endpoints of the incoming channels: the WhatsApp Cloud API webhook (handshake, and messages and
// statuses signed with the company's app secret) and an inbound-mail relay's raw email (the company's inbound
// secret). Each authenticates the body before reading it; failures count against the client address like failed
// API keys. What they carry is stored through receiveCustomerMessage.
import type { Context } from 'hono';
import { clientAddress } from '../../auth/ip.ts';
import { tenantOf } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { Handlers } from '../../http/handler.ts';
import type { Message } from '../../http/message-catalogue.ts';
import { message } from '../../http/messages.ts';
import { ApiProblem } from '../../http/problems.ts';
import { socketAddress } from '../../http/request-address.ts';
import { invalidField } from '../../http/validation.ts';
import { receiveCustomerMessage } from '../conversations/incoming.ts';
import { advanceWhatsAppStatus } from '../conversations/queries.ts';
import { serializeMessage } from '../conversations/serialize.ts';
import { type EmailRefusal, parseInboundEmail } from './email.ts';
import { channelInboundMessages as texts } from './messages.ts';
import { companiesOfNumbers, companyOfInboundSecret, verifyTokenKnown } from './settings.ts';
import { changesOf, signatureValid } from './whatsapp.ts';

const tooManyFailures = (retryAfter: number, headers: Record<string, string>) =>
  new ApiProblem(
    'rate_limited',
    message('auth.too_many_failures'),
    {},
    {
      ...headers,
      'Retry-After': String(Math.max(1, retryAfter)),
    },
  );

/**
 * The client address, refused (429) once it has used up its failed authentications (the `auth` window of failed API
 * keys): checked before any credential is judged, so that guessing a secret stops at the limit.
 */
async function admittedAddress(c: Context<AppEnv>): Promise<string> {
  const deps = c.get('deps');
  const clientIp = clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), deps.config.trustedProxies);
  const decision = await deps.authFailureLimits.check(clientIp);
  if (!decision.allowed) throw tooManyFailures(decision.retryAfter, decision.headers);
  return clientIp;
}

/** A refused credential: counted against the client address, then 401 (429 when that was its last try). */
async function unauthenticated(c: Context<AppEnv>, clientIp: string, detail: Message): Promise<never> {
  const decision = await c.get('deps').authFailureLimits.consume(clientIp);
  if (!decision.allowed) throw tooManyFailures(decision.retryAfter, decision.headers);
  throw new ApiProblem('unauthenticated', detail, {}, decision.headers);
}

/** The inbound secret of `Authorization: Bearer <secret>`, or the password of `Basic` (any user name). */
function inboundSecretOf(authorization: string | undefined): string | null {
  const [scheme, value] = (authorization ?? '').trim().split(/\s+/, 2);
  if (!scheme || !value) return null;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() !== 'basic') return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : null;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function webhookJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(UTF8.decode(raw));
  } catch {
    return undefined;
  }
}

const EMAIL_REFUSALS = {
  no_sender: { code: 'invalid_format', text: 'channel_inbound.email_without_sender' },
  sender_too_long: { code: 'too_long', text: 'channel_inbound.email_sender_too_long' },
  too_complex: { code: 'too_big', text: 'channel_inbound.email_too_complex' },
} as const satisfies Record<EmailRefusal, { code: string; text: string }>;

export const handlers = {
  verifyWhatsAppWebhook: async (c) => {
    const query = c.req.valid('query');
    if (!(await verifyTokenKnown(c.get('deps').db, query['hub.verify_token']))) {
      throw new ApiProblem('verification_failed', texts.message('channel_inbound.verify_token_unknown'));
    }
    return c.text(query['hub.challenge'], 200);
  },

  receiveWhatsAppWebhook: async (c) => {
    const deps = c.get('deps');
    const clientIp = await admittedAddress(c);
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const changes = changesOf(webhookJson(raw));
    if (!changes) throw invalidField('', 'invalid_json', texts.message('channel_inbound.invalid_webhook_json'));
    const companies = await companiesOfNumbers(deps.db, [...new Set(changes.map((change) => change.phoneNumberId))]);
    if (companies.size === 0) return unauthenticated(c, clientIp, texts.message('channel_inbound.unknown_number'));
    // Every company the body names must have signed it: one company's secret must not carry another's messages.
    const signature = c.req.header('x-hub-signature-256');
    for (const company of companies.values()) {
      if (!signatureValid(raw, signature, company.appSecret)) {
        return unauthenticated(c, clientIp, texts.message('channel_inbound.bad_signature'));
      }
    }
    const receipt = { messagesStored: 0, messagesAlreadyStored: 0, statusesApplied: 0 };
    for (const change of changes) {
      const company = companies.get(change.phoneNumberId);
      if (!company) {
        deps.log.warn({ phoneNumberId: change.phoneNumberId }, 'WhatsApp webhook: change of an unknown number skipped');
        continue;
      }
      const { companyId } = company;
      // One transaction per message: a failure part-way is retried by Meta, and what was stored is not stored again.
      for (const m of change.messages) {
        const received = await tenantOf(deps, companyId).transaction((tx) =>
          receiveCustomerMessage(tx, companyId, {
            contact: { channel: 'whatsapp', waId: m.from, name: m.name },
            body: m.body,
            whatsappMessageId: m.id,
          }),
        );
        if (received.duplicate) receipt.messagesAlreadyStored++;
        else receipt.messagesStored++;
      }
      if (change.statuses.length > 0) {
        receipt.statusesApplied += await tenantOf(deps, companyId).transaction(async (tx) => {
          let applied = 0;
          for (const s of change.statuses) if (await advanceWhatsAppStatus(tx, companyId, s.id, s.status)) applied++;
          return applied;
        });
      }
    }
    return c.json(
      {
        data: {
          object: 'whatsapp_webhook_receipt' as const,
          messages_stored: receipt.messagesStored,
          messages_already_stored: receipt.messagesAlreadyStored,
          statuses_applied: receipt.statusesApplied,
        },
      },
      200,
    );
  },

  receiveInboundEmail: async (c) => {
    const deps = c.get('deps');
    const clientIp = await admittedAddress(c);
    const secret = inboundSecretOf(c.req.header('authorization'));
    if (!secret) return unauthenticated(c, clientIp, texts.message('channel_inbound.secret_missing'));
    const companyId = await companyOfInboundSecret(deps.db, secret);
    if (!companyId) return unauthenticated(c, clientIp, texts.message('channel_inbound.secret_unknown'));
    const incoming = await parseInboundEmail(Buffer.from(await c.req.arrayBuffer()));
    if ('refused' in incoming) {
      // A relay retries a 5xx for ever: a mail it can never deliver gets a 4xx, and the operator a warning that
      // says why (never the mail's addresses or text).
      const { code, text } = EMAIL_REFUSALS[incoming.refused];
      deps.log.warn({ requestId: c.get('requestId'), companyId, reason: incoming.refused }, 'inbound email refused');
      throw invalidField('', code, texts.message(text));
    }
    const received = await tenantOf(deps, companyId).transaction((tx) =>
      receiveCustomerMessage(tx, companyId, incoming),
    );
    return c.json({ data: serializeMessage(received.message) }, received.duplicate ? 200 : 201);
  },
} satisfies Partial<Handlers>;
