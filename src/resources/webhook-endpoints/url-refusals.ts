// The SSRF guard's refusals (src/webhooks/url-guard.ts) as problem texts: the guard says why, the API says it
// in the request's language.
import type { Message } from '../../http/message-catalogue.ts';
import type { UrlRefusal } from '../../webhooks/url-guard.ts';
import { webhookMessages } from './messages.ts';

export function urlRefusalMessage(refusal: UrlRefusal): Message {
  switch (refusal.reason) {
    case 'too_long':
      return webhookMessages.message('url.too_long', { max: refusal.max });
    case 'spaces_or_controls':
      return webhookMessages.message('url.spaces_or_controls');
    case 'not_uri':
      return webhookMessages.message('url.not_uri');
    case 'not_absolute':
      return webhookMessages.message('url.not_absolute');
    case 'not_absolute_https':
      return webhookMessages.message('url.not_absolute_https');
    case 'fragment':
      return webhookMessages.message('url.fragment');
    case 'userinfo':
      return webhookMessages.message('url.userinfo');
    case 'port':
      return webhookMessages.message('url.port');
    case 'https_standard_port':
      return webhookMessages.message('url.https_standard_port');
    case 'not_http':
      return webhookMessages.message('url.not_http');
    case 'unresolved':
      return webhookMessages.message('url.unresolved', { host: refusal.host, code: refusal.code });
    case 'no_address':
      return webhookMessages.message('url.no_address', { host: refusal.host });
    case 'loopback_only':
      return webhookMessages.message('url.loopback_only', { host: refusal.host, address: refusal.address });
    case 'not_public':
      return webhookMessages.message('url.not_public', { host: refusal.host, address: refusal.address });
    case 'unusable_address':
      return webhookMessages.message('url.unusable_address', { host: refusal.host });
  }
}
