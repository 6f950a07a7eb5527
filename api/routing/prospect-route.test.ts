import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { silentLogger } from '../../test/stack.js';
import type { TeamRouting } from '../../server-shared/hosts/routing-file.js';
import { parseTeam } from '../../server-shared/hosts/team.js';
import { createProspectRouter, createProspectRouting } from './prospect-route.js';
import type { AccountOwners } from './accounts.js';
import type { OwnerLookup } from './owner-lookup.js';

const host = (name: string) => ({ email: `${name}@converge.test` });
const team: Pick<TeamRouting, 'routes'> & { hosts: { email: string }[] } = {
  hosts: [host('anna'), host('dana'), host('lina')],
  routes: [
    { when: { emailDomain: ['competitor.example'] }, disqualify: 'We will write to you.' },
    { when: { companySize: ['5000+'] }, hosts: ['dana@converge.test'] },
    { hosts: '*' },
  ],
};
const accounts = (owners: Record<string, string>): AccountOwners => ({
  ownerOf: (domain) => owners[domain],
  size: Object.keys(owners).length,
  close: () => {},
});
const lookup = (answer: string | null | undefined): OwnerLookup => ({ ownerOf: () => Promise.resolve(answer) });

describe("routing a prospect: the route, then the account's owner", () => {
  it('routes by the answers and the canonical domain, with no owner when nobody owns the account', async () => {
    const router = createProspectRouter(team, {});
    expect(await router.routeOf('CFO+demo@Bank.Example', { companySize: '5000+' })).to.deep.equal({
      decision: { kind: 'hosts', rule: 1, label: 'companySize: 5000+', hosts: ['dana@converge.test'] },
      owner: undefined,
      ownerSource: 'none',
    });
  });

  it("offers the owner first: the service's answer, else the accounts file's", async () => {
    const owned = accounts({ 'bank.example': 'lina@converge.test' });
    expect(await createProspectRouter(team, { accounts: owned }).routeOf('cfo@bank.example', {})).to.deep.include({
      owner: 'lina@converge.test',
      ownerSource: 'accounts',
    });
    const both = { accounts: owned, lookup: lookup('anna@converge.test') };
    expect(await createProspectRouter(team, both).routeOf('cfo@bank.example', {})).to.deep.include({
      owner: 'anna@converge.test',
      ownerSource: 'lookup',
    });
    // The service knows none: the file is still asked. The service failed: the file answers, else it says so.
    const none = { accounts: owned, lookup: lookup(null) };
    expect(await createProspectRouter(team, none).routeOf('cfo@bank.example', {})).to.deep.include({
      ownerSource: 'accounts',
    });
    const failed = { accounts: accounts({}), lookup: lookup(undefined) };
    expect(await createProspectRouter(team, failed).routeOf('cfo@bank.example', {})).to.deep.include({
      owner: undefined,
      ownerSource: 'lookup-failed',
    });
  });

  it('disqualifies before any owner is asked, and without routes every host takes every prospect', async () => {
    const asked: string[] = [];
    const watching: OwnerLookup = {
      ownerOf: (email) => {
        asked.push(email);
        return Promise.resolve('anna@converge.test');
      },
    };
    expect(await createProspectRouter(team, { lookup: watching }).routeOf('x@eu.competitor.example', {})).to.deep.equal(
      {
        decision: {
          kind: 'disqualified',
          rule: 0,
          label: 'emailDomain: competitor.example',
          message: 'We will write to you.',
        },
        owner: undefined,
        ownerSource: 'none',
      },
    );
    expect(asked).to.deep.equal([]);
    const open = await createProspectRouter({ hosts: team.hosts, routes: undefined }, {}).routeOf('a@b.example', {});
    expect(open.decision).to.deep.equal({
      kind: 'hosts',
      rule: 0,
      label: 'everyone',
      hosts: ['anna@converge.test', 'dana@converge.test', 'lina@converge.test'],
    });
  });
});

describe('whether a team routes (GET /api/routing answers it as `routed`)', () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'converge-routed-'));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  const teamOf = (file: object) =>
    parseTeam(
      JSON.stringify({
        hosts: ['anna', 'dana'].map((name) => ({
          name,
          title: 'Solutions Engineer',
          email: `${name}@converge.test`,
          calendarUrl: `https://calendar.test/${name}/`,
          calendarUsername: 'host',
          calendarPassword: 'secret',
        })),
        ...file,
      }),
      {},
    );
  const routedOf = (file: object, accountsFile?: string) => {
    const routing = createProspectRouting(
      teamOf(file),
      { accountsFile, ownerLookup: undefined },
      silentLogger,
      () => {},
    );
    routing.close();
    return routing.routed;
  };

  it('routes with routes, or with an accounts file and no questions nor routes; not with questions alone', async () => {
    const accountsFile = path.join(folder, 'accounts.csv');
    await writeFile(accountsFile, 'domain,owner\nowned.example,dana@converge.test\n');
    expect(routedOf({})).to.equal(false);
    expect(routedOf({ questions: [{ id: 'region', label: 'Region', options: ['Europe', 'Other'] }] })).to.equal(false);
    expect(routedOf({ routes: [{ when: { emailDomain: ['big.example'] }, hosts: ['dana@converge.test'] }] })).to.equal(
      true,
    );
    expect(routedOf({}, accountsFile)).to.equal(true);
  });
});
