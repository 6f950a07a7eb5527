/**
 * One clock, proven (the dialog): on the cases of server-shared/one-clock.test.ts, run on the visitor's own clock
 * (TZ), the calendar offers the booking-zone days that have a slot and bounds its window on the booking zone's
 * clock, and each slot shows the booking zone's hour and the visitor's, as Intl reads the instant in each.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { availableSlots, slotStartsOf } from '../../../domain/booking.js';
import { CLOCK_RUNS, clockCase, clockOf, dayOf, MINUTE, reading, windowEndOf } from '../../../test/one-clock.js';
import { PAGE_MIN_NOTICE } from './booking-rules-meta.js';
import { calendarBounds, isTileDisabled, slotOptions, tileDate, tileDay } from './booking-calendar.js';

const SHORT_WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

describe('one clock in the dialog, in every zone across the changes of 2026–2030', () => {
  const ownZone = process.env.TZ;
  afterEach(() => {
    if (ownZone === undefined) delete process.env.TZ;
    else process.env.TZ = ownZone;
  });

  it("shows each slot at the booking zone's hour and the visitor's, and offers the days that have one", () => {
    fc.assert(
      fc.property(clockCase, (c) => {
        // The browser's own clock is the visitor's: the calendar's tiles are its local midnights.
        process.env.TZ = c.visitorZone;
        const start = slotStartsOf(c.day, c.bookingZone)[c.slotIndex]!;
        const now = new Date(start.getTime() - c.bookedMinutesBefore * MINUTE);
        const options = slotOptions(c.day, now, c.bookingZone, c.visitorZone);
        for (const option of options) {
          const booked = reading(new Date(option.iso), c.bookingZone);
          const visitor = reading(new Date(option.iso), c.visitorZone);
          expect(dayOf(new Date(option.iso), c.bookingZone), option.iso).to.deep.equal(c.day);
          expect(option.label, option.iso).to.equal(clockOf(booked));
          const sameDay = visitor.year === booked.year && visitor.month === booked.month && visitor.day === booked.day;
          const local =
            clockOf(visitor) === option.label
              ? null
              : `${clockOf(visitor)}${sameDay ? '' : ` ${SHORT_WEEKDAYS[visitor.weekday]}`}`;
          expect(option.localLabel, `${option.iso} in ${c.visitorZone}`).to.equal(local);
        }
        const tile = tileDate(c.day);
        expect(tileDay(tile)).to.deep.equal(c.day);
        const offered = availableSlots(c.day, now, c.bookingZone, PAGE_MIN_NOTICE).length > 0;
        expect(isTileDisabled(tile, now, c.bookingZone), 'the tile is offered with a slot').to.equal(!offered);
        const bounds = calendarBounds(now, c.bookingZone);
        expect(tileDay(bounds.minDate), 'the first day').to.deep.equal(dayOf(now, c.bookingZone));
        expect(tileDay(bounds.maxDate), 'the last day').to.deep.equal(
          dayOf(windowEndOf(now, c.bookingZone), c.bookingZone),
        );
      }),
      CLOCK_RUNS,
    );
  });
});
