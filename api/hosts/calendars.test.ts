import { expect } from 'chai';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import {
  CALDAV_PASSWORD,
  CALDAV_USER,
  eventIcs,
  startCalDavServer,
  type CalDavServer,
} from '../../test/caldav-server.js';
import { until } from '../../test/until.js';
import { HostCalendars } from './calendars.js';
import { parseTeam, withinWorkingHours, type Host } from '../../server-shared/hosts/team.js';

const NEW_YORK = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

function logCapture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const hostOn = (calendarUrl: string, name: string, extra: Record<string, unknown> = {}): Host =>
  parseTeam(
    JSON.stringify({
      hosts: [
        {
          name,
          title: 'Solutions engineer',
          email: `${name.toLowerCase()}@converge.test`,
          calendarUrl,
          calendarUsername: CALDAV_USER,
          calendarPassword: CALDAV_PASSWORD,
          ...extra,
        },
      ],
    }),
    {},
  ).hosts[0]!;

const REASONS = {
  'refuse-login': 'the login was refused (401)',
  'error-500': 'the server answered 500',
  stall: 'no answer within 500 ms',
  'cut-off': 'the answer was cut off (terminated)',
};

const hour = (iso: string): [Date, Date] => [new Date(iso), new Date(new Date(iso).getTime() + 3_600_000)];

describe('hosts’ busy times over CalDAV (xandikos)', function () {
  this.timeout(30_000);
  let server: CalDavServer;
  let clock: Date;
  before(async () => {
    server = await startCalDavServer();
  });
  after(async () => {
    await server.stop();
  });
  beforeEach(() => {
    clock = new Date('2026-10-20T06:00:00Z');
    server.setFault('none');
  });

  const calendarsOf = (hosts: Host[], logger = logCapture().logger, timeoutMs = 2000) =>
    new HostCalendars(hosts, { logger, now: () => clock, bookingTimeZone: 'Europe/Berlin', timeoutMs });

  it('a busy event blocks its hour; transparent and cancelled ones do not', async () => {
    const url = await server.makeCalendar('busy-transparent');
    await server.putEvent(
      url,
      'meeting',
      eventIcs('meeting@test', 'DTSTART:20261021T090000Z', 'DTEND:20261021T100000Z'),
    );
    await server.putEvent(
      url,
      'focus',
      eventIcs('focus@test', 'DTSTART:20261021T110000Z', 'DTEND:20261021T120000Z', ['TRANSP:TRANSPARENT']),
    );
    await server.putEvent(
      url,
      'called-off',
      eventIcs('off@test', 'DTSTART:20261021T130000Z', 'DTEND:20261021T140000Z', ['STATUS:CANCELLED']),
    );
    const [busy] = await calendarsOf([hostOn(url, 'Anna')]).busyTimes();
    expect(busy).to.not.equal(undefined);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-21T09:00:00Z'))).to.equal(false);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-21T09:30:00Z'))).to.equal(false);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-21T10:00:00Z'))).to.equal(true);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-21T11:00:00Z'))).to.equal(true);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-21T13:00:00Z'))).to.equal(true);
  });

  it('a weekly meeting in New York blocks each week at its New York time, across both daylight-saving changes', async () => {
    const url = await server.makeCalendar('weekly-new-york');
    // Mondays 10:00 New York from 19 October: 14:00Z in EDT, 15:00Z once New York changes (1 November).
    await server.putEvent(
      url,
      'weekly',
      eventIcs(
        'weekly@test',
        'DTSTART;TZID=America/New_York:20261019T100000',
        'DTEND;TZID=America/New_York:20261019T110000',
        ['RRULE:FREQ=WEEKLY;BYDAY=MO'],
        NEW_YORK,
      ),
    );
    const calendars = calendarsOf([hostOn(url, 'Ben')]);
    const [busy] = await calendars.busyTimes();
    expect(calendars.status()[0]!.lastError).to.equal(null);
    expect(busy!.map((interval) => new Date(interval.start).toISOString())).to.include.members([
      '2026-10-26T14:00:00.000Z',
      '2026-11-02T15:00:00.000Z',
      '2026-11-09T15:00:00.000Z',
      '2026-11-16T15:00:00.000Z',
    ]);
    expect(HostCalendars.isFree(busy!, ...hour('2026-11-02T14:00:00Z'))).to.equal(true);
  });

  it('a moved and a cancelled instance of a recurring meeting count as what they became', async () => {
    const url = await server.makeCalendar('exceptions');
    const master = eventIcs('daily@test', 'DTSTART:20261021T080000Z', 'DTEND:20261021T090000Z', [
      'RRULE:FREQ=DAILY;COUNT=5',
    ]).replace('END:VCALENDAR\r\n', '');
    const moved = [
      'BEGIN:VEVENT',
      'UID:daily@test',
      'DTSTAMP:20261101T000000Z',
      'RECURRENCE-ID:20261022T080000Z',
      'DTSTART:20261022T150000Z',
      'DTEND:20261022T160000Z',
      'END:VEVENT',
    ];
    const dropped = [
      'BEGIN:VEVENT',
      'UID:daily@test',
      'DTSTAMP:20261101T000000Z',
      'RECURRENCE-ID:20261023T080000Z',
      'DTSTART:20261023T080000Z',
      'DTEND:20261023T090000Z',
      'STATUS:CANCELLED',
      'END:VEVENT',
    ];
    await server.putEvent(url, 'daily', `${master}${[...moved, ...dropped, 'END:VCALENDAR', ''].join('\r\n')}`);
    const [busy] = await calendarsOf([hostOn(url, 'Cleo')]).busyTimes();
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-21T08:00:00Z'))).to.equal(false);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-22T08:00:00Z'))).to.equal(true);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-22T15:00:00Z'))).to.equal(false);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-23T08:00:00Z'))).to.equal(true);
    expect(HostCalendars.isFree(busy!, ...hour('2026-10-24T08:00:00Z'))).to.equal(false);
  });

  it('an all-day event blocks the whole day in the host’s zone, on the day Europe changes its clocks', async () => {
    const url = await server.makeCalendar('all-day');
    await server.putEvent(
      url,
      'off',
      eventIcs('off-day@test', 'DTSTART;VALUE=DATE:20261025', 'DTEND;VALUE=DATE:20261026'),
    );
    const [busy] = await calendarsOf([hostOn(url, 'Dora')]).busyTimes();
    // 25 October 2026 in Berlin is 25 hours long: 24 Oct 22:00Z to 25 Oct 23:00Z.
    expect(busy).to.deep.equal([
      { start: Date.parse('2026-10-24T22:00:00Z'), end: Date.parse('2026-10-25T23:00:00Z') },
    ]);
  });

  it('working hours in New York hold across the European daylight-saving change', () => {
    const host = hostOn('http://127.0.0.1:1/cal/', 'Eve', {
      workingHours: { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timeZone: 'America/New_York' },
    });
    // 14:00 Berlin: 08:00 New York on 22 October (both in summer time), 09:00 on 27 October (Berlin changed, New York not yet).
    expect(withinWorkingHours(host, ...hour('2026-10-22T12:00:00Z'))).to.equal(false);
    expect(withinWorkingHours(host, ...hour('2026-10-27T13:00:00Z'))).to.equal(true);
    expect(withinWorkingHours(host, ...hour('2026-11-03T13:00:00Z'))).to.equal(false);
    expect(withinWorkingHours(host, ...hour('2026-11-03T14:00:00Z'))).to.equal(true);
    expect(withinWorkingHours(host, ...hour('2026-11-03T21:00:00Z'))).to.equal(true);
    expect(withinWorkingHours(host, ...hour('2026-11-03T22:00:00Z'))).to.equal(false);
    // Saturday in New York.
    expect(withinWorkingHours(host, ...hour('2026-10-24T15:00:00Z'))).to.equal(false);
  });

  for (const fault of ['refuse-login', 'error-500', 'stall', 'cut-off'] as const) {
    it(`a calendar server that answers ${fault} takes that host out until it reads again, logged once each way`, async () => {
      const goodUrl = await server.makeCalendar(`good-${fault}`);
      const badUrl = await server.makeCalendar(`bad-${fault}`);
      await server.putEvent(
        badUrl,
        'meeting',
        eventIcs(`m-${fault}@test`, 'DTSTART:20261021T090000Z', 'DTEND:20261021T100000Z'),
      );
      const { logger, lines } = logCapture();
      const calendars = calendarsOf([hostOn(goodUrl, 'Good'), hostOn(badUrl, 'Bad')], logger, 500);
      server.setFault(fault, badUrl);
      const [good, bad] = await calendars.busyTimes();
      expect(good).to.deep.equal([]);
      expect(bad).to.equal(undefined);
      const status = calendars.status();
      expect(status.map((host) => host.state)).to.deep.equal(['readable', 'unreadable']);
      expect(status[1]!.lastGoodReadAt).to.equal(null);
      expect(status[1]!.lastError).to.equal(REASONS[fault]);
      // Still bad: asked again, not logged again.
      clock = new Date(clock.getTime() + 61_000);
      expect((await calendars.busyTimes())[1]).to.equal(undefined);
      server.setFault('none', badUrl);
      clock = new Date(clock.getTime() + 61_000);
      // The first slot list after that is not held up by the retry; a later one has the host back.
      const back = await until(async () => (await calendars.busyTimes())[1], 'the host back');
      expect(back).to.have.length(1);
      expect(calendars.status()[1]!.state).to.equal('readable');
      expect(calendars.status()[1]!.lastGoodReadAt).to.equal(clock.toISOString());
      const messages = lines.filter((line) => line.host === 'Bad').map((line) => line.msg);
      expect(messages).to.deep.equal([
        'host calendar unreadable: not offered until it reads again',
        'host calendar readable again',
      ]);
      expect(JSON.stringify(lines)).to.not.include(CALDAV_PASSWORD);
      expect(JSON.stringify(lines)).to.not.include(badUrl);
    });
  }

  it('keeps busy times at most 60 s, refreshing by what changed, and reads one host afresh on demand', async () => {
    const url = await server.makeCalendar('staleness');
    await server.putEvent(url, 'first', eventIcs('first@test', 'DTSTART:20261021T090000Z', 'DTEND:20261021T100000Z'));
    const calendars = calendarsOf([hostOn(url, 'Finn')]);
    expect(await calendars.busyTimes()).to.have.nested.property('[0].length', 1);
    await server.putEvent(url, 'second', eventIcs('second@test', 'DTSTART:20261022T090000Z', 'DTEND:20261022T100000Z'));
    // Within the bound the kept answer stands; the fresh read sees the new event at once.
    clock = new Date(clock.getTime() + 30_000);
    expect(await calendars.busyTimes()).to.have.nested.property('[0].length', 1);
    expect(await calendars.freshBusyTimes(0)).to.have.length(2);
    await server.putEvent(url, 'third', eventIcs('third@test', 'DTSTART:20261023T090000Z', 'DTEND:20261023T100000Z'));
    clock = new Date(clock.getTime() + 60_000);
    const before = server.requests.length;
    expect(await calendars.busyTimes()).to.have.nested.property('[0].length', 3);
    // One sync-collection from the kept token (xandikos offers it), and one multiget of the one object that changed.
    expect(server.requests.slice(before)).to.deep.equal(['REPORT', 'REPORT']);
    expect(server.reports.slice(-2)).to.deep.equal(['sync-collection', 'calendar-multiget']);
    clock = new Date(clock.getTime() + 60_000);
    const unchanged = server.requests.length;
    expect(await calendars.busyTimes()).to.have.nested.property('[0].length', 3);
    expect(server.requests.slice(unchanged)).to.deep.equal(['REPORT']);
  });
});
