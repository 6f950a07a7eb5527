import { DEFAULT_BOOKING_TIME_ZONE, availableSlots, calendarDayOf, type Slot } from '../domain/booking.js';

/** The first slot of the next bookable day after today, so a test never races the clock. */
export function nextBookableSlot(now = new Date(), timeZone = DEFAULT_BOOKING_TIME_ZONE): Slot {
  for (let offset = 1; offset <= 10; offset++) {
    const day = calendarDayOf(new Date(now.getTime() + offset * 86_400_000), timeZone);
    const [first] = availableSlots(day, now, timeZone);
    if (first) return first;
  }
  throw new Error('no bookable slot in the next ten days');
}
