/**
 * One clock, proven (server side): in every zone the platform names and beside every change of offset of 2026–2030,
 * the booking zone's grid, the slot list, the check of a requested slot, a host's working hours and day, and the
 * invitation's DTSTART/DTEND all read the same instant as Intl reads it. The worker's e-mail lines, the API's reminder
 * and the dialog's labels are checked on the same cases beside their code (one-clock.test.ts there).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import ICAL from 'ical.js';
import {
  availableSlots,
  calendarDayOf,
  formatCalendarDay,
  parseCalendarDay,
  SLOT_HOURS,
  slotEnd,
  slotStartsOf,
  timeSlotProblem,
  zonedIsoString,
  type CalendarDay,
} from '../domain/booking.js';
import {
  addDays,
  CLOCK_RUNS,
  clockCase,
  clockOf,
  dayOf,
  expectedInstant,
  HOUR,
  MINUTE,
  offsetMinutes,
  reading,
  straddlingCase,
  transitions,
  windowEndOf,
  workingHours,
  ZONES,
  type ClockCase,
} from '../test/one-clock.js';
import { hostDay, withinWorkingHours, type Host, type WorkingHours } from './hosts/team.js';
import { bookingInvitation } from './invitation.js';

const NOTICE_MINUTES = 120;

/** Every slot start of the day is the instant the zone's clock reads that hour (the earliest, or across a gap). */
function checkGrid(day: CalendarDay, zone: string): void {
  const starts = slotStartsOf(day, zone);
  SLOT_HOURS.forEach((hour, index) => {
    const expected = expectedInstant({ ...day, hour, minute: 0 }, zone);
    const start = starts[index]!;
    const read = dayOf(start, zone);
    const told = calendarDayOf(start, zone);
    // Compared bare first: the sweep makes tens of thousands of these, and an assertion's message costs more.
    if (start.getTime() === expected && told.year === read.year && told.month === read.month && told.day === read.day)
      return;
    const at = `${zone} ${formatCalendarDay(day)} ${hour}:00`;
    expect(start.toISOString(), at).to.equal(new Date(expected).toISOString());
    expect(told, `${at}: the day of ${start.toISOString()}`).to.deep.equal(read);
  });
}

/** The day a host's daily limit counts in: from the first instant their clock reads the day to the next day's. */
function checkHostDay(host: Host, instant: Date, bookingZone: string): void {
  const zone = host.workingHours?.timeZone ?? bookingZone;
  const { start, end } = hostDay(host, instant, bookingZone);
  const label = `${zone} around ${instant.toISOString()}: ${start.toISOString()}–${end.toISOString()}`;
  const day = dayOf(instant, zone);
  expect(start.getTime(), label).to.be.at.most(instant.getTime());
  expect(end.getTime(), label).to.be.above(instant.getTime());
  expect(dayOf(start, zone), label).to.deep.equal(day);
  expect(dayOf(start.getTime() - 1, zone), label).to.not.deep.equal(day);
  expect(dayOf(end.getTime() - 1, zone), label).to.deep.equal(day);
  expect(dayOf(end, zone), label).to.deep.equal(addDays(day, 1));
}

/** Whether the host's clock reads a working minute of one working day throughout the slot. */
function workedThroughout(hours: WorkingHours, start: Date, end: Date): boolean {
  const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
  const first = dayOf(start, hours.timeZone);
  for (let at = start.getTime(); at < end.getTime(); at += MINUTE) {
    const r = reading(at, hours.timeZone);
    const minute = r.hour * 60 + r.minute;
    if (r.year !== first.year || r.month !== first.month || r.day !== first.day) return false;
    if (!hours.days.includes(r.weekday === 0 ? 7 : r.weekday)) return false;
    if (minute < minutesOf(hours.start) || minute + 1 > minutesOf(hours.end)) return false;
  }
  return true;
}

const host = (workingHours?: WorkingHours): Host => ({
  index: 0,
  name: 'Grace Hopper',
  title: 'Solutions engineer',
  email: 'grace@converge.example.com',
  calendarUrl: 'http://127.0.0.1/cal/',
  calendarUsername: 'grace',
  calendarPassword: 'secret',
  dailyLimit: undefined,
  weight: 1,
  workingHours,
});

/** The slot of a case, and when the visitor books it. */
function slotOfCase(c: ClockCase): { start: Date; now: Date } {
  const start = slotStartsOf(c.day, c.bookingZone)[c.slotIndex]!;
  return { start, now: new Date(start.getTime() - c.bookedMinutesBefore * MINUTE) };
}

/** The instant in ISO 8601 with the zone's offset, from Intl's reading: how a visitor's own clock would write it. */
function isoOnClock(instant: Date, zone: string): string {
  const r = reading(instant, zone);
  const offset = offsetMinutes(instant.getTime(), zone);
  const two = (value: number) => String(value).padStart(2, '0');
  const sign = offset < 0 ? '-' : '+';
  return (
    `${r.year}-${two(r.month)}-${two(r.day)}T${clockOf(r)}:${two(r.second)}` +
    `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`
  );
}

describe('one clock, in every zone across the changes of 2026–2030', () => {
  it("lays every zone's slot grid on its clock on the days around each of its changes", () => {
    for (const zone of ZONES) {
      const changes = transitions(zone);
      // The day a change happens on, read on either side of it (they differ where the clock goes back past midnight).
      const days =
        changes.length === 0
          ? [dayOf(Date.UTC(2028, 1, 29, 12), zone)]
          : changes.flatMap((at) => [dayOf(at - 1, zone), dayOf(at, zone)]);
      for (const day of new Set(days.map(formatCalendarDay))) checkGrid(parseCalendarDay(day)!, zone);
    }
  });

  it("bounds a host's day on their clock around each change of every zone", () => {
    for (const zone of ZONES) {
      const someone = host({ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timeZone: zone });
      for (const change of transitions(zone)) {
        for (const at of [change - MINUTE, change, change + HOUR, change - 25 * HOUR, change + 23 * HOUR]) {
          checkHostDay(someone, new Date(at), 'UTC');
        }
      }
    }
  });

  it('offers, accepts and labels a slot as the booking zone and the visitor read it', () => {
    fc.assert(
      fc.property(clockCase, (c) => {
        checkGrid(c.day, c.bookingZone);
        const { start, now } = slotOfCase(c);
        const local = reading(start, c.bookingZone);
        const offeredByRules =
          local.weekday !== 0 &&
          local.weekday !== 6 &&
          start.getTime() >= now.getTime() + NOTICE_MINUTES * MINUTE &&
          start.getTime() > now.getTime() &&
          start.getTime() <= windowEndOf(now, c.bookingZone);
        const offered = availableSlots(c.day, now, c.bookingZone, NOTICE_MINUTES).find(
          (slot) => slot.iso === start.toISOString(),
        );
        expect(offered !== undefined, `offered ${start.toISOString()}`).to.equal(offeredByRules);
        if (offered) expect(offered.label).to.equal(clockOf(local));
        // What the dialog sends, and the same instant written on the visitor's clock: one answer, one instant stored.
        const visitorIso = isoOnClock(start, c.visitorZone);
        expect(new Date(visitorIso).getTime()).to.equal(start.getTime());
        expect(zonedIsoString(start, c.visitorZone)).to.equal(visitorIso);
        for (const sent of [start.toISOString(), visitorIso]) {
          expect(timeSlotProblem(sent, now, c.bookingZone, NOTICE_MINUTES) === null, sent).to.equal(offeredByRules);
        }
        const halfPast = new Date(start.getTime() + 30 * MINUTE);
        if (reading(halfPast, c.bookingZone).minute !== 0) {
          expect(timeSlotProblem(halfPast.toISOString(), now, c.bookingZone, NOTICE_MINUTES)).to.not.equal(null);
        }
      }),
      CLOCK_RUNS,
    );
  });

  it("keeps a host's working hours and day on their own clock", () => {
    fc.assert(
      fc.property(
        fc
          .oneof(clockCase, straddlingCase)
          .chain((c) => fc.tuple(fc.constant(c), workingHours(c.hostZone, slotOfCase(c).start))),
        ([c, hours]) => {
          const { start } = slotOfCase(c);
          const end = slotEnd(start);
          const theHost = host(hours);
          expect(withinWorkingHours(theHost, start, end), `${JSON.stringify(hours)} ${start.toISOString()}`).to.equal(
            workedThroughout(hours, start, end),
          );
          checkHostDay(theHost, start, c.bookingZone);
          checkHostDay(host(), start, c.bookingZone);
        },
      ),
      CLOCK_RUNS,
    );
  });

  it("writes the invitation's DTSTART and DTEND as the slot's instant", () => {
    fc.assert(
      fc.property(clockCase, (c) => {
        const { start, now } = slotOfCase(c);
        const ics = bookingInvitation(
          {
            id: '1',
            name: 'Ada Lovelace',
            email: 'ada@analytical-engines.com',
            company: 'Analytical Engines',
            timeSlot: start,
            visitorTimeZone: c.visitorZone,
          },
          { mailFrom: 'Converge <demos@converge.example.com>', now },
        );
        const event = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
        const utc = reading(start, 'UTC');
        const compact = `${utc.year}${String(utc.month).padStart(2, '0')}${String(utc.day).padStart(2, '0')}T${clockOf(utc).replace(':', '')}00Z`;
        expect(ics).to.contain(`\r\nDTSTART:${compact}\r\n`);
        for (const [name, instant] of [
          ['dtstart', start],
          ['dtend', slotEnd(start)],
        ] as const) {
          const time = event.getFirstPropertyValue(name) as ICAL.Time;
          expect(time.zone?.tzid, name).to.equal('UTC');
          expect(time.toJSDate().getTime(), name).to.equal(instant.getTime());
        }
        // A calendar in the booking zone shows the event at the hour the visitor chose on its grid.
        const chosen = { ...c.day, hour: SLOT_HOURS[c.slotIndex]!, minute: 0 };
        const shown = (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime();
        expect(shown).to.equal(expectedInstant(chosen, c.bookingZone));
      }),
      CLOCK_RUNS,
    );
  });
});
