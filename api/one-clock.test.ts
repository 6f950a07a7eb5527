/**
 * One clock, proven (the reminder): on the cases of server-shared/one-clock.test.ts, the reminder a booking leaves in
 * the outbox is due REMINDER_MINUTES_BEFORE of elapsed time before the slot, whatever the zones' clocks do between,
 * and goes to the database as that instant in UTC.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { slotStartsOf } from '../domain/booking.js';
import { CLOCK_RUNS, clockCase, MINUTE } from '../test/one-clock.js';
import { DEFAULT_REMINDER_MINUTES_BEFORE, emailRows, emailsParameter } from './bookings/emails.js';

describe('one clock for the reminder, in every zone across the changes of 2026–2030', () => {
  it('is due the set minutes of elapsed time before the slot, however far the clocks move between', () => {
    const minutesBefore = fc.oneof(
      fc.constant(DEFAULT_REMINDER_MINUTES_BEFORE),
      fc.integer({ min: 0, max: 7 * 24 * 60 }),
    );
    fc.assert(
      fc.property(clockCase, minutesBefore, fc.constantFrom('booked', 'rescheduled'), (c, before, change) => {
        const start = slotStartsOf(c.day, c.bookingZone)[c.slotIndex]!;
        const now = new Date(start.getTime() - c.bookedMinutesBefore * MINUTE);
        const rows = emailRows(change, { reminderMinutesBefore: before }, now, start);
        const reminders = JSON.parse(emailsParameter(rows)).filter((row: { kind: string }) => row.kind === 'reminder');
        const due = start.getTime() - before * MINUTE;
        if (before === 0 || due <= now.getTime()) {
          expect(reminders, 'none when off, or when it would be late').to.deep.equal([]);
          return;
        }
        // Elapsed time, not the clock: across a change the booking zone's clock reads an hour more or less between.
        expect(reminders.map((row: { due_at: string }) => row.due_at)).to.deep.equal([new Date(due).toISOString()]);
      }),
      CLOCK_RUNS,
    );
  });
});
