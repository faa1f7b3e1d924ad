// What an endpoint may be pointed at and subscribed to: the URL through the SSRF guard, the event selection
// through the key's read scopes (Authentication point 10, Delivery point 11).
import { type EventType, eventDeclaration, eventReadScopes, type Scope } from '../../events/catalogue.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidField } from '../../http/validation.ts';
import { checkUrl, checkUrlSyntax, type UrlPolicy } from '../../webhooks/url-guard.ts';
import { webhookMessages } from './messages.ts';
import type { EventSelection } from './serialize.ts';
import { urlRefusalMessage } from './url-refusals.ts';

/** The scopes that let a key see events of this type (declared by the resource that records it). */
const scopesFor = (type: EventType): readonly Scope[] => eventDeclaration(type).readScopes;

/**
 * The read scopes stored with the endpoint: fan-out sends an event only when its scope is among them, so
 * the endpoint never receives more than the key that chose its events may see, whatever `*` grows into.
 */
export const readScopesOf = (keyScopes: ReadonlySet<string>): Scope[] =>
  eventReadScopes().filter((scope) => keyScopes.has(scope));

/** Throws the contract's 422 for a duplicate, `*` with other types, or a type the key may not read. */
export function checkSelection(events: readonly EventSelection[], keyScopes: ReadonlySet<string>): void {
  const readable = readScopesOf(keyScopes);
  const seen = new Set<EventSelection>();
  events.forEach((type, index) => {
    const pointer = `/events/${index}`;
    if (seen.has(type))
      throw invalidField(pointer, 'invalid_enum', webhookMessages.message('webhook.event_listed_twice', { type }));
    seen.add(type);
    if (type === '*') {
      if (events.length > 1)
        throw invalidField(pointer, 'invalid_enum', webhookMessages.message('webhook.star_not_alone'));
      if (readable.length === 0) {
        throw invalidField(
          pointer,
          'insufficient_scope',
          webhookMessages.message('webhook.star_needs_scope', { scopes: eventReadScopes() }),
        );
      }
      return;
    }
    const needed = scopesFor(type);
    if (!needed.some((scope) => keyScopes.has(scope))) {
      throw invalidField(
        pointer,
        'insufficient_scope',
        webhookMessages.message('webhook.event_needs_scope', { type, scopes: needed }),
      );
    }
  });
}

/**
 * Pointing an endpoint at another URL (without choosing its events again) hands its messages to whoever runs that
 * URL, so the key doing it must read every event the endpoint receives: those of its chosen types whose scope is
 * among its stored ones (all stored ones for `*`). Answers the scopes the endpoint keeps: the stored ones this
 * key has. That drops nothing the endpoint receives from now on, and its earlier deliveries of events this key
 * may not read are then withheld from the new URL (every attempt checks the endpoint's current scopes).
 */
export function scopesAfterRedirect(
  events: readonly string[],
  endpointScopes: readonly string[],
  keyScopes: ReadonlySet<string>,
): string[] {
  const received = events.includes('*')
    ? endpointScopes
    : endpointScopes.filter((scope) =>
        events.some((type) => (scopesFor(type as EventType) as readonly string[]).includes(scope)),
      );
  const missing = received.find((scope) => !keyScopes.has(scope));
  if (missing !== undefined) {
    throw new ApiProblem(
      'insufficient_scope',
      webhookMessages.message('webhook.url_change_needs_scope', { scope: missing }),
      {
        required_scope: missing,
      },
    );
  }
  return endpointScopes.filter((scope) => keyScopes.has(scope));
}

/**
 * The URL through the SSRF guard (syntax, then DNS). A refusal is a 422 on `/url`: `invalid_format` for
 * what is not an absolute URL, `url_not_allowed` for everything the policy refuses.
 */
export async function checkEndpointUrl(url: string, policy: UrlPolicy): Promise<ApiProblem | null> {
  const result = await checkUrl(url, policy);
  if (result.ok) return null;
  if (result.code === 'dns_failure') {
    // A host that does not resolve cannot be shown not to be internal; refused like one, so that nothing
    // unverified is stored (it is checked again at every delivery anyway). Its detail says so.
    return invalidField('/url', 'url_not_allowed', urlRefusalMessage(result.refusal));
  }
  if (result.code === 'invalid_format' && isPlainHttp(url, policy)) {
    // The guard's syntax layer calls plain http a format error; the contract names it a policy refusal.
    return invalidField('/url', 'url_not_allowed', webhookMessages.message('url.not_https'));
  }
  return invalidField('/url', result.code, urlRefusalMessage(result.refusal));
}

/** A well-formed absolute http URL: as https it would be no format error (at most a policy refusal). */
function isPlainHttp(url: string, policy: UrlPolicy): boolean {
  if (!/^http:\/\//i.test(url)) return false;
  const asHttps = checkUrlSyntax(`https://${url.slice('http://'.length)}`, policy);
  return asHttps.ok || asHttps.code === 'url_not_allowed';
}
