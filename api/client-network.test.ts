import { BlockList } from 'node:net';
import { expect } from 'chai';
import { clientNetwork, ipv6Groups } from './client-network.js';

describe('the client a limit counts (clientNetwork)', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientNetwork('203.0.113.7')).to.equal('203.0.113.7');
    expect(clientNetwork('127.0.0.1')).to.equal('127.0.0.1');
  });

  it('takes an IPv4-mapped IPv6 address, dotted or hexadecimal, any case, as its IPv4 address', () => {
    for (const mapped of [
      '::ffff:203.0.113.7',
      '::FFFF:203.0.113.7',
      '::ffff:cb00:7107',
      '0:0:0:0:0:ffff:cb00:7107',
      '0000:0000:0000:0000:0000:FFFF:CB00:7107',
    ]) {
      expect(clientNetwork(mapped), mapped).to.equal('203.0.113.7');
    }
  });

  it('counts every other IPv6 address by its /64, in one written form', () => {
    const network = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:DB8:1:2::ffff',
      '2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd',
      '2001:db8:1:2:0:0:0:0',
      '2001:db8:1:2::1%eth0',
    ]) {
      expect(clientNetwork(address), address).to.equal(network);
    }
    expect(clientNetwork('2001:db8:1:3::1')).to.equal('2001:db8:1:3::/64');
    expect(clientNetwork('::1')).to.equal('0:0:0:0::/64');
    expect(clientNetwork('64:ff9b::203.0.113.7'), 'NAT64 is not IPv4-mapped').to.equal('64:ff9b:0:0::/64');
    expect(clientNetwork('::ffff:0:203.0.113.7'), 'IPv4-translated is not IPv4-mapped either').to.equal('0:0:0:0::/64');
  });

  it('keeps what is not an address as given', () => {
    expect(clientNetwork('')).to.equal('');
    expect(clientNetwork('not-an-address')).to.equal('not-an-address');
    expect(clientNetwork('2001:db8::1::2')).to.equal('2001:db8::1::2');
  });

  it("agrees with Node's BlockList on which addresses share a /64, over many random addresses", () => {
    let seed = 20;
    const random16 = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed & 0xffff;
    };
    for (let i = 0; i < 500; i++) {
      const groups = Array.from({ length: 8 }, () => (random16() % 4 === 0 ? 0 : random16()));
      // Written in the shortest form some of the time (zeros compressed), in full the rest.
      const full = groups.map((group) => group.toString(16)).join(':');
      const address = i % 2 === 0 ? full : full.replace(/(^|:)0(:0)+(:|$)/, '::');
      expect(ipv6Groups(address), address).to.deep.equal(groups);
      const network = clientNetwork(address);
      if (network.includes('.')) continue;
      const blocks = new BlockList();
      blocks.addSubnet(network.replace('::/64', '::'), 64, 'ipv6');
      expect(blocks.check(address, 'ipv6'), `${address} in ${network}`).to.equal(true);
      const neighbour = [...groups];
      neighbour[3] = (neighbour[3]! + 1) & 0xffff;
      expect(
        blocks.check(neighbour.map((group) => group.toString(16)).join(':'), 'ipv6'),
        'the next /64 is not',
      ).to.equal(false);
    }
  });
});
