import { expect } from 'chai';
import { routedTeam } from './prospect-route.js';
import type { HostsRoute } from './route-answer.js';
import { ROUTE_KEY_LIFETIME_MS, routeKey, routeOfKey } from './route-key.js';

const SECRET = 'route-key-test-secret-0123456789abcdef';
const OTHER_SECRET = 'another-secret-of-the-route-key-test-0123';
const NOW = new Date('2026-11-18T09:30:00Z');
const hosts = ['anna', 'dana', 'lina'].map((name) => ({ email: `${name}@converge.test` }));
const team = routedTeam({
  hosts,
  routes: [
    { when: { emailDomain: ['competitor.example'] }, disqualify: 'We will write to you.' },
    { when: { companySize: ['5000+'] }, hosts: ['dana@converge.test', 'anna@converge.test'] },
    { hosts: '*' },
  ],
});
const route = (rule: number, routeHosts: string[], owner?: string): HostsRoute => ({
  decision: { kind: 'hosts', rule, label: 'a route', hosts: routeHosts },
  owner,
  ownerSource: owner ? 'accounts' : 'none',
});
const bigCompany = route(1, ['dana@converge.test', 'anna@converge.test']);

describe('the route key', () => {
  it("leads back to the route's hosts, the owner first, and carries no e-mail address", () => {
    const key = routeKey(bigCompany, team, SECRET, NOW);
    expect(key).to.match(/^[A-Za-z0-9_-]{34}$/);
    expect(Buffer.from(key, 'base64url').toString('latin1')).not.to.contain('@');
    expect(routeOfKey(key, team, NOW, SECRET)).to.deep.equal({
      hosts: ['dana@converge.test', 'anna@converge.test'],
    });
    const owned = routeKey(route(1, bigCompany.decision.hosts as string[], 'Lina@converge.test'), team, SECRET, NOW);
    expect(routeOfKey(owned, team, NOW, SECRET)?.hosts).to.deep.equal([
      'lina@converge.test',
      'dana@converge.test',
      'anna@converge.test',
    ]);
    // The owner among the route's hosts is named once, first.
    const ownerInRoute = routeKey(route(2, team.hosts as string[], 'dana@converge.test'), team, SECRET, NOW);
    expect(routeOfKey(ownerInRoute, team, NOW, SECRET)?.hosts).to.deep.equal([
      'dana@converge.test',
      'anna@converge.test',
      'lina@converge.test',
    ]);
  });

  it('refuses a key altered, cut short, lengthened or made with another secret', () => {
    const key = routeKey(bigCompany, team, SECRET, NOW);
    const flipped = (at: number) => key.slice(0, at) + (key[at] === 'A' ? 'B' : 'A') + key.slice(at + 1);
    for (let at = 0; at < key.length; at += 1)
      expect(routeOfKey(flipped(at), team, NOW, SECRET), `at ${at}`).to.equal(undefined);
    expect(routeOfKey(key.slice(0, -1), team, NOW, SECRET)).to.equal(undefined);
    expect(routeOfKey(`${key}A`, team, NOW, SECRET)).to.equal(undefined);
    expect(routeOfKey('', team, NOW, SECRET)).to.equal(undefined);
    expect(routeOfKey(key, team, NOW, OTHER_SECRET)).to.equal(undefined);
    // Made before a rotation of the secret: still honoured while the old secret is listed.
    expect(routeOfKey(key, team, NOW, OTHER_SECRET, [SECRET])?.hosts).to.have.length(2);
  });

  it('refuses a key past its lifetime, or made against another team', () => {
    const key = routeKey(bigCompany, team, SECRET, NOW);
    const later = (ms: number) => new Date(NOW.getTime() + ms);
    expect(routeOfKey(key, team, later(ROUTE_KEY_LIFETIME_MS - 60_000), SECRET)).not.to.equal(undefined);
    expect(routeOfKey(key, team, later(ROUTE_KEY_LIFETIME_MS + 60_000), SECRET)).to.equal(undefined);
    expect(routeOfKey(key, team, later(-60 * 60_000), SECRET)).to.equal(undefined);
    // The team file changed: the route's index may name another route now.
    const reordered = routedTeam({ hosts, routes: [...team.routes].reverse() });
    expect(routeOfKey(key, reordered, NOW, SECRET)).to.equal(undefined);
    const hired = routedTeam({ hosts: [...hosts, { email: 'omar@converge.test' }], routes: [...team.routes] });
    expect(routeOfKey(key, hired, NOW, SECRET)).to.equal(undefined);
  });

  it('never leads to a route that disqualifies', () => {
    // Only a forger could make one: routeKey is given hosts routes alone.
    const disqualifying = routeKey(route(0, []), team, SECRET, NOW);
    expect(routeOfKey(disqualifying, team, NOW, SECRET)).to.equal(undefined);
  });
});
