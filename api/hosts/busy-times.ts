/**
 * The busy intervals an iCalendar object holds over a window, read with ical.js: events that are not
 * TRANSP:TRANSPARENT and not STATUS:CANCELLED, recurring events expanded (with their moved or cancelled instances),
 * times in any zone the object defines read through its VTIMEZONE, and all-day or floating times read in the host's zone.
 */
import ICAL from 'ical.js';
import { isValidTimeZone, zonedTimeToInstant } from '../../domain/booking.js';

export interface Interval {
  start: number;
  end: number;
}

/** Instances expanded at most per recurring event over the window: a guard against a rule that never ends. */
const MAX_INSTANCES = 2000;

function toInstant(time: ICAL.Time, localZone: string): number {
  if (!time.isDate && time.zone && time.zone !== ICAL.Timezone.localTimezone) return time.toJSDate().getTime();
  // A date (all day) or a floating time has no zone of its own: the host's wall clock gives it one. A TZID the object
  // defines no VTIMEZONE for is read as the IANA zone of that name when there is one.
  const named = (time as { timezone?: unknown }).timezone;
  const zone = !time.isDate && typeof named === 'string' && isValidTimeZone(named) ? named : localZone;
  const day = { year: time.year, month: time.month, day: time.day };
  return (
    time.isDate ? zonedTimeToInstant(day, 0, zone) : zonedTimeToInstant(day, time.hour, zone, time.minute, time.second)
  ).getTime();
}

const isFree = (component: ICAL.Component): boolean => {
  const transp = component.getFirstPropertyValue('transp');
  const status = component.getFirstPropertyValue('status');
  return (
    (typeof transp === 'string' && transp.toUpperCase() === 'TRANSPARENT') ||
    (typeof status === 'string' && status.toUpperCase() === 'CANCELLED')
  );
};

/** The busy intervals of the calendar objects `texts` (each one VCALENDAR) that meet [from, to). Throws on a malformed one. */
export function busyIntervals(texts: readonly string[], from: Date, to: Date, localZone: string): Interval[] {
  const busy: Interval[] = [];
  const windowStart = from.getTime();
  const windowEnd = to.getTime();
  const add = (start: number, end: number) => {
    if (end > windowStart && start < windowEnd) busy.push({ start, end });
  };
  for (const text of texts) {
    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    if (calendar.name !== 'vcalendar') throw new Error('a calendar object that is not a VCALENDAR');
    // ical.js resolves a TZID through its TimezoneService when a time is first read: the object's own definitions.
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    const events = calendar.getAllSubcomponents('vevent');
    const masters = events.filter((event) => !event.hasProperty('recurrence-id'));
    const exceptions = events.filter((event) => event.hasProperty('recurrence-id'));
    for (const component of masters) {
      const event = new ICAL.Event(component, { strictExceptions: false, exceptions });
      if (!event.isRecurring()) {
        if (isFree(component)) continue;
        add(toInstant(event.startDate, localZone), toInstant(event.endDate, localZone));
        continue;
      }
      const iterator = event.iterator();
      for (let count = 0; count < MAX_INSTANCES; count += 1) {
        const next = iterator.next();
        if (!next) break;
        const details = event.getOccurrenceDetails(next);
        const start = toInstant(details.startDate, localZone);
        if (start >= windowEnd) break;
        const instance = details.item.component;
        if (isFree(instance)) continue;
        add(start, toInstant(details.endDate, localZone));
      }
    }
  }
  return busy.sort((a, b) => a.start - b.start);
}
