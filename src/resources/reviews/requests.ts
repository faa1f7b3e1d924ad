// Creating a review request: the recipient (from the body or the customer), the rules of the web application
// (one open request, the company cooldown, unsubscribed recipients: 409 naming the rule), and the sending —
// email through the outbox, WhatsApp through its channel adapter (an approved template, or a free-form text
// inside the customer's 24-hour window: request-whatsapp.ts), both counted in the company's outgoing limit;
// link sends nothing.
import {
  CHANNEL_RETRY_AFTER_SECONDS,
  type Channels,
  ChannelUnavailable,
  type Delivery,
  type OutgoingMessage,
  type Refusal,
} from '../../channels/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { message } from '../../http/messages.ts';
import { countOutgoingMessage } from '../../http/outgoing-limit.ts';
import { ApiProblem, type FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import type { Language } from '../../languages.ts';
import { queueEmail } from '../../mail/outbox.ts';
import { COMPANY_SCOPE } from '../../mail/outgoing-limit.ts';
import { reviewMessages } from './messages.ts';
import * as q from './queries.ts';
import { reviewRequestEmail } from './request-emails.ts';
import { reviewRequestWhatsApp, waIdOf } from './request-whatsapp.ts';
import { reviewPageUrl } from './serialize.ts';
import { newReviewToken } from './tokens.ts';

/** The company cooldown of the web application's default (the setting itself lives there). */
export const COOLDOWN_DAYS = 90;
/** An unanswered request expires this many days after it was sent (the cron, and the page itself). */
export const REQUEST_VALID_DAYS = 30;
const DAY_MS = 86_400_000;

export type CreateBody = {
  customer_id?: string | null;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  channel?: 'email' | 'whatsapp' | 'link';
  language?: Language;
};

export type Context = {
  companyId: string;
  shop: string;
  companyLanguage: Language;
  publicUrl: string;
  now: Date;
  /** What asked for the request: `api` (the default), or the record whose completion did (`work_order`). */
  trigger?: string;
  /** The channels, for channel `whatsapp`. */
  channels?: Channels;
  /**
   * WhatsApp's send leaves the transaction (an HTTP call): when PostgreSQL runs the creation again (a deadlock
   * or serialization failure), the delivery kept here is used instead of sending the message a second time.
   */
  whatsappSent?: { delivery?: Delivery & { accepted: true } };
};

const required = (pointer: string): FieldError => ({
  pointer,
  parameter: null,
  code: 'required',
  detail: message('field.required'),
});

export async function createReviewRequest(tx: Tx, ctx: Context, body: CreateBody) {
  const channel = body.channel ?? 'email';
  const { companyId } = ctx;

  // The recipient: the body's values, the customer's for what the body leaves out.
  let customer = body.customer_id ? await q.findCustomerById(tx, companyId, body.customer_id) : undefined;
  const errors: FieldError[] = [];
  if (body.customer_id && !customer)
    errors.push({
      pointer: '/customer_id',
      parameter: null,
      code: 'invalid_reference',
      detail: reviewMessages.message('review_request.customer_unknown'),
    });
  const name = body.name ?? customer?.name ?? null;
  const email = body.email ?? customer?.email ?? null;
  const phone = body.phone ?? customer?.phone ?? null;
  if (!body.customer_id && !body.name) errors.push(required('/name'));
  if (channel === 'email' && !email) errors.push(required('/email'));
  if (channel === 'whatsapp' && !phone) errors.push(required('/phone'));
  if (errors.length) throw invalidFields(errors);
  // Any text is a phone number to the contract; one that cannot be a WhatsApp number is refused like the inbox's
  // reply to a contact without an address (409, nothing stored).
  if (channel === 'whatsapp' && phone && !/^\d{6,15}$/.test(waIdOf(phone)))
    throw new ApiProblem('conflict', reviewMessages.message('review_request.whatsapp_bad_number'));
  // Without a customer, the recipient is linked to the customer with the same email address, if any.
  if (!customer && email) customer = await q.findCustomerByEmail(tx, companyId, email);

  const recipient = { customerId: customer?.id ?? null, email, phone };
  if (
    customer?.emailUnsubscribed ||
    (await q.hasOptedOut(
      tx,
      companyId,
      [email, phone].filter((v) => v !== null),
    ))
  )
    throw new ApiProblem('conflict', reviewMessages.message('review_request.unsubscribed'));
  if (await q.openRequestOf(tx, companyId, recipient))
    throw new ApiProblem('conflict', reviewMessages.message('review_request.open_request_exists'));
  const recent = await q.askedSince(tx, companyId, recipient, new Date(ctx.now.getTime() - COOLDOWN_DAYS * DAY_MS));
  if (recent)
    throw new ApiProblem(
      'conflict',
      reviewMessages.message('review_request.cooldown', {
        days: COOLDOWN_DAYS,
        date: recent.askedAt.toISOString().slice(0, 10),
      }),
    );

  const language = body.language ?? ctx.companyLanguage;
  const token = newReviewToken(companyId);
  const url = reviewPageUrl(ctx.publicUrl, token);
  let whatsappMessageId: string | null = null;
  if (channel === 'email' && email) {
    await countCompanyMessage(tx, companyId);
    const mail = reviewRequestEmail({ language, name, shop: ctx.shop, url });
    await queueEmail(tx, companyId, { to: [email], ...mail, kind: 'review_request' });
  }
  if (channel === 'whatsapp' && phone) {
    // The template (or the open window) is checked before counting: a refused request counts nothing.
    const outgoing = await reviewRequestWhatsApp(tx, companyId, {
      phone,
      language,
      name,
      shop: ctx.shop,
      url,
      now: ctx.now,
    });
    await countCompanyMessage(tx, companyId);
    const delivery = await sendWhatsApp(tx, ctx, outgoing);
    whatsappMessageId = delivery.whatsappMessageId ?? null;
  }
  // An email request is `sent` once its email is in the outbox (it leaves when this transaction commits); a
  // WhatsApp request once WhatsApp took its message (or, without the company's WhatsApp account, recorded it).
  return q.insertRequest(tx, companyId, {
    whatsappMessageId,
    status: 'sent',
    channel,
    trigger: ctx.trigger ?? 'api',
    customerId: recipient.customerId,
    recipientName: name,
    recipientEmail: email,
    recipientPhone: phone,
    language,
    token,
    scheduledAt: channel === 'link' ? null : ctx.now,
    sentAt: ctx.now,
  });
}

/** One more message in the company's outgoing limit, or 429 with Retry-After past it. */
const countCompanyMessage = (tx: Tx, companyId: string) =>
  countOutgoingMessage(tx, companyId, [COMPANY_SCOPE], ({ limit }) =>
    reviewMessages.message('review_request.outgoing_limit', { limit }),
  );

function refusalProblem(refusal: Refusal): ApiProblem {
  switch (refusal.reason) {
    case 'no_address':
      return new ApiProblem('conflict', reviewMessages.message('review_request.whatsapp_bad_number'));
    case 'whatsapp_window_closed':
      return new ApiProblem(
        'conflict',
        reviewMessages.message('review_request.whatsapp_no_template_window_closed', {
          last: refusal.lastCustomerMessageAt?.toISOString() ?? '-',
        }),
      );
    case 'refused':
      return new ApiProblem(
        'conflict',
        reviewMessages.message('review_request.whatsapp_refused', { reason: refusal.detail }),
      );
  }
}

async function sendWhatsApp(tx: Tx, ctx: Context, outgoing: OutgoingMessage): Promise<Delivery & { accepted: true }> {
  if (!ctx.channels) throw new Error('createReviewRequest: channel whatsapp needs the channels');
  const kept = ctx.whatsappSent?.delivery;
  if (kept) return kept;
  let delivery: Delivery;
  try {
    delivery = await ctx.channels.send(tx, ctx.companyId, outgoing);
  } catch (error) {
    if (error instanceof ChannelUnavailable)
      throw new ApiProblem(
        'service_unavailable',
        reviewMessages.message('review_request.whatsapp_unreachable'),
        {},
        { 'Retry-After': String(CHANNEL_RETRY_AFTER_SECONDS) },
      );
    throw error;
  }
  if (!delivery.accepted) throw refusalProblem(delivery.refusal);
  if (ctx.whatsappSent && delivery.whatsappMessageId) ctx.whatsappSent.delivery = delivery;
  return delivery;
}
