// Client addresses and allowlists (IPv4 and IPv6, single addresses and CIDR ranges).
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses an address or CIDR range; a bare address is a range of one. Throws on invalid input. */
export function parseRange(text: string): Range {
  if (text.includes('/')) {
    const [addr, bits] = ipaddr.parseCIDR(text);
    return [normalize(addr), addr.kind() === 'ipv6' && normalize(addr).kind() === 'ipv4' ? bits - 96 : bits];
  }
  const addr = normalize(ipaddr.parse(text));
  return [addr, addr.kind() === 'ipv4' ? 32 : 128];
}

export const isValidRange = (text: string) => {
  try {
    parseRange(text);
    return true;
  } catch {
    return false;
  }
};

/** IPv4-mapped IPv6 addresses (::ffff:1.2.3.4) count as their IPv4 address. */
function normalize(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

export function inRanges(address: string, ranges: readonly string[]): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = normalize(ipaddr.parse(address));
  } catch {
    return false;
  }
  return ranges.some((text) => {
    const [base, bits] = parseRange(text);
    return base.kind() === addr.kind() && addr.match([base, bits] as never);
  });
}

/**
 * The client's address: the socket's peer, or, when that peer is a trusted proxy, the right-most address
 * of X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientAddress(
  socketAddress: string,
  forwardedFor: string | undefined,
  trustedProxies: readonly string[],
) {
  if (!forwardedFor || trustedProxies.length === 0 || !inRanges(socketAddress, trustedProxies)) return socketAddress;
  const hops = forwardedFor
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!inRanges(hops[i], trustedProxies)) return hops[i];
  }
  return hops[0] ?? socketAddress;
}
