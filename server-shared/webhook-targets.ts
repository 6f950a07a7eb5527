/**
 * Where webhooks may go: `https://` to globally reachable addresses only, unless WEBHOOK_ALLOW_PRIVATE=true (a CRM
 * inside the company's network, and tests), which also allows `http://` and any address. The address is checked once
 * the name is resolved, at each try (the worker connects to the very address it checked, so a DNS answer that changes
 * between the check and the connection cannot slip a private one in); the API checks the same when an endpoint is
 * added, so a wrong one is refused at once, and at start for WEBHOOK_URL (server-shared/webhooks.ts).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

// The rule: allowed only if globally reachable per the IANA special-purpose registries; IPv4 carried in IPv6 is judged as IPv4.

/**
 * The registries' ranges as ipaddr.js names them (`range()`), with whether each is globally reachable: null when
 * it is, else what to tell a person. A name not listed here (a later ipaddr.js may add one) is refused.
 */
const IPV4_RANGES: Readonly<Record<string, string | null>> = {
  unicast: null,
  as112: null, // AS112 (192.31.196.0/24, 192.175.48.0/24)
  amt: null, // Automatic Multicast Tunneling relays (192.52.193.0/24)
  unspecified: 'a "this network" address (0.0.0.0/8)',
  broadcast: 'the limited broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (169.254.0.0/16, where cloud metadata services answer)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a shared address of carrier-grade NAT (100.64.0.0/10)',
  private: 'a private address (RFC 1918)',
  reserved:
    'a reserved address (IETF protocol assignments, documentation, benchmarking, the former 6to4 relay, or 240.0.0.0/4)',
};
const IPV6_RANGES: Readonly<Record<string, string | null>> = {
  unicast: null, // then also inside 2000::/3, below
  amt: null, // 2001:3::/32
  as112v6: null, // 2001:4:112::/48, 2620:4f:8000::/48
  orchid2: null, // 2001:20::/28
  droneRemoteIdProtocolEntityTags: null, // 2001:30::/28
  unspecified: 'the unspecified address',
  loopback: 'the loopback address',
  linkLocal: 'a link-local address (fe80::/10)',
  multicast: 'a multicast address',
  uniqueLocal: "a unique-local address (fc00::/7, a private network's)",
  deprecatedSiteLocal: "a site-local address (fec0::/10, deprecated, a private network's)",
  discard: 'a discard-only address (100::/64)',
  benchmarking: 'a benchmarking address (2001:2::/48)',
  deprecatedOrchid: 'a deprecated ORCHID address (2001:10::/28)',
  segmentRouting: 'a Segment Routing SID (5f00::/16)',
  reserved: 'a reserved address (IETF protocol assignments 2001::/23, or documentation 2001:db8::/32 or 3fff::/20)',
};

/**
 * Entries of the IANA IPv4 and IPv6 Special-Purpose Address Registries (iana.org/assignments/iana-ipv4-special-registry
 * and iana-ipv6-special-registry, as of 2025-04) that ipaddr.js 2.5 lacks, or files under one name with a range of
 * the other reachability. Checked before ipaddr.js; `refused`: what to tell a person, null when globally reachable.
 */
const MORE_SPECIFIC: ReadonlyArray<{ range: [IPv4 | IPv6, number]; refused: string | null }> = (
  [
    ['192.0.0.9/32', null], // Port Control Protocol anycast, inside 192.0.0.0/24
    ['192.0.0.10/32', null], // TURN anycast, inside 192.0.0.0/24
    // ipaddr.js names it rfc6052 with the well-known 64:ff9b::/96; its translator's prefix may be any RFC 6052 length,
    // so where the IPv4 address sits is not known: refused whole, as the registry says.
    ['64:ff9b:1::/48', 'a local-use NAT64 address (64:ff9b:1::/48), whose translator reaches its own network'],
    ['100:0:0:1::/64', 'a dummy IPv6 address (100:0:0:1::/64)'],
    ['2001:1::1/128', null], // Port Control Protocol anycast, inside 2001::/23
    ['2001:1::2/128', null], // TURN anycast
    ['2001:1::3/128', null], // DNS-SD Service Registration Protocol anycast
  ] as const
).map(([cidr, refused]) => ({ range: ipaddr.parseCIDR(cidr), refused }));

/** IPv4-compatible (RFC 4291, deprecated); ipaddr.js names :: and ::1, inside it, first. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** The only IPv6 space allocated for global unicast (IANA IPv6 Address Space registry); the rest is reserved. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

function moreSpecific(address: IPv4 | IPv6): string | null | undefined {
  const entry = MORE_SPECIFIC.find(({ range }) => address.kind() === range[0].kind() && address.match(range));
  return entry === undefined ? undefined : entry.refused;
}

function ipv4Refusal(address: IPv4): string | undefined {
  const special = moreSpecific(address);
  if (special !== undefined) return special ?? undefined;
  return namedRefusal(IPV4_RANGES, address.range());
}

/** The words for ipaddr.js's range `name`; one not in `words` is refused. */
function namedRefusal(words: Readonly<Record<string, string | null>>, name: string): string | undefined {
  if (!Object.hasOwn(words, name)) return `a special-purpose address (${name})`;
  return words[name] ?? undefined;
}

/** The IPv4 address in the 32 bits from the address's 16-bit group `at` on, each byte XORed with `mask`. */
function ipv4At(address: IPv6, at: number, mask = 0): IPv4 {
  const bytes = address
    .toByteArray()
    .slice(at * 2, at * 2 + 4)
    .map((byte) => byte ^ mask);
  return new ipaddr.IPv4(bytes);
}

/** `form` of the IPv4 address it carries, refused with that address's reason; undefined when that one is allowed. */
function carried(form: string, ...inner: Array<[string, IPv4]>): string | undefined {
  for (const [role, address] of inner) {
    const refused = ipv4Refusal(address);
    if (refused) return `${form} ${role} ${address.toString()}, ${refused}`;
  }
  return undefined;
}

function ipv6Refusal(address: IPv6): string | undefined {
  const special = moreSpecific(address);
  if (special !== undefined) return special ?? undefined;
  const range = address.range();
  switch (range) {
    case 'ipv4Mapped':
      return carried('an IPv4-mapped address', ['of', address.toIPv4Address()]);
    case 'rfc6145':
      return carried('an IPv4-translated (SIIT) address', ['of', ipv4At(address, 6)]);
    case 'rfc6052': // 64:ff9b::/96 only: the local-use /48 is refused above
      return carried('a NAT64 address', ['of', ipv4At(address, 6)]);
    case '6to4':
      return carried('a 6to4 address', ['of', ipv4At(address, 1)]);
    case 'teredo': // the server's address, then the client's, stored inverted
      return carried(
        'a Teredo address',
        ['whose server is', ipv4At(address, 2)],
        ['whose client is', ipv4At(address, 6, 0xff)],
      );
    case 'unicast':
      if (address.match(IPV4_COMPATIBLE)) return carried('an IPv4-compatible address', ['of', ipv4At(address, 6)]);
      if (!address.match(GLOBAL_UNICAST)) return 'outside 2000::/3, the only IPv6 space allocated for global unicast';
      return undefined;
  }
  return namedRefusal(IPV6_RANGES, range);
}

/**
 * Why the address (IPv4 or IPv6, as text) may not be a webhook's target without WEBHOOK_ALLOW_PRIVATE, as words for
 * a person ("an IPv4-compatible address of 127.0.0.1, a loopback address"); undefined when it is globally reachable.
 */
export function addressRefusal(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 4) return ipv4Refusal(ipaddr.IPv4.parse(address));
  // ipaddr.js reads `::a.b.c.d` as IPv4-mapped, where RFC 4291 (and Node's resolver, which writes IPv4-compatible
  // addresses so) mean IPv4-compatible: the dotted tail is written in hexadecimal first.
  const hex = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a: string, b: string, c: string, d: string) =>
      `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`,
  );
  return ipv6Refusal(ipaddr.IPv6.parse(hex));
}

export class TargetRefused extends Error {}
/** The name could not be resolved (now): refused for this try, but not known to be wrong. */
export class TargetUnresolved extends TargetRefused {}

const ALLOW_HINT = 'allowed only with WEBHOOK_ALLOW_PRIVATE=true';

/** The URL's host without the brackets of an IPv6 literal. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The URL's own rules (scheme, no credentials, and a literal address judged as a resolved one would be), before any
 * name is resolved; returns it parsed.
 */
export function checkTargetUrl(value: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TargetRefused('not a URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new TargetRefused(
      allowPrivate
        ? 'only http:// and https:// URLs'
        : 'only https:// URLs (http:// only with WEBHOOK_ALLOW_PRIVATE=true)',
    );
  }
  if (url.username || url.password)
    throw new TargetRefused('no user name or password in the URL (the signature authenticates us)');
  const host = hostOf(url);
  if (!allowPrivate && isIP(host) !== 0) {
    const refused = addressRefusal(host);
    if (refused) throw new TargetRefused(`${host} is ${refused} (${ALLOW_HINT})`);
  }
  return url;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host (every address it has) and checks each: one refused address among them refuses the
 * target, unless allowed. Returns the address to connect to.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<CheckedAddress> {
  const host = hostOf(url);
  const literal = isIP(host);
  const addresses =
    literal !== 0
      ? [{ address: host, family: literal }]
      : await lookup(host, { all: true, verbatim: true }).catch((err: unknown) => {
          throw new TargetUnresolved(`cannot resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
        });
  if (addresses.length === 0) throw new TargetUnresolved(`${host} has no address`);
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const refused = addressRefusal(address);
      if (refused)
        throw new TargetRefused(
          `${literal !== 0 ? `${host} is` : `${host} resolves to ${address},`} ${refused} (${ALLOW_HINT})`,
        );
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
