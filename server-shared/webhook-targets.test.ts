/**
 * Where webhooks may go (issue 35): one row per entry of the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (as of 2025-04) and of the few ranges outside them, each address form that carries an IPv4 address with a refused
 * and an allowed one inside, and every address the issue names, as URLs; then names that resolve (localhost) or do
 * not, and WEBHOOK_URL at start.
 */
import { expect } from 'chai';
import ipaddr from 'ipaddr.js';
import { ConfigError } from './settings.js';
import { TargetRefused, TargetUnresolved, addressRefusal, checkTargetUrl, resolveTarget } from './webhook-targets.js';
import { checkWebhookUrlAddresses, newWebhookSecret } from './webhooks.js';

interface Row {
  /** As the registry writes it. */
  range: string;
  name: string;
  /** Its first and last address, and one inside when that says more. */
  samples: string[];
  /** Allowed, or refused with these words. */
  verdict: 'allowed' | RegExp;
}

const RESERVED_V4 =
  /^a reserved address \(IETF protocol assignments, documentation, benchmarking, the former 6to4 relay, or 240\.0\.0\.0\/4\)$/;
const RESERVED_V6 =
  /^a reserved address \(IETF protocol assignments 2001::\/23, or documentation 2001:db8::\/32 or 3fff::\/20\)$/;

const IPV4_REGISTRY: Row[] = [
  {
    range: '0.0.0.0/8',
    name: '"This network"',
    samples: ['0.0.0.1', '0.1.2.3', '0.255.255.255'],
    verdict: /^a "this network" address \(0\.0\.0\.0\/8\)$/,
  },
  {
    range: '0.0.0.0/32',
    name: '"This host on this network"',
    samples: ['0.0.0.0'],
    verdict: /^a "this network" address/,
  },
  {
    range: '10.0.0.0/8',
    name: 'Private-Use',
    samples: ['10.0.0.0', '10.1.2.3', '10.255.255.255'],
    verdict: /^a private address \(RFC 1918\)$/,
  },
  {
    range: '100.64.0.0/10',
    name: 'Shared Address Space',
    samples: ['100.64.0.0', '100.100.100.200', '100.127.255.255'],
    verdict: /^a shared address of carrier-grade NAT/,
  },
  {
    range: '127.0.0.0/8',
    name: 'Loopback',
    samples: ['127.0.0.0', '127.0.0.1', '127.255.255.255'],
    verdict: /^a loopback address$/,
  },
  {
    range: '169.254.0.0/16',
    name: 'Link Local',
    samples: ['169.254.0.0', '169.254.169.254', '169.254.255.255'],
    verdict: /^a link-local address \(169\.254\.0\.0\/16, where cloud metadata/,
  },
  {
    range: '172.16.0.0/12',
    name: 'Private-Use',
    samples: ['172.16.0.0', '172.20.1.1', '172.31.255.255'],
    verdict: /^a private address/,
  },
  {
    range: '192.0.0.0/24',
    name: 'IETF Protocol Assignments',
    samples: ['192.0.0.11', '192.0.0.169', '192.0.0.255'],
    verdict: RESERVED_V4,
  },
  {
    range: '192.0.0.0/29',
    name: 'IPv4 Service Continuity Prefix',
    samples: ['192.0.0.0', '192.0.0.7'],
    verdict: RESERVED_V4,
  },
  { range: '192.0.0.8/32', name: 'IPv4 dummy address', samples: ['192.0.0.8'], verdict: RESERVED_V4 },
  { range: '192.0.0.9/32', name: 'Port Control Protocol Anycast', samples: ['192.0.0.9'], verdict: 'allowed' },
  {
    range: '192.0.0.10/32',
    name: 'Traversal Using Relays around NAT Anycast',
    samples: ['192.0.0.10'],
    verdict: 'allowed',
  },
  {
    range: '192.0.0.170/31',
    name: 'NAT64/DNS64 Discovery (192.0.0.170/32, 192.0.0.171/32)',
    samples: ['192.0.0.170', '192.0.0.171'],
    verdict: RESERVED_V4,
  },
  {
    range: '192.0.2.0/24',
    name: 'Documentation (TEST-NET-1)',
    samples: ['192.0.2.0', '192.0.2.1', '192.0.2.255'],
    verdict: RESERVED_V4,
  },
  { range: '192.31.196.0/24', name: 'AS112-v4', samples: ['192.31.196.0', '192.31.196.255'], verdict: 'allowed' },
  { range: '192.52.193.0/24', name: 'AMT', samples: ['192.52.193.0', '192.52.193.255'], verdict: 'allowed' },
  {
    range: '192.88.99.0/24',
    name: 'Deprecated (6to4 Relay Anycast)',
    samples: ['192.88.99.0', '192.88.99.1', '192.88.99.255'],
    verdict: RESERVED_V4,
  },
  { range: '192.88.99.2/32', name: '6a44-relay anycast address', samples: ['192.88.99.2'], verdict: RESERVED_V4 },
  {
    range: '192.168.0.0/16',
    name: 'Private-Use',
    samples: ['192.168.0.0', '192.168.1.1', '192.168.255.255'],
    verdict: /^a private address/,
  },
  {
    range: '192.175.48.0/24',
    name: 'Direct Delegation AS112 Service',
    samples: ['192.175.48.0', '192.175.48.255'],
    verdict: 'allowed',
  },
  { range: '198.18.0.0/15', name: 'Benchmarking', samples: ['198.18.0.0', '198.19.255.255'], verdict: RESERVED_V4 },
  {
    range: '198.51.100.0/24',
    name: 'Documentation (TEST-NET-2)',
    samples: ['198.51.100.0', '198.51.100.255'],
    verdict: RESERVED_V4,
  },
  {
    range: '203.0.113.0/24',
    name: 'Documentation (TEST-NET-3)',
    samples: ['203.0.113.0', '203.0.113.255'],
    verdict: RESERVED_V4,
  },
  {
    range: '240.0.0.0/4',
    name: 'Reserved',
    samples: ['240.0.0.0', '250.1.2.3', '255.255.255.254'],
    verdict: RESERVED_V4,
  },
  {
    range: '255.255.255.255/32',
    name: 'Limited Broadcast',
    samples: ['255.255.255.255'],
    verdict: /^the limited broadcast address$/,
  },
];

const IPV4_OTHERS: Row[] = [
  {
    range: '224.0.0.0/4',
    name: 'Multicast (IPv4 Multicast Address Space registry)',
    samples: ['224.0.0.0', '224.0.0.1', '239.255.255.255'],
    verdict: /^a multicast address$/,
  },
  {
    range: '0.0.0.0/0',
    name: 'unicast, and the neighbours of the ranges above',
    samples: [
      '1.0.0.0',
      '1.1.1.1',
      '8.8.8.8',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.0',
      '192.88.98.255',
      '192.88.100.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
    ],
    verdict: 'allowed',
  },
];

const IPV6_REGISTRY: Row[] = [
  { range: '::1/128', name: 'Loopback Address', samples: ['::1'], verdict: /^the loopback address$/ },
  { range: '::/128', name: 'Unspecified Address', samples: ['::'], verdict: /^the unspecified address$/ },
  // ::ffff:0:0/96 (IPv4-mapped), 64:ff9b::/96 (IPv4-IPv6 Translat.), 2001::/32 (TEREDO), 2002::/16 (6to4): EMBEDDED below.
  {
    range: '64:ff9b:1::/48',
    name: 'IPv4-IPv6 Translat. (local use)',
    samples: ['64:ff9b:1::', '64:ff9b:1::808:808', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a local-use NAT64 address \(64:ff9b:1::\/48\)/,
  },
  {
    range: '100::/64',
    name: 'Discard-Only Address Block',
    samples: ['100::', '100::ffff:ffff:ffff:ffff'],
    verdict: /^a discard-only address \(100::\/64\)$/,
  },
  {
    range: '100:0:0:1::/64',
    name: 'Dummy IPv6 Prefix',
    samples: ['100:0:0:1::', '100:0:0:1:ffff:ffff:ffff:ffff'],
    verdict: /^a dummy IPv6 address \(100:0:0:1::\/64\)$/,
  },
  {
    range: '2001::/23',
    name: 'IETF Protocol Assignments',
    samples: ['2001:1::', '2001:1::4', '2001:5::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: RESERVED_V6,
  },
  { range: '2001:1::1/128', name: 'Port Control Protocol Anycast', samples: ['2001:1::1'], verdict: 'allowed' },
  {
    range: '2001:1::2/128',
    name: 'Traversal Using Relays around NAT Anycast',
    samples: ['2001:1::2'],
    verdict: 'allowed',
  },
  {
    range: '2001:1::3/128',
    name: 'DNS-SD Service Registration Protocol Anycast',
    samples: ['2001:1::3'],
    verdict: 'allowed',
  },
  {
    range: '2001:2::/48',
    name: 'Benchmarking',
    samples: ['2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a benchmarking address \(2001:2::\/48\)$/,
  },
  {
    range: '2001:3::/32',
    name: 'AMT',
    samples: ['2001:3::', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: 'allowed',
  },
  {
    range: '2001:4:112::/48',
    name: 'AS112-v6',
    samples: ['2001:4:112::', '2001:4:112:ffff:ffff:ffff:ffff:ffff'],
    verdict: 'allowed',
  },
  {
    range: '2001:10::/28',
    name: 'Deprecated (previously ORCHID)',
    samples: ['2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a deprecated ORCHID address/,
  },
  {
    range: '2001:20::/28',
    name: 'ORCHIDv2',
    samples: ['2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: 'allowed',
  },
  {
    range: '2001:30::/28',
    name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix',
    samples: ['2001:30::', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: 'allowed',
  },
  {
    range: '2001:db8::/32',
    name: 'Documentation',
    samples: ['2001:db8::', '2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: RESERVED_V6,
  },
  {
    range: '2620:4f:8000::/48',
    name: 'Direct Delegation AS112 Service',
    samples: ['2620:4f:8000::', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff'],
    verdict: 'allowed',
  },
  {
    range: '3fff::/20',
    name: 'Documentation',
    samples: ['3fff::', '3fff::1', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: RESERVED_V6,
  },
  {
    range: '5f00::/16',
    name: 'Segment Routing (SRv6) SIDs',
    samples: ['5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a Segment Routing SID \(5f00::\/16\)$/,
  },
  {
    range: 'fc00::/7',
    name: 'Unique-Local',
    samples: ['fc00::', 'fd12:3456:789a::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a unique-local address \(fc00::\/7/,
  },
  {
    range: 'fe80::/10',
    name: 'Link-Local Unicast',
    samples: ['fe80::', 'fe80::1', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a link-local address \(fe80::\/10\)$/,
  },
];

const IPV6_OTHERS: Row[] = [
  {
    range: 'fec0::/10',
    name: 'Site-local (deprecated, RFC 3879; IPv6 Address Space registry)',
    samples: ['fec0::', 'fec0::1', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a site-local address \(fec0::\/10, deprecated/,
  },
  {
    range: 'ff00::/8',
    name: 'Multicast',
    samples: ['ff00::', 'ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    verdict: /^a multicast address$/,
  },
  {
    range: '::/0',
    name: 'outside 2000::/3, the global unicast space (IPv6 Address Space registry: reserved by the IETF)',
    samples: [
      '::1:0:0:0',
      '1::1',
      '100:0:0:2::1',
      '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      '4000::',
      '6000::1',
      'e000::1',
      'fb00::1',
      'fe00::1',
    ],
    verdict: /^outside 2000::\/3, the only IPv6 space allocated for global unicast$/,
  },
  {
    range: '2000::/3',
    name: 'global unicast, and the neighbours of the ranges above',
    samples: [
      '2000::',
      '2001:200::1',
      '2001:4860:4860::8888',
      '2001:db9::',
      '2003::1',
      '2606:4700:4700::1111',
      '2620:4f:7fff:ffff:ffff:ffff:ffff:ffff',
      '2620:4f:8001::',
      '3ffe::1',
      '3fff:1000::',
      '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    ],
    verdict: 'allowed',
  },
];

/** Each form that carries an IPv4 address: refused for a refused IPv4 address, allowed for a public one. */
const EMBEDDED: Row[] = [
  {
    range: '::/96',
    name: 'IPv4-compatible (deprecated, RFC 4291)',
    samples: ['::7f00:1', '::7f00:2'],
    verdict: /^an IPv4-compatible address of 127\.0\.0\.[12], a loopback address$/,
  },
  {
    range: '::/96',
    name: 'IPv4-compatible, the cloud metadata address',
    samples: ['::a9fe:a9fe'],
    verdict: /^an IPv4-compatible address of 169\.254\.169\.254, a link-local address/,
  },
  { range: '::/96', name: 'IPv4-compatible, public', samples: ['::808:808', '::100:0'], verdict: 'allowed' },
  {
    range: '::ffff:0:0/96',
    name: 'IPv4-mapped',
    samples: ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    verdict: /^an IPv4-mapped address of 127\.0\.0\.1, a loopback address$/,
  },
  {
    range: '::ffff:0:0/96',
    name: 'IPv4-mapped, private',
    samples: ['::ffff:10.0.0.1'],
    verdict: /^an IPv4-mapped address of 10\.0\.0\.1, a private address/,
  },
  { range: '::ffff:0:0/96', name: 'IPv4-mapped, public', samples: ['::ffff:8.8.8.8'], verdict: 'allowed' },
  {
    range: '::ffff:0:0:0/96',
    name: 'IPv4-translated (SIIT, RFC 6145)',
    samples: ['::ffff:0:127.0.0.1'],
    verdict: /^an IPv4-translated \(SIIT\) address of 127\.0\.0\.1, a loopback address$/,
  },
  { range: '::ffff:0:0:0/96', name: 'IPv4-translated, public', samples: ['::ffff:0:8.8.8.8'], verdict: 'allowed' },
  {
    range: '64:ff9b::/96',
    name: 'IPv4-IPv6 Translat. (NAT64, RFC 6052)',
    samples: ['64:ff9b::127.0.0.1'],
    verdict: /^a NAT64 address of 127\.0\.0\.1, a loopback address$/,
  },
  {
    range: '64:ff9b::/96',
    name: 'NAT64, the cloud metadata address',
    samples: ['64:ff9b::a9fe:a9fe'],
    verdict: /^a NAT64 address of 169\.254\.169\.254, a link-local address/,
  },
  {
    range: '64:ff9b::/96',
    name: 'NAT64, public',
    samples: ['64:ff9b::8.8.8.8', '64:ff9b::1.1.1.1'],
    verdict: 'allowed',
  },
  {
    range: '64:ff9b:1::/48',
    name: 'local-use NAT64, public or not: refused whole',
    samples: ['64:ff9b:1::7f00:1', '64:ff9b:1::a9fe:a9fe', '64:ff9b:1::8.8.8.8'],
    verdict: /^a local-use NAT64 address/,
  },
  {
    range: '2002::/16',
    name: '6to4 (RFC 3056)',
    samples: ['2002:7f00:1::1'],
    verdict: /^a 6to4 address of 127\.0\.0\.1, a loopback address$/,
  },
  {
    range: '2002::/16',
    name: '6to4, the cloud metadata address',
    samples: ['2002:a9fe:a9fe::'],
    verdict: /^a 6to4 address of 169\.254\.169\.254, a link-local address/,
  },
  { range: '2002::/16', name: '6to4, public', samples: ['2002:808:808::1', '2002:101:101:1::1'], verdict: 'allowed' },
  {
    range: '2001::/32',
    name: 'Teredo (RFC 4380), a loopback server',
    samples: ['2001:0:7f00:1:8000:63bf:f7f7:f7f7'],
    verdict: /^a Teredo address whose server is 127\.0\.0\.1, a loopback address$/,
  },
  {
    range: '2001::/32',
    name: 'Teredo, a loopback client (stored inverted)',
    samples: ['2001:0:808:808:8000:63bf:80ff:fffe'],
    verdict: /^a Teredo address whose client is 127\.0\.0\.1, a loopback address$/,
  },
  {
    range: '2001::/32',
    name: "Teredo, RFC 4380's example: client 192.0.2.45, a documentation address",
    samples: ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    verdict: /^a Teredo address whose client is 192\.0\.2\.45, a reserved address/,
  },
  {
    range: '2001::/32',
    name: 'Teredo, server and client public',
    samples: ['2001:0:808:808:8000:63bf:f7f7:f7f7', '2001:0:4136:e378:8000:63bf:fefe:fefe'],
    verdict: 'allowed',
  },
];

function check(rows: Row[]): void {
  for (const { range, name, samples, verdict } of rows) {
    const cidr = ipaddr.parseCIDR(range);
    for (const sample of samples) {
      const label = `${sample} in ${range} (${name})`;
      // The row itself: its samples lie in its range.
      expect(ipaddr.parse(sample).match(cidr), `${label}: not in the range`).to.equal(true);
      const refused = addressRefusal(sample);
      if (verdict === 'allowed') expect(refused, label).to.equal(undefined);
      else expect(refused, label).to.match(verdict);
    }
  }
}

describe('webhook target addresses (server-shared/webhook-targets.ts)', () => {
  it('judge every range of the IANA IPv4 Special-Purpose Address Registry by its "Globally Reachable"', () => {
    expect(IPV4_REGISTRY).to.have.length(25);
    check(IPV4_REGISTRY);
  });

  it('refuse IPv4 multicast, and allow unicast next to every range', () => check(IPV4_OTHERS));

  it('judge every range of the IANA IPv6 Special-Purpose Address Registry by its "Globally Reachable"', () => {
    // 21 here and the four forms that carry an IPv4 address, below.
    expect(IPV6_REGISTRY).to.have.length(21);
    check(IPV6_REGISTRY);
  });

  it('refuse the deprecated site-local range, multicast, and anything outside 2000::/3; allow global unicast next to every range', () =>
    check(IPV6_OTHERS));

  it('judge the IPv4 address inside every form that carries one by the IPv4 rules (Teredo: its server and its client)', () =>
    check(EMBEDDED));

  it('read ::a.b.c.d as IPv4-compatible, as RFC 4291 and Node do (ipaddr.js alone reads it as IPv4-mapped)', () => {
    expect(addressRefusal('::127.0.0.1')).to.equal('an IPv4-compatible address of 127.0.0.1, a loopback address');
    expect(addressRefusal('::ffff:127.0.0.1')).to.equal('an IPv4-mapped address of 127.0.0.1, a loopback address');
    expect(addressRefusal('::8.8.8.8')).to.equal(undefined);
  });

  it('are no IP address otherwise', () => {
    expect(addressRefusal('example.com')).to.equal('not an IP address');
    expect(addressRefusal('')).to.equal('not an IP address');
  });
});

describe('webhook target URLs', () => {
  // The issue's: accepted (201) before, with WEBHOOK_ALLOW_PRIVATE unset.
  const ISSUE_URLS: Array<[string, string]> = [
    ['https://[::127.0.0.1]/h', '::7f00:1 is an IPv4-compatible address of 127.0.0.1, a loopback address'],
    [
      'https://[::ffff:0:127.0.0.1]/h',
      '::ffff:0:7f00:1 is an IPv4-translated (SIIT) address of 127.0.0.1, a loopback address',
    ],
    [
      'https://[64:ff9b:1::7f00:1]/h',
      '64:ff9b:1::7f00:1 is a local-use NAT64 address (64:ff9b:1::/48), whose translator reaches its own network',
    ],
    [
      'https://[::a9fe:a9fe]/h',
      '::a9fe:a9fe is an IPv4-compatible address of 169.254.169.254, a link-local address (169.254.0.0/16, where cloud metadata services answer)',
    ],
    [
      'https://[64:ff9b:1::a9fe:a9fe]/h',
      '64:ff9b:1::a9fe:a9fe is a local-use NAT64 address (64:ff9b:1::/48), whose translator reaches its own network',
    ],
    ['https://[fec0::1]/h', "fec0::1 is a site-local address (fec0::/10, deprecated, a private network's)"],
    [
      'https://[2001:0:7f00:1::1]/h',
      '2001:0:7f00:1::1 is a Teredo address whose server is 127.0.0.1, a loopback address',
    ],
    [
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/h',
      '2001:0:4136:e378:8000:63bf:80ff:fffe is a Teredo address whose client is 127.0.0.1, a loopback address',
    ],
    ['https://[2002:7f00:1::1]/h', '2002:7f00:1::1 is a 6to4 address of 127.0.0.1, a loopback address'],
    [
      'https://[2002:a9fe:a9fe::1]/h',
      '2002:a9fe:a9fe::1 is a 6to4 address of 169.254.169.254, a link-local address (169.254.0.0/16, where cloud metadata services answer)',
    ],
  ];

  it('refuse each address the issue lists, saying which range, before any name is resolved and again when resolved', async () => {
    for (const [url, why] of ISSUE_URLS) {
      const said = `${why} (allowed only with WEBHOOK_ALLOW_PRIVATE=true)`;
      expect(() => checkTargetUrl(url, false), url).to.throw(TargetRefused, said);
      let refused: unknown;
      await resolveTarget(new URL(url), false).catch((err: unknown) => (refused = err));
      expect(refused, url).to.be.an.instanceOf(TargetRefused).with.property('message', said);
    }
  });

  it('allow each of them with WEBHOOK_ALLOW_PRIVATE=true, connecting to the address written', async () => {
    for (const [url] of ISSUE_URLS) {
      const parsed = checkTargetUrl(url, true);
      expect(await resolveTarget(parsed, true), url).to.deep.equal({
        address: parsed.hostname.slice(1, -1),
        family: 6,
      });
    }
    expect(await resolveTarget(checkTargetUrl('http://127.0.0.1:8080/h', true), true)).to.deep.equal({
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('allow a public address, also inside NAT64 or 6to4, and refuse a private one written in IPv4 shorthand', async () => {
    for (const [url, address] of [
      ['https://8.8.8.8/h', '8.8.8.8'],
      ['https://[2606:4700:4700::1111]/h', '2606:4700:4700::1111'],
      ['https://[64:ff9b::8.8.8.8]/h', '64:ff9b::808:808'],
      ['https://[2002:808:808::1]/h', '2002:808:808::1'],
    ] as const) {
      expect(await resolveTarget(checkTargetUrl(url, false), false), url).to.include({ address });
    }
    // The URL parser writes these out (0x7f.1 is 127.0.0.1, 2130706433 too) before they are judged.
    for (const url of ['https://0x7f.1/h', 'https://2130706433/h', 'https://0177.0.0.1/h']) {
      expect(() => checkTargetUrl(url, false), url).to.throw(TargetRefused, '127.0.0.1 is a loopback address');
    }
  });

  it('refuse a name that resolves to a loopback address (localhost), and say when a name does not resolve', async () => {
    let refused: unknown;
    await resolveTarget(checkTargetUrl('https://localhost/h', false), false).catch((err: unknown) => (refused = err));
    expect(refused).to.be.an.instanceOf(TargetRefused).and.not.an.instanceOf(TargetUnresolved);
    expect((refused as Error).message).to.match(
      /^localhost resolves to (127\.0\.0\.1, a loopback address|::1, the loopback address) \(allowed only with WEBHOOK_ALLOW_PRIVATE=true\)$/,
    );
    expect(await resolveTarget(checkTargetUrl('https://localhost/h', true), true))
      .to.have.property('address')
      .that.matches(/^(127\.0\.0\.1|::1)$/);
    let unresolved: unknown;
    // .invalid never resolves (RFC 6761).
    await resolveTarget(checkTargetUrl('https://crm.converge-test.invalid/h', false), false).catch(
      (err: unknown) => (unresolved = err),
    );
    expect(unresolved).to.be.an.instanceOf(TargetUnresolved);
    expect((unresolved as Error).message).to.match(/^cannot resolve crm\.converge-test\.invalid: /);
  });
});

describe('WEBHOOK_URL at start (checkWebhookUrlAddresses)', () => {
  const secret = newWebhookSecret();
  const settings = (url: string, allowPrivate = false) => ({ endpoint: { url, secret }, allowPrivate });

  it('stops start-up when its name resolves to an address every try would refuse, naming WEBHOOK_URL and why', async () => {
    let stopped: unknown;
    await checkWebhookUrlAddresses(settings('https://localhost:9/hooks')).catch((err: unknown) => (stopped = err));
    expect(stopped).to.be.an.instanceOf(ConfigError);
    expect((stopped as Error).message).to.match(
      /^WEBHOOK_URL: localhost resolves to (127\.0\.0\.1|::1), (a|the) loopback address \(allowed only with WEBHOOK_ALLOW_PRIVATE=true\), got "https:\/\/localhost:9\/hooks"$/,
    );
  });

  it('only warns when the name cannot be resolved now (DNS may be briefly down), naming WEBHOOK_URL', async () => {
    const warning = await checkWebhookUrlAddresses(settings('https://crm.converge-test.invalid/hooks'));
    expect(warning).to.match(
      /^WEBHOOK_URL: cannot resolve crm\.converge-test\.invalid: \S+; starting anyway, and each delivery resolves it again \(got "https:\/\/crm\.converge-test\.invalid\/hooks"\)$/,
    );
  });

  it('says nothing for a public address, none set, or loopback with WEBHOOK_ALLOW_PRIVATE=true', async () => {
    expect(await checkWebhookUrlAddresses(settings('https://[2606:4700:4700::1111]/hooks'))).to.equal(undefined);
    expect(await checkWebhookUrlAddresses({ endpoint: undefined, allowPrivate: false })).to.equal(undefined);
    expect(await checkWebhookUrlAddresses(settings('http://localhost:9/hooks', true))).to.equal(undefined);
  });
});
