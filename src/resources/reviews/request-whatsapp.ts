// The WhatsApp message of a review request. A review request is business-initiated, which WhatsApp allows only as
// an approved template: the company's template (channel_settings, CLI `company channels
// --whatsapp-review-template`) is sent with the review link as its body's one parameter ({{1}}). Without a
// template, a free-form text with the link may be sent only within 24 hours of the customer's last WhatsApp
// message (the customer-service window); otherwise the request is refused before anything is stored.
import { type OutgoingMessage, WHATSAPP_WINDOW_MS } from '../../channels/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { salutation } from '../../domain/salutation.ts';
import { ApiProblem } from '../../http/problems.ts';
import type { Language, Texts } from '../../languages.ts';
import { reviewMessages } from './messages.ts';
import * as q from './queries.ts';
import { unsubscribeUrl } from './request-emails.ts';

const TEXT: Texts = {
  en: '{salutation} thank you for choosing {shop}. Would you tell us how it went? It takes a minute: {url}\n\nNo more review requests? {unsubscribe}',
  nl: '{salutation} bedankt dat u voor {shop} hebt gekozen. Wilt u ons laten weten hoe het ging? Het kost een minuut: {url}\n\nGeen reviewverzoeken meer? {unsubscribe}',
  de: '{salutation} danke, dass Sie sich für {shop} entschieden haben. Würden Sie uns erzählen, wie es war? Es dauert eine Minute: {url}\n\nKeine Bewertungsanfragen mehr? {unsubscribe}',
  fr: '{salutation} merci d’avoir choisi {shop}. Nous direz-vous comment cela s’est passé ? Cela prend une minute : {url}\n\nPlus de demandes d’avis ? {unsubscribe}',
};

/** The WhatsApp id of a phone number: its digits, international form (`+31 6 1234 5678` → `31612345678`). */
export const waIdOf = (phone: string) => phone.replace(/\D+/g, '');

/**
 * The template's language for a request: the approved code that is the request's language (`nl`) or one of its
 * variants (`en_US` for `en`); else the first approved code; with no codes set, the request's language itself.
 */
export function templateLanguage(approved: string[], language: Language): string {
  return approved.find((code) => code === language || code.startsWith(`${language}_`)) ?? approved[0] ?? language;
}

export async function reviewRequestWhatsApp(
  tx: Tx,
  companyId: string,
  input: { phone: string; language: Language; name: string | null; shop: string; url: string; now: Date },
): Promise<OutgoingMessage> {
  const to = waIdOf(input.phone);
  const template = await q.whatsappReviewTemplateOf(tx, companyId);
  if (template)
    return {
      channel: 'whatsapp',
      to,
      template: {
        name: template.name,
        language: templateLanguage(template.languages, input.language),
        bodyParameters: [input.url],
      },
    };
  const last = await q.lastWhatsAppMessageFrom(tx, companyId, to);
  if (!last || input.now.getTime() - last.getTime() > WHATSAPP_WINDOW_MS)
    throw new ApiProblem(
      'conflict',
      last
        ? reviewMessages.message('review_request.whatsapp_no_template_window_closed', { last: last.toISOString() })
        : reviewMessages.message('review_request.whatsapp_no_template'),
    );
  const values: Record<string, string> = {
    salutation: salutation(input.name, input.language),
    shop: input.shop,
    url: input.url,
    unsubscribe: unsubscribeUrl(input.url),
  };
  const text = TEXT[input.language].replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
  return { channel: 'whatsapp', to, text, lastCustomerMessageAt: last };
}
