/**
 * GET /api/slots?route=: with a route key, a slot is offered only while the account's owner or a host of the route
 * is free, against real PostgreSQL and a real CalDAV server (xandikos).
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DaySlots } from '../../domain/booking.js';
import { parseTeam, type Team } from '../../server-shared/hosts/team.js';
import {
  CALDAV_PASSWORD,
  CALDAV_USER,
  eventIcs,
  startCalDavServer,
  type CalDavServer,
} from '../../test/caldav-server.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { silentLogger } from '../../test/stack.js';
import { HostCalendars } from '../hosts/calendars.js';
import { createProspectRouting, type ProspectRouting } from '../routing/prospect-route.js';
import { teamSlots } from './team-slots.js';

// Monday 19 October 2026, 07:00 in Berlin; the day asked is Wednesday 21 October (Berlin in summer time, UTC+2).
const NOW = new Date('2026-10-19T05:00:00Z');
const DAY = '2026-10-21';
const at = (utcHour: string) => `${DAY}T${utcHour}:00:00.000Z`;
const questions = [{ id: 'companySize', label: 'Company size', options: ['1-49', '5000+'] }];
const BIG = { companySize: '5000+' };

describe("GET /api/slots with a route key: the route's hosts and the owner alone", function () {
  this.timeout(30_000);
  let server: CalDavServer;
  let folder: string;
  let team: Team;
  let routing: ProspectRouting;
  let calendars: HostCalendars;
  let app: AppUnderTest;
  let ben: string;
  before(async () => {
    server = await startCalDavServer();
    const anna = await server.makeCalendar('anna');
    ben = await server.makeCalendar('ben');
    // 09:00 Berlin: Anna is busy; 13:00 Berlin: Ben is.
    await server.putEvent(anna, 'a9', eventIcs('a9@test', 'DTSTART:20261021T070000Z', 'DTEND:20261021T080000Z'));
    await server.putEvent(ben, 'b13', eventIcs('b13@test', 'DTSTART:20261021T110000Z', 'DTEND:20261021T120000Z'));
    folder = await mkdtemp(path.join(tmpdir(), 'converge-route-slots-'));
    const accountsFile = path.join(folder, 'accounts.csv');
    await writeFile(accountsFile, 'domain,owner\nowned.example,anna@converge.test\n');
    const host = (name: string, calendarUrl: string) => ({
      name,
      title: 'Solutions engineer',
      email: `${name.toLowerCase()}@converge.test`,
      calendarUrl,
      calendarUsername: CALDAV_USER,
      calendarPassword: CALDAV_PASSWORD,
    });
    team = parseTeam(
      JSON.stringify({
        hosts: [host('Anna', anna), host('Ben', ben)],
        questions,
        routes: [{ when: { companySize: ['5000+'] }, hosts: ['ben@converge.test'] }, { hosts: '*' }],
      }),
      {},
    );
    routing = createProspectRouting(team, { accountsFile, ownerLookup: undefined }, silentLogger, () => {});
    calendars = new HostCalendars(team.hosts, {
      logger: silentLogger,
      now: () => NOW,
      bookingTimeZone: 'Europe/Berlin',
    });
    app = await startAppUnderTest({ now: () => NOW, hostCalendars: calendars, routing });
  });
  afterEach(() => server.setFault('none'));
  after(async () => {
    await app?.close();
    routing?.close();
    await server?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const keyOf = async (email: string, answers: Record<string, string>) => {
    const answer = await app.post('/api/routing', { email, answers });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return String(answer.body.route);
  };
  const slotsOf = async (route?: string) => {
    const answer = await fetch(`${app.url}/api/slots?date=${DAY}${route ? `&route=${encodeURIComponent(route)}` : ''}`);
    expect(answer.status).to.equal(200);
    return (await answer.json()) as DaySlots;
  };
  const offered = (answer: DaySlots) => answer.slots.filter((slot) => slot.available).map((slot) => slot.start);

  it("offers a slot only where the route's host is free, not where only a host outside the route is", async () => {
    const everyone = offered(await slotsOf());
    expect(everyone).to.include.members([at('07'), at('11')]);
    const big = offered(await slotsOf(await keyOf('cfo@bank.example', BIG)));
    // Ben alone: free at 09:00 Berlin (Anna busy), busy at 13:00 (Anna free).
    expect(big).to.include(at('07'));
    expect(big).not.to.include(at('11'));
    expect(big).to.deep.equal(everyone.filter((start) => start !== at('11')));
    // The catch-all of a small company: both hosts, as without a key.
    expect(offered(await slotsOf(await keyOf('founder@shop.example', { companySize: '1-49' })))).to.deep.equal(
      everyone,
    );
  });

  it("offers the account owner's free slots too, and names the owner first", async () => {
    const owned = await keyOf('cfo@owned.example', BIG);
    expect(offered(await slotsOf(owned))).to.include.members([at('07'), at('11')]);
    const starts = [at('05'), at('07'), at('11')].map((iso) => ({ start: new Date(iso), iso }));
    const names = (
      await teamSlots(calendars, starts, new Map(), 'Europe/Berlin', ['ben@converge.test', 'anna@converge.test'])
    ).freeHosts;
    expect(Object.fromEntries(names)).to.deep.equal({
      [at('05')]: ['Ben', 'Anna'],
      [at('07')]: ['Ben'],
      [at('11')]: ['Anna'],
    });
  });

  it("says no calendar can be read when the route's own cannot, though another host's can", async () => {
    server.setFault('refuse-login', ben);
    // The calendars as read before stand for a while: a new reader reads them now.
    const fresh = new HostCalendars(team.hosts, {
      logger: silentLogger,
      now: () => NOW,
      bookingTimeZone: 'Europe/Berlin',
    });
    const answer = await teamSlots(fresh, [{ start: new Date(at('07')), iso: at('07') }], new Map(), 'Europe/Berlin', [
      'ben@converge.test',
    ]);
    expect(answer).to.deep.include({ calendarsUnreadable: true });
    expect(answer.freeHosts.get(at('07'))).to.deep.equal([]);
    const everyone = await teamSlots(fresh, [{ start: new Date(at('05')), iso: at('05') }], new Map(), 'Europe/Berlin');
    expect(everyone).to.deep.equal({ freeHosts: new Map([[at('05'), ['Anna']]]), calendarsUnreadable: false });
  });

  it('refuses a key altered, cut short or from another team with "Answer the questions again" (400)', async () => {
    const key = await keyOf('cfo@bank.example', BIG);
    const other = await startAppUnderTest({
      now: () => NOW,
      hostCalendars: calendars,
      routing: createProspectRouting(
        { ...team, routing: { questions, routes: [{ hosts: '*' }] } },
        { accountsFile: undefined, ownerLookup: undefined },
        silentLogger,
        () => {},
      ),
    });
    try {
      const refusals = [
        `${app.url}/api/slots?date=${DAY}&route=${key.slice(0, -2)}`,
        `${app.url}/api/slots?date=${DAY}&route=${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`,
        `${app.url}/api/slots?date=${DAY}&route=${key}&route=${key}`,
        `${other.url}/api/slots?date=${DAY}&route=${key}`,
      ];
      for (const url of refusals) {
        const answer = await fetch(url);
        expect(answer.status, url).to.equal(400);
        expect(await answer.json(), url).to.deep.include({ details: 'Answer the questions again' });
      }
    } finally {
      await other.close();
    }
  });
});
