/**
 * One clock, proven (the e-mails): on the cases of server-shared/one-clock.test.ts, the prospect's confirmation and
 * reminder write the slot on the booking zone's clock, in UTC, and on the visitor's own clock when it reads otherwise,
 * each line as Intl reads the instant there.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { bookingZoneLabel, slotEnd, slotStartsOf } from '../../domain/booking.js';
import { CLOCK_RUNS, clockCase, clockOf, reading, type Reading } from '../../test/one-clock.js';
import { renderReminder } from './booking-changes.js';
import { renderConfirmation } from './confirmation.js';
import { SAMPLE_BOOKING, SAMPLE_RENDERING } from './sample-booking.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A time line as a person reads it: "Tuesday, 24 November 2026, 15:00–16:00 (CET)", the zone's name left aside. */
const TIME_LINE = /^ {2}(.+?): +(\w+),? (\d{1,2}) (\w+) (\d{4}), (\d{2}:\d{2})–(\d{2}:\d{2})(?: \(.+\)| UTC)$/;

/** What the line should say for the slot on the zone's clock, from Intl's reading. */
const expectedLine = (label: string, start: Reading, end: Reading) =>
  `${label}: ${WEEKDAYS[start.weekday]} ${start.day} ${MONTHS[start.month - 1]} ${start.year}, ${clockOf(start)}–${clockOf(end)}`;

describe('one clock in the e-mails, in every zone across the changes of 2026–2030', () => {
  it("writes the slot on the booking zone's clock, in UTC, and on the visitor's clock where it reads otherwise", () => {
    fc.assert(
      fc.property(clockCase, (c) => {
        const start = slotStartsOf(c.day, c.bookingZone)[c.slotIndex]!;
        const end = slotEnd(start);
        const booking = { ...SAMPLE_BOOKING, timeSlot: start, visitorTimeZone: c.visitorZone };
        const options = { ...SAMPLE_RENDERING, timeZone: c.bookingZone, now: new Date(start.getTime() - 86_400_000) };
        // The time lines of the confirmation and of the reminder, each a row of the e-mail's text.
        const timeLines = (text: string) =>
          text
            .split('\n')
            .map((line) => TIME_LINE.exec(line))
            .filter((match) => match !== null)
            .map(
              ([, label, weekday, day, month, year, from, to]) =>
                `${label}: ${weekday} ${day} ${month} ${year}, ${from}–${to}`,
            )
            .join(' | ');
        const [booked, visitor] = [c.bookingZone, c.visitorZone].map((zone) => reading(start, zone));
        const differs = clockOf(booked!) !== clockOf(visitor!) || booked!.day !== visitor!.day;
        const expected = [
          expectedLine(bookingZoneLabel(c.bookingZone), booked!, reading(end, c.bookingZone)),
          expectedLine('UTC', reading(start, 'UTC'), reading(end, 'UTC')),
          ...(differs ? [expectedLine('Your time', visitor!, reading(end, c.visitorZone))] : []),
        ].join(' | ');
        const at = `${start.toISOString()} in ${c.bookingZone}, visitor in ${c.visitorZone}`;
        for (const email of [renderConfirmation(booking, options), renderReminder(booking, options)]) {
          const shown = timeLines(email.text);
          // Both texts in the message whole: an assertion's own shortens them.
          expect(shown, `${at}: ${email.subject}\n  e-mail: ${shown}\n  Intl:   ${expected}\n`).to.equal(expected);
        }
      }),
      CLOCK_RUNS,
    );
  });
});
