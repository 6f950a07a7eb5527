/**
 * Where webhooks may go: `https://` to public addresses only, unless WEBHOOK_ALLOW_PRIVATE=true (a CRM inside the
 * company's network, and tests), which also allows `http://` and private addresses. The address is checked once the
 * name is resolved, at each try (the worker connects to the very address it checked, so a DNS answer that changes
 * between the check and the connection cannot slip a private one in); the API checks the same when an endpoint is
 * added, so a wrong one is refused at once.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved and documentation ranges; one
 * list per family, since a BlockList checks an IPv4 address against its IPv6 rules too (as ::ffff:a.b.c.d), and the
 * IPv4-mapped range is refused whole.
 */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  NOT_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::ffff:0:0', 96], // IPv4-mapped: an IPv4 address in IPv6 clothes
  ['64:ff9b::', 96], // NAT64: likewise
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

/** Whether the address (IPv4 or IPv6, as text) lies in a private, loopback or otherwise non-public range. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? NOT_PUBLIC_V4.check(address, 'ipv4') : NOT_PUBLIC_V6.check(address, 'ipv6');
}

export class TargetRefused extends Error {}

/** The URL's own rules (scheme, no credentials), before any name is resolved; returns it parsed. */
export function checkTargetUrl(value: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TargetRefused('not a URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new TargetRefused(allowPrivate ? 'only http:// and https:// URLs' : 'only https:// URLs (http:// only with WEBHOOK_ALLOW_PRIVATE=true)');
  }
  if (url.username || url.password) throw new TargetRefused('no user name or password in the URL (the signature authenticates us)');
  return url;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host (every address it has) and checks each: one private address among them refuses the
 * target, unless allowed. Returns the address to connect to.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<CheckedAddress> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  const addresses = literal !== 0 ? [{ address: host, family: literal }] : await lookup(host, { all: true, verbatim: true }).catch((err: unknown) => {
    throw new TargetRefused(`cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  });
  if (addresses.length === 0) throw new TargetRefused(`${host} has no address`);
  if (!allowPrivate) {
    const bad = addresses.find((one) => isPrivateAddress(one.address));
    if (bad) throw new TargetRefused(`${host} resolves to ${bad.address}, a private or loopback address (allowed only with WEBHOOK_ALLOW_PRIVATE=true)`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
