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

/** The first `count` slots of the next bookable day after today (17 a day). */
export function bookableSlots(count: number, now = new Date(), timeZone = DEFAULT_BOOKING_TIME_ZONE): Slot[] {
  const first = nextBookableSlot(now, timeZone);
  const slots = availableSlots(calendarDayOf(new Date(first.iso), timeZone), now, timeZone).slice(0, count);
  if (slots.length < count) throw new Error(`only ${slots.length} bookable slots on the next bookable day`);
  return slots;
}

/** An iCalendar text's properties by name (lines unfolded; the first of each name). */
export function icsProperties(ics: string): Record<string, string> {
  const properties: Record<string, string> = {};
  // A parsed e-mail may hand the part over with its CRLFs turned into LFs.
  for (const line of ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/)) {
    const match = /^([A-Z-]+)[;:](.*)$/.exec(line);
    if (match?.[1] && !(match[1] in properties)) properties[match[1]] = line.slice(line.indexOf(':') + 1);
  }
  return properties;
}
