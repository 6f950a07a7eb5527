/**
 * How long a day's slot list takes with a team of 10 hosts, each with a real CalDAV calendar (xandikos) of 30
 * events, 5 of them weekly: cold (every calendar read over CalDAV: ETag listing, multiget, ical.js expansion) and
 * warm (the busy times kept, within the 60 s bound). Prints p50/p99; asserts nothing.
 *   tsx scripts/bench/hosts.ts [--rounds N]
 */
import { pino } from 'pino';
import { availableSlots, parseCalendarDay } from '../../domain/booking.js';
import { HostCalendars } from '../../api/hosts/calendars.js';
import { parseTeam } from '../../server-shared/hosts/team.js';
import { teamSlots } from '../../api/slots/team-slots.js';
import { CALDAV_PASSWORD, CALDAV_USER, eventIcs, startCalDavServer } from '../../test/caldav-server.js';

const HOSTS = 10;
const EVENTS = 30;
const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 200;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const report = (label: string, times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  process.stdout.write(
    `${label.padEnd(34)} n=${String(sorted.length).padStart(4)}  p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms\n`,
  );
};

const server = await startCalDavServer();
try {
  const now = new Date();
  const hosts = [];
  for (let h = 0; h < HOSTS; h++) {
    const url = await server.makeCalendar(`host-${h}`);
    for (let e = 0; e < EVENTS; e++) {
      const start = new Date(now.getTime() + (e + 1) * 19 * 3_600_000 + h * 3_600_000);
      start.setUTCMinutes(0, 0, 0);
      const stamp = (date: Date) => `${date.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;
      const lines = e < 5 ? ['RRULE:FREQ=WEEKLY'] : [];
      await server.putEvent(
        url,
        `e${e}`,
        eventIcs(
          `h${h}e${e}@bench`,
          `DTSTART:${stamp(start)}`,
          `DTEND:${stamp(new Date(start.getTime() + 3_600_000))}`,
          lines,
        ),
      );
    }
    hosts.push({
      name: `Host ${h}`,
      title: 'Solutions engineer',
      email: `host${h}@converge.test`,
      calendarUrl: url,
      calendarUsername: CALDAV_USER,
      calendarPassword: CALDAV_PASSWORD,
    });
  }
  const team = parseTeam(JSON.stringify({ hosts }), {}).hosts;
  const logger = pino({ level: 'silent' });
  // A weekday a week ahead, its open slots.
  const dayDate = new Date(now.getTime() + 7 * 86_400_000);
  while ([0, 6].includes(dayDate.getUTCDay())) dayDate.setUTCDate(dayDate.getUTCDate() + 1);
  const day = parseCalendarDay(dayDate.toISOString().slice(0, 10))!;
  const starts = availableSlots(day, now, 'Europe/Berlin').map((slot) => ({
    start: new Date(slot.iso),
    iso: slot.iso,
  }));

  // No booking of ours holds any host: the calendars' cost alone.
  const NO_BOOKINGS: ReadonlyMap<string, readonly number[]> = new Map();
  const cold: number[] = [];
  for (let round = 0; round < Math.max(20, Math.floor(ROUNDS / 10)); round++) {
    const calendars = new HostCalendars(team, { logger, bookingTimeZone: 'Europe/Berlin' });
    const began = performance.now();
    const answer = await teamSlots(calendars, starts, NO_BOOKINGS, 'Europe/Berlin');
    cold.push(performance.now() - began);
    if (answer.calendarsUnreadable) throw new Error('the calendars could not be read');
  }
  const calendars = new HostCalendars(team, { logger, bookingTimeZone: 'Europe/Berlin' });
  await teamSlots(calendars, starts, NO_BOOKINGS, 'Europe/Berlin');
  const warm: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const began = performance.now();
    await teamSlots(calendars, starts, NO_BOOKINGS, 'Europe/Berlin');
    warm.push(performance.now() - began);
  }
  // A refresh past the bound with nothing changed: one ETag listing per host, no multiget.
  const refresh: number[] = [];
  for (let round = 0; round < Math.max(20, Math.floor(ROUNDS / 10)); round++) {
    const kept = new HostCalendars(team, { logger, bookingTimeZone: 'Europe/Berlin', maxStalenessMs: 0 });
    await teamSlots(kept, starts, NO_BOOKINGS, 'Europe/Berlin');
    const began = performance.now();
    await teamSlots(kept, starts, NO_BOOKINGS, 'Europe/Berlin');
    refresh.push(performance.now() - began);
  }
  process.stdout.write(
    `slot list of one day (${starts.length} open slots), ${HOSTS} hosts, ${EVENTS} events each (5 weekly), xandikos on loopback\n`,
  );
  report('cold (every calendar read)', cold);
  report('refresh by ETag (nothing changed)', refresh);
  report('warm (kept, < 60 s)', warm);
} finally {
  await server.stop();
}
