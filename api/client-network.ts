/**
 * The client a per-client limit counts: an IPv4 address, or an IPv6 client's /64. One IPv6 subscriber (a home, a
 * phone, a cloud machine) is given a whole /64 and may use any address in it, so counting exact IPv6 addresses
 * would give one client 2^64 allowances.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Context } from 'koa';

/** The eight 16-bit groups of an IPv6 address (its zone left out); undefined for anything else. */
export function ipv6Groups(address: string): number[] | undefined {
  const unzoned = address.replace(/%.*$/, '');
  if (!isIPv6(unzoned)) return undefined;
  // A dotted IPv4 tail (::ffff:192.0.2.1, 64:ff9b::192.0.2.1) is two groups written another way.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(unzoned);
  const hex = dotted
    ? `${unzoned.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : unzoned;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The key of the client at `address`: an IPv4 address as it is, an IPv4-mapped IPv6 address (::ffff:a.b.c.d) as
 * that IPv4 address, any other IPv6 address as its /64 (`2001:db8:1:2::/64`). Anything else is kept as given.
 */
export function clientNetwork(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The client a request's limits count: its address (ctx.ip, which TRUST_PROXY decides) widened to its network. */
export function clientKeyOf(ctx: Context): string {
  return clientNetwork(ctx.ip);
}
