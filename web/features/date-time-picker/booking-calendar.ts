import {
  availableSlots,
  calendarDayOf,
  formatCalendarDay,
  isBookableDay,
  oneMonthAfter,
  type CalendarDay,
  type DaySlots,
} from '../../../domain/booking.js';
import { PAGE_MIN_NOTICE } from './booking-rules-meta.js';

/**
 * react-calendar hands out Dates at local midnight of the day a tile shows. The tile's label is what the
 * visitor picks, so its year, month and day are read as a day in the booking zone, the same rule the API uses.
 */
export function tileDay(date: Date): CalendarDay {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** The local-midnight Date that react-calendar uses for a booking-zone day. */
export function tileDate(day: CalendarDay): Date {
  return new Date(day.year, day.month - 1, day.day);
}

export function sameDay(a: CalendarDay, b: CalendarDay): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day;
}

/** Every booking-zone day from today to the end of the window, in order. */
function windowDays(now: Date, zone: string): CalendarDay[] {
  const last = calendarDayOf(oneMonthAfter(now, zone), zone);
  const cursor = tileDate(calendarDayOf(now, zone));
  const days: CalendarDay[] = [];
  for (let i = 0; i < 40; i += 1) {
    const day = tileDay(cursor);
    days.push(day);
    if (sameDay(day, last)) break;
    cursor.setDate(cursor.getDate() + 1);
  }
  return days;
}

let bookable: { now: number; zone: string; days: ReadonlySet<string> } | undefined;

/**
 * The bookable days of the window, written YYYY-MM-DD, kept for the last clock reading and zone: react-calendar asks for
 * every tile on every render of the form (each key typed), and the domain rule is worth asking once per day.
 */
function bookableDays(now: Date, zone: string): ReadonlySet<string> {
  if (bookable?.now !== now.getTime() || bookable.zone !== zone) {
    const days = windowDays(now, zone).filter((day) => isBookableDay(day, now, zone, PAGE_MIN_NOTICE));
    bookable = { now: now.getTime(), zone, days: new Set(days.map(formatCalendarDay)) };
  }
  return bookable.days;
}

/** Whether the calendar offers the tile: the domain rule, nothing added. */
export function isTileDisabled(date: Date, now: Date, zone: string): boolean {
  return !bookableDays(now, zone).has(formatCalendarDay(tileDay(date)));
}

/** The first and last days the calendar can show, as react-calendar's minDate / maxDate. */
export function calendarBounds(now: Date, zone: string): { minDate: Date; maxDate: Date } {
  return {
    minDate: tileDate(calendarDayOf(now, zone)),
    maxDate: tileDate(calendarDayOf(oneMonthAfter(now, zone), zone)),
  };
}

/** The first bookable day from today on, so the calendar opens on a month with something to pick. */
export function firstBookableDay(now: Date, zone: string): CalendarDay | null {
  const days = bookableDays(now, zone);
  return windowDays(now, zone).find((day) => days.has(formatCalendarDay(day))) ?? null;
}

export interface SlotOption {
  iso: string;
  /** "14:00" on the booking zone's clock. */
  label: string;
  /** The same instant on the visitor's clock, or null when it reads the same. */
  localLabel: string | null;
}

/** "14:00": an instant on a zone's clock. */
/** A formatter made once per zone and kind: making one is what costs, far more than formatting (a page lists many times). */
function formatterOf(
  cache: Map<string, Intl.DateTimeFormat>,
  zone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  let formatter = cache.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone });
    cache.set(zone, formatter);
  }
  return formatter;
}

const clockFormatters = new Map<string, Intl.DateTimeFormat>();
const weekdayFormatters = new Map<string, Intl.DateTimeFormat>();
const longDayFormatters = new Map<string, Intl.DateTimeFormat>();

export function clockLabel(instant: Date, zone: string): string {
  return formatterOf(clockFormatters, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
}

/**
 * An instant of the booking-zone day `day`, which reads `label` there, on the visitor's clock: null when it reads the
 * same, else "08:00", or "01:00 Tue" when the visitor's clock is on another day.
 */
export function visitorClockLabel(instant: Date, day: CalendarDay, label: string, visitorZone: string): string | null {
  const local = clockLabel(instant, visitorZone);
  if (local === label) return null;
  // A different day on the visitor's clock is worth saying, or "01:00" reads like the small hours of the same day.
  if (sameDay(calendarDayOf(instant, visitorZone), day)) return local;
  return `${local} ${formatterOf(weekdayFormatters, visitorZone, { weekday: 'short' }).format(instant)}`;
}

/** The hourly slots of a day still bookable at `now`, each with the visitor's own clock time when it differs. */
export function slotOptions(day: CalendarDay, now: Date, zone: string, visitorZone: string): SlotOption[] {
  return availableSlots(day, now, zone, PAGE_MIN_NOTICE).map((slot) => ({
    iso: slot.iso,
    label: slot.label,
    localLabel: visitorClockLabel(new Date(slot.iso), day, slot.label, visitorZone),
  }));
}

/**
 * The instants (in ms) of the slots the server says can no longer be booked: full, or past by its clock. Only
 * the slots the domain rules offer are shown at all, so this only ever greys some of them out; without an
 * answer from the server nothing is greyed out.
 */
export function takenSlotTimes(daySlots: DaySlots | undefined): ReadonlySet<number> {
  const taken = new Set<number>();
  for (const slot of daySlots?.slots ?? []) {
    const time = Date.parse(slot.start);
    // Compared as instants: "06:00:00Z" and "06:00:00.000Z" are the same slot.
    if (!slot.available && !Number.isNaN(time)) taken.add(time);
  }
  return taken;
}

export function formatDayLong(day: CalendarDay): string {
  return formatterOf(longDayFormatters, 'UTC', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date(Date.UTC(day.year, day.month - 1, day.day)));
}

/** The place an IANA zone is named after, for "07:00 to 23:00 Berlin time": "America/New_York" → "New York". */
export function zonePlaceName(zone: string): string {
  return (zone.split('/').at(-1) ?? zone).replace(/_/g, ' ');
}

export function visitorTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
