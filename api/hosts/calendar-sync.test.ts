import { expect } from 'chai';
import { pino } from 'pino';
import {
  CALDAV_PASSWORD,
  CALDAV_USER,
  eventIcs,
  startCalDavServer,
  type CalDavServer,
} from '../../test/caldav-server.js';
import { HostCalendars, type CalendarRead } from './calendars.js';
import { parseTeam, type Host } from '../../server-shared/hosts/team.js';

const hostOn = (calendarUrl: string): Host =>
  parseTeam(
    JSON.stringify({
      hosts: [
        {
          name: 'Sam',
          title: 'Solutions engineer',
          email: 'sam@converge.test',
          calendarUrl,
          calendarUsername: CALDAV_USER,
          calendarPassword: CALDAV_PASSWORD,
        },
      ],
    }),
    {},
  ).hosts[0]!;

const withHost = (uid: string, start: string, partstat: string) =>
  eventIcs(uid, `DTSTART:${start}`, `DTEND:${start.replace('T09', 'T10')}`, [
    'ORGANIZER:mailto:sam@converge.test',
    `ATTENDEE;PARTSTAT=${partstat}:mailto:sam@converge.test`,
  ]);

/** Each event of a read as UID → the host's PARTSTAT, to compare what the two paths leave kept. */
const answersOf = (read: CalendarRead | undefined) =>
  Object.fromEntries(
    [...(read?.events.values() ?? [])].map((event) => [event.uid, event.partstats['sam@converge.test']]),
  );

describe('hosts’ calendars read by sync-collection (RFC 6578) on xandikos', function () {
  this.timeout(30_000);
  let server: CalDavServer;
  const clock = new Date('2026-10-20T06:00:00Z');
  before(async () => {
    server = await startCalDavServer();
  });
  after(async () => {
    await server.stop();
  });

  /** A host's calendars whose last read is kept in `last.read`. */
  const calendarsOn = (url: string) => {
    const calendars = new HostCalendars([hostOn(url)], {
      logger: pino({ level: 'silent' }),
      now: () => clock,
      bookingTimeZone: 'Europe/Berlin',
      timeoutMs: 2000,
    });
    const last: { read?: CalendarRead } = {};
    calendars.onRead((_, read) => {
      last.read = read;
    });
    return { calendars, last };
  };

  it('after a full read, picks up an added, a changed and a deleted event by sync-collection, as a full read sees them', async () => {
    const url = await server.makeCalendar('sync-changes');
    await server.putEvent(url, 'kept', withHost('kept@test', '20261021T090000Z', 'ACCEPTED'));
    await server.putEvent(url, 'changed', withHost('changed@test', '20261022T090000Z', 'ACCEPTED'));
    await server.putEvent(url, 'deleted', withHost('deleted@test', '20261023T090000Z', 'ACCEPTED'));
    const { calendars, last } = calendarsOn(url);
    let at = server.reports.length;
    expect(await calendars.freshBusyTimes(0)).to.have.length(3);
    expect(server.reports.slice(at)).to.deep.equal(['calendar-query', 'calendar-multiget']);

    await server.putEvent(url, 'added', withHost('added@test', '20261026T090000Z', 'ACCEPTED'));
    await server.putEvent(url, 'changed', withHost('changed@test', '20261022T090000Z', 'DECLINED'));
    await server.deleteEvent(url, 'deleted');
    at = server.reports.length;
    const busy = await calendars.freshBusyTimes(0);
    expect(server.reports.slice(at)).to.deep.equal(['sync-collection', 'calendar-multiget']);
    expect(busy?.map((interval) => new Date(interval.start).toISOString())).to.deep.equal([
      '2026-10-21T09:00:00.000Z',
      '2026-10-22T09:00:00.000Z',
      '2026-10-26T09:00:00.000Z',
    ]);
    const expected = { 'kept@test': 'ACCEPTED', 'changed@test': 'DECLINED', 'added@test': 'ACCEPTED' };
    expect(answersOf(last.read)).to.deep.equal(expected);
    expect(last.read?.changed).to.equal(true);

    // A read with nothing changed is one sync-collection, and the kept set is still the whole calendar; the read
    // says nothing changed (api/hosts/host-answers.ts then leaves the database alone).
    at = server.reports.length;
    await calendars.freshBusyTimes(0);
    expect(server.reports.slice(at)).to.deep.equal(['sync-collection']);
    expect(answersOf(last.read)).to.deep.equal(expected);
    expect(last.read?.changed).to.equal(false);

    // A full read by ETags from scratch leaves the same set.
    const fresh = calendarsOn(url);
    await fresh.calendars.freshBusyTimes(0);
    expect(answersOf(fresh.last.read)).to.deep.equal(expected);
  });

  const refusals = [
    {
      fault: 'invalid-sync-token',
      what: 'a token the server no longer accepts (403 valid-sync-token)',
      after: 'sync-collection',
    },
    { fault: 'sync-truncated', what: 'a truncated answer (507 on the collection)', after: 'sync-collection' },
    { fault: 'sync-not-implemented', what: 'a report the server turns down (501)', after: 'calendar-query' },
  ] as const;
  for (const { fault, what, after: next } of refusals)
    it(`${what} falls back on a full ETag read, then reads by ${next}`, async () => {
      const url = await server.makeCalendar(`sync-${fault}`);
      await server.putEvent(url, 'one', withHost('one@test', '20261021T090000Z', 'ACCEPTED'));
      await server.putEvent(url, 'two', withHost('two@test', '20261022T090000Z', 'ACCEPTED'));
      const { calendars, last } = calendarsOn(url);
      await calendars.freshBusyTimes(0);

      server.setFault(fault, url);
      await server.deleteEvent(url, 'one');
      await server.putEvent(url, 'two', withHost('two@test', '20261022T090000Z', 'DECLINED'));
      let at = server.reports.length;
      expect(await calendars.freshBusyTimes(0)).to.have.length(1);
      // The sync-collection the proxy answered never reached xandikos; the ETag listing and a multiget did.
      expect(server.reports.slice(at)).to.deep.equal(['calendar-query', 'calendar-multiget']);
      expect(answersOf(last.read)).to.deep.equal({ 'two@test': 'DECLINED' });
      expect(calendars.status()[0]!.state).to.equal('readable');

      server.setFault('none', url);
      await server.putEvent(url, 'three', withHost('three@test', '20261023T090000Z', 'TENTATIVE'));
      at = server.reports.length;
      await calendars.freshBusyTimes(0);
      expect(server.reports.slice(at)).to.deep.equal([next, 'calendar-multiget']);
      expect(answersOf(last.read)).to.deep.equal({ 'two@test': 'DECLINED', 'three@test': 'TENTATIVE' });
    });
});
