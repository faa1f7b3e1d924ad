// SSRF guard for webhook endpoint URLs. Used at creation/update (checkUrl) and again before every delivery
// (resolveAllowed, or checkLiteral for a URL that holds an address), whose result — the checked address — is
// what the socket connects to (see http-post.ts), so a DNS answer cannot change between the check and the
// connection (no rebinding).
//
// WEBHOOK_ALLOW_PRIVATE_URLS (policy.allowPrivate) is for tests and local development receivers only: it
// additionally allows LOOPBACK targets (127.0.0.0/8, ::1), over http as well as https and on any port. Every
// other internal range (RFC 1918, link-local/metadata, CGNAT, ...) stays refused even with the switch.
import { promises as dnsPromises, type LookupAddress } from 'node:dns';
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { BoundedCache } from './bounded-cache.ts';

export type UrlPolicy = { allowPrivate: boolean };

export type LookupAll = (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;

/**
 * Why a URL was refused, with the values its explanation names. The guard says no more: the API turns a refusal
 * into a problem text in the request's language (resources/webhook-endpoints/url-refusals.ts).
 */
export type UrlRefusal =
  | { reason: 'too_long'; max: number }
  | { reason: 'spaces_or_controls' }
  | { reason: 'not_uri' }
  | { reason: 'not_absolute' }
  | { reason: 'not_absolute_https' }
  | { reason: 'fragment' }
  | { reason: 'userinfo' }
  | { reason: 'port' }
  | { reason: 'https_standard_port' }
  | { reason: 'not_http' }
  | { reason: 'unresolved'; host: string; code: string }
  | { reason: 'no_address'; host: string }
  | { reason: 'loopback_only'; host: string; address: string }
  | { reason: 'not_public'; host: string; address: string }
  | { reason: 'unusable_address'; host: string };

export type UrlSyntaxResult =
  | { ok: true; url: URL }
  | { ok: false; code: 'invalid_format' | 'url_not_allowed'; refusal: UrlRefusal };

export type ResolveResult =
  | { ok: true; address: string; family: 4 | 6 }
  | { ok: false; code: 'url_not_allowed' | 'dns_failure'; refusal: UrlRefusal };

export type UrlCheckResult =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  | { ok: false; code: 'invalid_format' | 'url_not_allowed' | 'dns_failure'; refusal: UrlRefusal };

export const MAX_URL_LENGTH = 2048;
const ALLOWED_PORTS = new Set([443, 80, 8443]);

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidrs = (list: string[]): Cidr[] => list.map((c) => ipaddr.parseCIDR(c));

// Written out rather than relying only on ipaddr.js's range() names, so an upgrade of the library cannot
// silently widen what is reachable. Both this list and range() === 'unicast' must agree.
const BLOCKED_V4 = cidrs([
  '0.0.0.0/8', // "this network"; 0.0.0.0 reaches the local host on Linux
  '10.0.0.0/8', // RFC 1918
  '100.64.0.0/10', // CGNAT
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata (169.254.169.254)
  '172.16.0.0/12', // RFC 1918
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // TEST-NET-1
  '192.31.196.0/24', // AS112
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // RFC 1918
  '192.175.48.0/24', // AS112
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // TEST-NET-2
  '203.0.113.0/24', // TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes 255.255.255.255 broadcast
]);

const BLOCKED_V6 = cidrs([
  '::/128', // unspecified
  '::1/128', // loopback
  '::ffff:0:0/96', // IPv4-mapped
  '::/96', // deprecated IPv4-compatible
  '64:ff9b::/96', // NAT64
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard
  '2001::/23', // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID 2001:10::/28, ...
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4 (embeds an arbitrary IPv4 address)
  '3fff::/20', // documentation (RFC 9637)
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local
  'ff00::/8', // multicast
]);
// Only the global unicast allocation is ever public.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.parse(bare);
  // A zone id (fe80::1%eth0) names an interface: never a public destination.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).zoneId) return null;
  return parsed;
}

const inAny = (ip: ipaddr.IPv4 | ipaddr.IPv6, list: Cidr[]) =>
  list.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));

/** True only for a global unicast address (IPv4 or IPv6, any notation ipaddr.js parses). */
export function isPublicAddress(address: string): boolean {
  const ip = parseAddress(address);
  if (!ip || ip.range() !== 'unicast') return false;
  if (ip.kind() === 'ipv4') return !inAny(ip, BLOCKED_V4);
  // IPv4-mapped, NAT64, 6to4 and Teredo forms are refused outright (above); the embedded IPv4 is checked too
  // so the answer stays right if one of them is ever allowed.
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress() && !isPublicAddress(v6.toIPv4Address().toString())) return false;
  return ip.match(GLOBAL_UNICAST_V6) && !inAny(ip, BLOCKED_V6);
}

/** 127.0.0.0/8 or ::1 (not the IPv4-mapped form). */
export function isLoopbackAddress(address: string): boolean {
  const ip = parseAddress(address);
  return ip !== null && ip.range() === 'loopback';
}

const refuse = <C extends string>(code: C, refusal: UrlRefusal) => ({ ok: false as const, code, refusal });

function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * True when the URL only passes the syntax check thanks to allowPrivate (http, or a port other than
 * 443/80/8443): such a URL may then reach nothing but loopback.
 */
function needsLoopback(url: URL): boolean {
  return url.protocol !== 'https:' || !ALLOWED_PORTS.has(effectivePort(url));
}

/** RFC 3986: unreserved, reserved and percent-encoded octets; nothing else. */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** Pure checks: length, absolute http(s), URI characters, port, no userinfo, no fragment. No DNS. */
export function checkUrlSyntax(input: string, policy: UrlPolicy): UrlSyntaxResult {
  if (input.length > MAX_URL_LENGTH) return refuse('invalid_format', { reason: 'too_long', max: MAX_URL_LENGTH });
  // The URL parser silently drops tabs/newlines and turns "\" into "/"; refuse such input instead of storing
  // one string and calling another.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u0020\u007f\\]/.test(input)) return refuse('invalid_format', { reason: 'spaces_or_controls' });
  // Stored and returned as sent, and the contract calls it `format: uri`: only RFC 3986's characters, and `%` only
  // as an escape. (The URL parser would accept "é", "|", "{" or "%zz" and send something else than was stored.)
  if (!URI_CHARACTERS.test(input)) return refuse('invalid_format', { reason: 'not_uri' });
  if (!URL.canParse(input)) return refuse('invalid_format', { reason: 'not_absolute' });
  const url = new URL(input);
  const httpAllowed = policy.allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) return refuse('invalid_format', { reason: 'not_absolute_https' });
  // An authority right after "//": the URL parser skips further slashes ("https:///@example.com" would call
  // example.com), where RFC 3986 reads an empty host and the rest as the path.
  if (!/^https?:\/\/[^/]/i.test(input)) return refuse('invalid_format', { reason: 'not_absolute_https' });
  if (input.includes('#')) return refuse('invalid_format', { reason: 'fragment' });
  const authority = input.slice(input.indexOf('//') + 2).split(/[/?#]/, 1)[0] ?? '';
  if (authority.includes('@') || url.username !== '' || url.password !== '') {
    return refuse('url_not_allowed', { reason: 'userinfo' });
  }
  if (!policy.allowPrivate && !ALLOWED_PORTS.has(effectivePort(url))) {
    return refuse('url_not_allowed', { reason: 'port' });
  }
  return { ok: true, url };
}

/** The address written in the URL's host ([…] for IPv6), or null when the host is a name to look up. */
export function addressInUrl(url: URL): string | null {
  const host = url.hostname;
  if (host.startsWith('[')) return host.slice(1, -1);
  return isIPv4(host) ? host : null;
}

/** How long a lookup still in flight is shared: the longest a delivery waits for one (its 10-second limit). */
const SHARE_LOOKUP_MS = 10_000;
type Running = { answer: Promise<LookupAddress[]>; startedAt: number };

/**
 * Lookups that share their answer: checks of one host that begin while a lookup of it is still running take its
 * answer, which is as fresh as their own would be; nothing is kept once it is in (the next check looks up again).
 * Without this a burst of deliveries to one endpoint queued one getaddrinfo each on libuv's four threads,
 * shared with file and crypto work; now one per host at a time. One per sender (send.ts).
 */
export class SharedLookups {
  private readonly shared = new WeakMap<LookupAll, LookupAll>();

  /** `lookup`, sharing the answers of lookups in flight. */
  of(lookup: LookupAll): LookupAll {
    let found = this.shared.get(lookup);
    if (!found) {
      found = sharingLookup(lookup);
      this.shared.set(lookup, found);
    }
    return found;
  }
}

function sharingLookup(lookup: LookupAll): LookupAll {
  const hosts = new Map<string, Running>();
  return (host) => {
    const now = Date.now();
    const running = hosts.get(host);
    // A lookup that hangs past every waiting delivery's limit is not shared further: the next check asks again.
    if (running && now - running.startedAt < SHARE_LOOKUP_MS) return running.answer;
    const entry: Running = { answer: lookup(host, { all: true }), startedAt: now };
    hosts.set(host, entry);
    const forget = () => {
      if (hosts.get(host) === entry) hosts.delete(host);
    };
    entry.answer.then(forget, forget);
    return entry.answer;
  };
}

/**
 * Resolves the URL's host (all addresses) and returns the one to connect to. Refuses when ANY address is
 * not public (a hostile DNS may mix public and internal answers). IP-literal hosts need no DNS; the URL
 * parser has already normalised odd IPv4 notations (2130706433, 0x7f.1, 127.1) to dotted quads.
 */
export async function resolveAllowed(
  url: URL,
  policy: UrlPolicy,
  lookup: LookupAll = dnsPromises.lookup,
): Promise<ResolveResult> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('url_not_allowed', { reason: 'not_http' });
  const literal = checkLiteral(url, policy);
  if (literal !== null) return literal;
  const host = url.hostname;
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true })).map((a) => a.address);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unknown';
    return refuse('dns_failure', { reason: 'unresolved', host, code });
  }
  if (addresses.length === 0) return refuse('dns_failure', { reason: 'no_address', host });
  return checkAddresses(url, addresses, policy);
}

/**
 * The check of a URL whose host is an address (no DNS), or null when the host is a name to look up. Its answer
 * depends only on the scheme, host, port and policy, so a sender keeps it (`kept`): a delivery checks its URL
 * before every message, and parsing the address again costs the worker's thread (scripts/bench/README.md).
 */
export function checkLiteral(url: URL, policy: UrlPolicy, kept?: BoundedCache<ResolveResult>): ResolveResult | null {
  const literal = addressInUrl(url);
  if (literal === null) return null;
  if (!kept) return checkAddresses(url, [literal], policy);
  const key = `${policy.allowPrivate ? 'private' : 'public'} ${url.protocol}//${url.host}`;
  return kept.get(key) ?? kept.set(key, checkAddresses(url, [literal], policy));
}

/** Refuses when ANY address is not allowed; answers the first one (the one to connect to). */
function checkAddresses(url: URL, addresses: string[], policy: UrlPolicy): ResolveResult {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('url_not_allowed', { reason: 'not_http' });
  const host = url.hostname;
  const loopbackOnly = needsLoopback(url);
  if (loopbackOnly && !policy.allowPrivate) return refuse('url_not_allowed', { reason: 'https_standard_port' });
  for (const address of addresses) {
    const loopbackAllowed = policy.allowPrivate && isLoopbackAddress(address);
    const allowed = loopbackOnly ? loopbackAllowed : loopbackAllowed || isPublicAddress(address);
    if (!allowed) {
      return refuse('url_not_allowed', { reason: loopbackOnly ? 'loopback_only' : 'not_public', host, address });
    }
  }
  const ip = parseAddress(addresses[0] ?? '');
  if (!ip) return refuse('url_not_allowed', { reason: 'unusable_address', host });
  return { ok: true, address: ip.toString(), family: ip.kind() === 'ipv6' ? 6 : 4 };
}

/** Syntax and resolution together: what creation and update of an endpoint run. */
export async function checkUrl(input: string, policy: UrlPolicy, lookup?: LookupAll): Promise<UrlCheckResult> {
  const syntax = checkUrlSyntax(input, policy);
  if (!syntax.ok) return syntax;
  const resolved = await resolveAllowed(syntax.url, policy, lookup);
  if (!resolved.ok) return resolved;
  return { ok: true, url: syntax.url, address: resolved.address, family: resolved.family };
}
