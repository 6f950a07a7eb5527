import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadApiConfig } from '../config.js';
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
import { parseTeam } from '../../server-shared/hosts/team.js';
import type { DaySlots } from '../../domain/booking.js';

const TOKEN = 'operations-token-of-the-team-slots-test-0123456789';
// Monday 19 October 2026, 07:00 in Berlin; the day asked is Wednesday 21 October (Berlin in summer time, UTC+2).
const NOW = new Date('2026-10-19T05:00:00Z');

const teamOf = (hosts: { name: string; url: string; workingHours?: unknown }[]) =>
  parseTeam(
    JSON.stringify({
      hosts: hosts.map(({ name, url, workingHours }) => ({
        name,
        title: 'Solutions engineer',
        email: `${name.toLowerCase()}@converge.test`,
        calendarUrl: url,
        calendarUsername: CALDAV_USER,
        calendarPassword: CALDAV_PASSWORD,
        ...(workingHours ? { workingHours } : {}),
      })),
    }),
    {},
  ).hosts;

describe('GET /api/slots with a team: a slot when a host is free in their own calendar, fail closed', function () {
  this.timeout(30_000);
  let server: CalDavServer;
  let anna: string;
  let ben: string;
  const apps: AppUnderTest[] = [];
  // The calendars' own clock: moved past the 60 s bound where a test needs a read again.
  let clock = NOW;
  before(async () => {
    server = await startCalDavServer();
    anna = await server.makeCalendar('anna');
    ben = await server.makeCalendar('ben');
    // 09:00 Berlin: Anna alone is busy; 10:00: both are; 11:00: both have a transparent event.
    await server.putEvent(anna, 'a9', eventIcs('a9@test', 'DTSTART:20261021T070000Z', 'DTEND:20261021T080000Z'));
    await server.putEvent(anna, 'a10', eventIcs('a10@test', 'DTSTART:20261021T080000Z', 'DTEND:20261021T090000Z'));
    await server.putEvent(ben, 'b10', eventIcs('b10@test', 'DTSTART:20261021T080000Z', 'DTEND:20261021T090000Z'));
    await server.putEvent(
      anna,
      'a11',
      eventIcs('a11@test', 'DTSTART:20261021T090000Z', 'DTEND:20261021T100000Z', ['TRANSP:TRANSPARENT']),
    );
    await server.putEvent(
      ben,
      'b11',
      eventIcs('b11@test', 'DTSTART:20261021T090000Z', 'DTEND:20261021T100000Z', ['TRANSP:TRANSPARENT']),
    );
    // Ben's weekly call, Wednesdays 13:00 Berlin.
    await server.putEvent(
      ben,
      'weekly',
      eventIcs(
        'weekly@test',
        'DTSTART;TZID=Europe/Berlin:20261014T130000',
        'DTEND;TZID=Europe/Berlin:20261014T140000',
        ['RRULE:FREQ=WEEKLY'],
      ),
    );
  });
  beforeEach(() => {
    clock = NOW;
  });
  afterEach(async () => {
    server.setFault('none');
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  after(async () => {
    await server.stop();
  });

  async function appWith(hosts: Parameters<typeof teamOf>[0], options: { webRoot?: string } = {}) {
    const hostCalendars = new HostCalendars(teamOf(hosts), {
      logger: silentLogger,
      now: () => clock,
      bookingTimeZone: 'Europe/Berlin',
      timeoutMs: 1000,
    });
    const app = await startAppUnderTest({
      now: () => NOW,
      adminToken: TOKEN,
      hostCalendars,
      followUps: { salesNotifyEmail: 'sales@converge.test', reminderMinutesBefore: 0 },
      ...options,
    });
    apps.push(app);
    return app;
  }
  const slotsOf = async (app: AppUnderTest, date: string): Promise<DaySlots> =>
    (await fetch(`${app.url}/api/slots?date=${date}`)).json() as Promise<DaySlots>;
  const open = (answer: DaySlots) => answer.slots.filter((slot) => slot.available).map((slot) => slot.start);

  it('hides a slot only when every host is busy, and a transparent event hides nothing', async () => {
    const app = await appWith([
      { name: 'Anna', url: anna },
      { name: 'Ben', url: ben },
    ]);
    const answer = await slotsOf(app, '2026-10-21');
    expect(answer.calendarsUnreadable).to.equal(undefined);
    const offered = open(answer);
    expect(offered).to.include('2026-10-21T07:00:00.000Z');
    expect(offered).to.not.include('2026-10-21T08:00:00.000Z');
    expect(offered).to.include('2026-10-21T09:00:00.000Z');
    expect(offered).to.have.length(16);
  });

  it('names the hosts free in each slot on the booking form without script (needs `npm run build:web`)', async () => {
    const webRoot = path.resolve('dist/web');
    if (!existsSync(path.join(webRoot, 'no-script.html')))
      throw new Error('No production build (no-script.html): run `npm run build:web` first.');
    const app = await appWith(
      [
        { name: 'Anna', url: anna },
        { name: 'Ben', url: ben },
      ],
      { webRoot },
    );
    const html = (await (await fetch(`${app.url}/book`)).text()).replaceAll('<!-- -->', '');
    const labelOf = (start: string) =>
      new RegExp(`value="${start}"/><label for="[^"]+">([^<]+)<span[^>]*>([^<]+)</span>`).exec(html)?.slice(1);
    // Wednesday 21 October, Berlin: 07:00 both free, 09:00 Anna busy, 10:00 both busy.
    expect(labelOf('2026-10-21T05:00:00.000Z')).to.deep.equal(['07:00', 'with Anna or Ben']);
    expect(labelOf('2026-10-21T07:00:00.000Z')).to.deep.equal(['09:00', 'with Ben']);
    expect(html).not.to.include('value="2026-10-21T08:00:00.000Z"');
  });

  it('a weekly meeting blocks each week for its host', async () => {
    const app = await appWith([{ name: 'Ben', url: ben }]);
    for (const date of ['2026-10-21', '2026-10-28', '2026-11-04', '2026-11-11']) {
      const offered = open(await slotsOf(app, date));
      const thirteen = date === '2026-10-21' ? `${date}T11:00:00.000Z` : `${date}T12:00:00.000Z`;
      expect(offered, date).to.not.include(thirteen);
      expect(offered, date).to.include(date === '2026-10-21' ? `${date}T12:00:00.000Z` : `${date}T13:00:00.000Z`);
    }
  });

  it('offers a host in New York within their working hours, across the European daylight-saving change', async () => {
    const app = await appWith([
      {
        name: 'Nora',
        url: await server.makeCalendar('nora'),
        workingHours: { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timeZone: 'America/New_York' },
      },
    ]);
    // 22 October: both zones in summer time, 09:00-17:00 New York is 15:00-23:00 Berlin.
    expect(open(await slotsOf(app, '2026-10-22'))).to.deep.equal(
      ['13:00', '14:00', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00'].map((t) => `2026-10-22T${t}:00.000Z`),
    );
    // 27 October: Berlin has changed, New York not yet: 14:00-22:00 Berlin.
    expect(open(await slotsOf(app, '2026-10-27'))).to.deep.equal(
      ['13:00', '14:00', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00'].map((t) => `2026-10-27T${t}:00.000Z`),
    );
    // 3 November: both in winter time, 15:00-23:00 Berlin again.
    expect(open(await slotsOf(app, '2026-11-03'))).to.deep.equal(
      ['14:00', '15:00', '16:00', '17:00', '18:00', '19:00', '20:00', '21:00'].map((t) => `2026-11-03T${t}:00.000Z`),
    );
  });

  it('takes a host whose calendar cannot be read out, and with none readable says so with the sales desk', async () => {
    const app = await appWith([
      { name: 'Anna', url: anna },
      { name: 'Ben', url: ben },
    ]);
    server.setFault('refuse-login', ben);
    // Ben cannot be read: Anna's busy 09:00 is no longer covered by him.
    const offered = open(await slotsOf(app, '2026-10-21'));
    expect(offered).to.not.include('2026-10-21T07:00:00.000Z');
    expect(offered).to.include('2026-10-21T11:00:00.000Z');
    server.setFault('error-500', anna);
    // Anna's calendar as read before stands for 60 s at most; past that it is read again, and fails.
    clock = new Date(NOW.getTime() + 61_000);
    const none = await slotsOf(app, '2026-10-21');
    expect(open(none)).to.deep.equal([]);
    expect(none).to.deep.include({ calendarsUnreadable: true, salesDesk: 'sales@converge.test' });

    const unauthorised = await fetch(`${app.url}/api/hosts`);
    expect(unauthorised.status).to.equal(401);
    const hosts = (await (
      await fetch(`${app.url}/api/hosts`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).json()) as { team: boolean; hosts: { name: string; state: string; lastError: string | null }[] };
    expect(hosts.team).to.equal(true);
    expect(hosts.hosts.map(({ name, state }) => ({ name, state }))).to.deep.equal([
      { name: 'Anna', state: 'unreadable' },
      { name: 'Ben', state: 'unreadable' },
    ]);
    expect(hosts.hosts[1]!.lastError).to.equal('the login was refused (401)');
  });
});

describe('TEAM_FILE at start-up', () => {
  it('a bad team file stops the API naming the field; none leaves the team unset', async () => {
    const base = { BOOKING_LINK_SECRET: 'a-booking-link-secret-of-the-test-0123456789' };
    expect(loadApiConfig(base).team).to.equal(undefined);
    const folder = await mkdtemp(path.join(tmpdir(), 'converge-team-'));
    try {
      const file = path.join(folder, 'team.json');
      await writeFile(
        file,
        JSON.stringify({
          hosts: [
            {
              name: 'Anna',
              title: '',
              email: 'anna@converge.test',
              calendarUrl: 'https://dav.example/anna/',
              calendarUsername: 'anna',
              calendarPassword: 'x',
              weight: 0,
            },
          ],
        }),
      );
      expect(() => loadApiConfig({ ...base, TEAM_FILE: file })).to.throw(
        `TEAM_FILE ${file}: /hosts/0/weight must be > 0`,
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
