import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  checkLiteral,
  checkUrl,
  checkUrlSyntax,
  isLoopbackAddress,
  isPublicAddress,
  type LookupAll,
  resolveAllowed,
} from '../../src/webhooks/url-guard.ts';

const strict = { allowPrivate: false };
const dev = { allowPrivate: true };

// A fake resolver: no test here touches real DNS. Unknown names fail like getaddrinfo does.
const zone: Record<string, string[]> = {
  'example.com': ['93.184.215.14'],
  'v6.example.com': ['2606:4700::6810:84e5'],
  localhost: ['127.0.0.1'],
  'loopback.attacker.test': ['127.0.0.1'],
  'metadata.attacker.test': ['169.254.169.254'],
  'mixed.attacker.test': ['93.184.215.14', '10.0.0.1'],
  'mixed6.attacker.test': ['2606:4700::6810:84e5', 'fd00::1'],
  'mapped.attacker.test': ['::ffff:127.0.0.1'],
  'private.attacker.test': ['192.168.0.10'],
};
const calls: string[] = [];
const lookup: LookupAll = async (hostname) => {
  calls.push(hostname);
  const found = zone[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const noDns: LookupAll = async (hostname) => {
  throw new Error(`unexpected DNS lookup of ${hostname}`);
};

describe('checkUrl refuses hostile URLs', () => {
  const refusedAddresses = [
    'https://127.0.0.1',
    'https://127.0.0.1:443/hook',
    'https://127.255.255.254',
    'https://[::1]',
    'https://[::ffff:127.0.0.1]',
    'https://[::ffff:7f00:1]',
    'https://[::ffff:10.0.0.1]',
    'https://[::ffff:93.184.215.14]',
    'https://[::127.0.0.1]',
    'https://10.0.0.1',
    'https://172.16.5.4',
    'https://172.31.255.255',
    'https://192.168.1.1',
    'https://100.64.0.1',
    'https://169.254.169.254/latest/meta-data',
    'https://0.0.0.0',
    'https://0.1.2.3',
    'https://224.0.0.1',
    'https://239.255.255.250',
    'https://255.255.255.255',
    'https://192.0.0.8',
    'https://192.0.2.1',
    'https://198.51.100.7',
    'https://203.0.113.9',
    'https://198.18.0.1',
    'https://198.19.255.1',
    'https://192.88.99.1',
    'https://240.0.0.1',
    'https://[::]',
    'https://[fc00::1]',
    'https://[fd12:3456::1]',
    'https://[fe80::1]',
    'https://[fec0::1]',
    'https://[ff02::1]',
    'https://[64:ff9b::a00:1]',
    'https://[64:ff9b::5db8:d70e]',
    'https://[64:ff9b:1::a00:1]',
    'https://[2001:db8::1]',
    'https://[2002:a00:1::1]',
    'https://[2002:7f00:1::1]',
    'https://[2001::1]',
    'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]',
    'https://[100::1]',
    'https://[2001:10::1]',
    'https://[2001:20::1]',
    'https://[3fff::1]',
    // Odd IPv4 notations: the URL parser normalises them, the guard must still see 127.0.0.1.
    'https://2130706433',
    'https://0x7f000001',
    'https://0x7f.1',
    'https://127.1',
    'https://017700000001',
    'https://0177.0.0.1',
    'https://0xa.0.0.1',
  ];
  it.each(refusedAddresses)('%s (literal address, no DNS)', async (url) => {
    const result = await checkUrl(url, strict, noDns);
    expect(result).toMatchObject({ ok: false, code: 'url_not_allowed' });
  });

  const refusedNames = [
    ['https://localhost', 'a hostname that resolves to 127.0.0.1'],
    ['https://loopback.attacker.test/hook', 'a hostname that resolves to 127.0.0.1'],
    ['https://metadata.attacker.test', 'a hostname that resolves to the metadata address'],
    ['https://mixed.attacker.test', 'one public and one private address'],
    ['https://mixed6.attacker.test', 'one public and one ULA address'],
    ['https://mapped.attacker.test', 'an IPv4-mapped loopback answer'],
    ['https://private.attacker.test:8443', 'an RFC 1918 answer'],
  ];
  it.each(refusedNames)('%s (%s)', async (url) => {
    const result = await checkUrl(url, strict, lookup);
    expect(result).toMatchObject({ ok: false, code: 'url_not_allowed' });
  });

  const refusedSyntax: [string, 'invalid_format' | 'url_not_allowed'][] = [
    ['http://127.0.0.1', 'invalid_format'],
    ['http://example.com', 'invalid_format'],
    ['http://example.com:80', 'invalid_format'],
    ['ftp://example.com', 'invalid_format'],
    ['file:///etc/passwd', 'invalid_format'],
    ['gopher://example.com:6379/_', 'invalid_format'],
    ['javascript:alert(1)', 'invalid_format'],
    ['//example.com/hook', 'invalid_format'],
    ['/hook', 'invalid_format'],
    ['', 'invalid_format'],
    ['https:example.com', 'invalid_format'],
    ['https:\\\\127.0.0.1\\hook', 'invalid_format'],
    ['https://exa\tmple.com', 'invalid_format'],
    [' https://example.com', 'invalid_format'],
    ['https://example.com/#frag', 'invalid_format'],
    ['https://example.com/#', 'invalid_format'],
    [`https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`, 'invalid_format'],
    ['https://user:pass@example.com', 'url_not_allowed'],
    ['https://user@example.com', 'url_not_allowed'],
    ['https://@example.com', 'url_not_allowed'],
    // A third slash: RFC 3986 reads an empty host, the URL parser skips to example.com (the stored string would not
    // show the host called, and an empty userinfo got through).
    ['https:///@example.com', 'invalid_format'],
    ['https:////@example.com', 'invalid_format'],
    ['https:///:@example.com', 'invalid_format'],
    ['https:///example.com', 'invalid_format'],
    ['HTTPS:///example.com', 'invalid_format'],
    ['https://example.com:22', 'url_not_allowed'],
    ['https://example.com:6379', 'url_not_allowed'],
    ['https://example.com:8080', 'url_not_allowed'],
    ['https://example.com:0', 'url_not_allowed'],
  ];
  it.each(refusedSyntax)('%s → %s', async (url, code) => {
    expect(checkUrlSyntax(url, strict)).toMatchObject({ ok: false, code });
    expect(await checkUrl(url, strict, noDns)).toMatchObject({ ok: false, code });
  });

  it('the 2049-character URL really is 2049 characters; 2048 passes', async () => {
    const at = (n: number) => `https://example.com/${'a'.repeat(n - 'https://example.com/'.length)}`;
    expect(at(2049)).toHaveLength(2049);
    expect(checkUrlSyntax(at(2048), strict)).toMatchObject({ ok: true });
  });

  it('an unresolvable host is a dns_failure', async () => {
    expect(await checkUrl('https://nowhere.invalid', strict, lookup)).toMatchObject({
      ok: false,
      code: 'dns_failure',
    });
    const empty: LookupAll = async () => [];
    expect(await checkUrl('https://example.com', strict, empty)).toMatchObject({ ok: false, code: 'dns_failure' });
  });
});

describe('checkUrl allows public https URLs', () => {
  it('https://example.com connects to the checked address', async () => {
    const result = await checkUrl('https://example.com/hooks/crm?x=1', strict, lookup);
    expect(result).toMatchObject({ ok: true, address: '93.184.215.14', family: 4 });
    if (result.ok) expect(result.url.href).toBe('https://example.com/hooks/crm?x=1');
  });

  it.each([
    'https://example.com:8443/hook',
    'https://example.com:443',
    'https://example.com:80/hook',
  ])('%s (allowed port)', async (url) => {
    expect(await checkUrl(url, strict, lookup)).toMatchObject({ ok: true, address: '93.184.215.14' });
  });

  it('an IPv6 literal and an IPv6 name', async () => {
    expect(await checkUrl('https://[2606:4700::6810:84e5]/hook', strict, noDns)).toMatchObject({
      ok: true,
      address: '2606:4700::6810:84e5',
      family: 6,
    });
    expect(await checkUrl('https://v6.example.com', strict, lookup)).toMatchObject({ ok: true, family: 6 });
  });

  it('a public IPv4 literal needs no DNS', async () => {
    expect(await checkUrl('https://93.184.215.14/hook', strict, noDns)).toMatchObject({
      ok: true,
      address: '93.184.215.14',
    });
  });

  it('resolves the host once, with all addresses', async () => {
    calls.length = 0;
    const seen: { all: true }[] = [];
    const spy: LookupAll = async (hostname, options) => {
      seen.push(options);
      return lookup(hostname, options);
    };
    await checkUrl('https://example.com', strict, spy);
    expect(calls).toEqual(['example.com']);
    expect(seen).toEqual([{ all: true }]);
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_URLS allows loopback only', () => {
  it.each([
    'http://127.0.0.1:54321/hook',
    'https://127.0.0.1:54321/hook',
    'http://127.0.0.1/hook',
    'http://[::1]:8080/',
    'http://localhost:3000/hook',
  ])('%s is allowed', async (url) => {
    const result = await checkUrl(url, dev, lookup);
    expect(result.ok).toBe(true);
    if (result.ok) expect(isLoopbackAddress(result.address)).toBe(true);
  });

  it.each([
    'http://169.254.169.254',
    'http://169.254.169.254/latest/meta-data',
    'https://169.254.169.254',
    'http://10.0.0.1',
    'https://10.0.0.1',
    'http://192.168.1.1:8080',
    'http://0.0.0.0:54321',
    'http://[::ffff:127.0.0.1]:54321',
    'http://[fd00::1]',
    'http://mixed.attacker.test',
    'http://private.attacker.test:3000',
  ])('%s is still refused', async (url) => {
    expect(await checkUrl(url, dev, lookup)).toMatchObject({ ok: false, code: 'url_not_allowed' });
  });

  it('http or an unusual port to a public host is refused (the relaxed rules are for loopback)', async () => {
    expect(await checkUrl('http://example.com', dev, lookup)).toMatchObject({ ok: false, code: 'url_not_allowed' });
    expect(await checkUrl('https://example.com:22', dev, lookup)).toMatchObject({
      ok: false,
      code: 'url_not_allowed',
    });
    expect(await checkUrl('https://example.com', dev, lookup)).toMatchObject({ ok: true });
  });

  it('userinfo, fragments and other schemes stay refused', async () => {
    expect(await checkUrl('http://user:pass@127.0.0.1:1/', dev, lookup)).toMatchObject({ ok: false });
    expect(await checkUrl('http://127.0.0.1:1/#x', dev, lookup)).toMatchObject({ ok: false });
    expect(await checkUrl('ftp://127.0.0.1', dev, lookup)).toMatchObject({ ok: false, code: 'invalid_format' });
  });
});

describe('resolveAllowed at delivery time', () => {
  it('refuses a name that has been re-pointed to an internal address since creation', async () => {
    const url = new URL('https://example.com/hook');
    expect(await resolveAllowed(url, strict, lookup)).toMatchObject({ ok: true });
    const rebound: LookupAll = async () => [{ address: '10.1.2.3', family: 4 }];
    expect(await resolveAllowed(url, strict, rebound)).toMatchObject({ ok: false, code: 'url_not_allowed' });
  });
});

describe('the kept checks of address URLs (checkLiteral)', () => {
  // Each URL checked under one policy first, so a kept answer that ignored the policy, the scheme or the port
  // would be handed out for the second check.
  it.each([
    ['http://127.0.0.1:54321/hook', 'http://127.0.0.1:54321/other'],
    ['https://127.0.0.1/hook', 'https://127.0.0.1/hook'],
    ['http://[::1]:8080/', 'http://[::1]:8080/'],
  ])('%s: allowed for development, still refused under the strict policy', async (first, again) => {
    expect(checkLiteral(new URL(first), dev)).toMatchObject({ ok: true });
    expect(checkLiteral(new URL(again), strict)).toMatchObject({ ok: false, code: 'url_not_allowed' });
    expect(await resolveAllowed(new URL(again), strict, noDns)).toMatchObject({ ok: false, code: 'url_not_allowed' });
  });

  it('tells the scheme and the port apart', () => {
    expect(checkLiteral(new URL('https://93.184.215.14/hook'), strict)).toMatchObject({ ok: true });
    expect(checkLiteral(new URL('http://93.184.215.14/hook'), strict)).toMatchObject({ ok: false });
    expect(checkLiteral(new URL('https://93.184.215.14:22/hook'), strict)).toMatchObject({ ok: false });
    expect(checkLiteral(new URL('https://93.184.215.14:8443/hook'), strict)).toMatchObject({ ok: true });
  });

  it('leaves a name to the lookup', () => {
    expect(checkLiteral(new URL('https://example.com/hook'), strict)).toBeNull();
  });
});

describe('isPublicAddress', () => {
  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700::6810:84e5',
    '2a00:1450:4001:82b::200e',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '127.1',
    '2130706433',
    '10.255.255.255',
    '100.127.255.255',
    '169.254.0.1',
    '172.20.0.1',
    '192.0.0.170',
    '192.31.196.1',
    '192.52.193.1',
    '192.175.48.1',
    '192.168.255.255',
    '255.255.255.255',
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b::808:808',
    'fe80::1%eth0',
    '2001:2::1',
    '2620:4f:8000::1',
    '4000::1',
    'not an address',
    '',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
