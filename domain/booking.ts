/**
 * Booking rules shared by the API (which re-checks everything) and the web calendar.
 * All calendar reasoning happens in the booking zone, whatever the visitor's own zone is.
 */
import { tzOffset } from '@date-fns/tz/tzOffset';

export const DEFAULT_BOOKING_TIME_ZONE = 'Europe/Berlin';
/** The name of the page's meta tag that carries the server's booking zone to the calendar. */
export const BOOKING_TIME_ZONE_META = 'booking-time-zone';
export const FIRST_SLOT_HOUR = 7;
export const LAST_SLOT_HOUR = 23;
export const SLOT_HOURS: readonly number[] = Array.from(
  { length: LAST_SLOT_HOUR - FIRST_SLOT_HOUR + 1 },
  (_, i) => FIRST_SLOT_HOUR + i,
);
/** The demo's length, the one figure the page, the e-mails, the invitation and the manage page all state. */
export const SLOT_DURATION_MINUTES = 60;
/**
 * Bookings close this long before a slot starts (MIN_NOTICE_MINUTES), so the team can prepare and send the video
 * link in time. The server writes its value into the page (BOOKING_MIN_NOTICE_META) as it does the zone.
 */
export const DEFAULT_MIN_NOTICE_MINUTES = 120;
export const BOOKING_MIN_NOTICE_META = 'booking-min-notice';

/** The earliest start a booking made at `now` may take (ms since the epoch). */
const earliestStart = (now: Date, minNoticeMinutes: number): number => now.getTime() + minNoticeMinutes * 60_000;

/** When a demo that starts then ends. */
export const slotEnd = (start: Date): Date => new Date(start.getTime() + SLOT_DURATION_MINUTES * 60_000);

export const TIME_SLOT_WINDOW_MESSAGE = 'Please select a date and time within the next month.';
export const TIME_SLOT_WEEKEND_MESSAGE = 'Demos run Monday to Friday. Please choose a weekday.';

/**
 * How the booking zone is named to people: "Europe Time" (the specification's words) for a European zone, else the
 * zone's generic name ("Eastern Time"), or its identifier where the platform has no name for it.
 */
const zoneLabels = new Map<string, string>();

export function bookingZoneLabel(timeZone: string): string {
  if (timeZone.startsWith('Europe/')) return 'Europe Time';
  let label = zoneLabels.get(timeZone);
  if (label === undefined) {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(new Date(0))
      .find((part) => part.type === 'timeZoneName')?.value;
    label = name && !name.startsWith('GMT') ? name : timeZone;
    zoneLabels.set(timeZone, label);
  }
  return label;
}

export const timeSlotHoursMessage = (timeZone: string): string =>
  `Please choose a whole-hour slot between 07:00 and 23:00 ${bookingZoneLabel(timeZone)}.`;

/** A calendar day in the booking zone; month is 1–12. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

interface ZonedParts extends CalendarDay {
  hour: number;
  minute: number;
  second: number;
  weekday: number; // 0 = Sunday … 6 = Saturday
}

/**
 * The zone's name as the platform spells it ('america/new_york' gives 'America/New_York'), or undefined for a zone it
 * does not know. Nothing is kept: what a client sends cannot grow a cache.
 */
export function knownTimeZone(timeZone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export function isValidTimeZone(timeZone: string): boolean {
  return knownTimeZone(timeZone) !== undefined;
}

const DAY_MS = 86_400_000;

/** Milliseconds the zone is ahead of UTC at the given instant (ms since the epoch), to the second. */
const zoneOffsetMs = (instant: number, timeZone: string): number =>
  Math.round(tzOffset(timeZone, new Date(instant)) * 60) * 1000;

export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  // The zone's wall clock as UTC's: what Date's UTC getters read is the zone's, whatever the host's own zone is.
  const wall = new Date(instant.getTime() + zoneOffsetMs(instant.getTime(), timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    weekday: wall.getUTCDay(),
  };
}

/**
 * The instant as the zone's wall clock reads it, in ISO 8601 with the zone's offset at that instant, to the second
 * ("2026-12-01T10:00:00+01:00"): what a spreadsheet opened beside the sales page shows as the page does.
 */
export function zonedIsoString(instant: Date, timeZone: string): string {
  const offsetMs = zoneOffsetMs(instant.getTime(), timeZone);
  const wall = new Date(instant.getTime() + offsetMs).toISOString().slice(0, 19);
  const offsetMinutes = Math.round(offsetMs / 60_000);
  const two = (value: number) => String(value).padStart(2, '0');
  const sign = offsetMinutes < 0 ? '-' : '+';
  return `${wall}${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
}

/**
 * The instant at which the booking zone's wall clock reads the given day and time. Where the clock is turned back over
 * it and reads it twice, the earlier; where it is turned forward over it, the time read with the offset before the
 * change, later by the gap (RFC 5545's rule, and Temporal's "compatible"), so midnight of a day whose clock starts at
 * 01:00 is that day's first instant, west of UTC as east. The offsets a day either side are the only candidates: no
 * zone changes twice within two days. (Not through the host's own clock, as TZDate's wall-clock constructor goes:
 * that is off near the host's own changes.)
 */
export function zonedTimeToInstant(
  day: CalendarDay,
  hour: number,
  timeZone: string,
  minute = 0,
  second = 0,
  millisecond = 0,
): Date {
  const wallAsUtc = Date.UTC(day.year, day.month - 1, day.day, hour, minute, second, millisecond);
  const before = zoneOffsetMs(wallAsUtc - DAY_MS, timeZone);
  const after = zoneOffsetMs(wallAsUtc + DAY_MS, timeZone);
  // With the earlier offset first: on a day the clock is turned back, both read the wall time and the first is earlier.
  for (const offset of [before, after]) {
    if (zoneOffsetMs(wallAsUtc - offset, timeZone) === offset) return new Date(wallAsUtc - offset);
  }
  return new Date(wallAsUtc - before);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The end of the booking window: the same clock time, on the booking zone's clock, on the same day of the next
 * calendar month, clamped to that month's last day (31 January → 28 or 29 February). Across a change of
 * summer time the window is a month of the zone's clock, not of UTC's.
 */
export function oneMonthAfter(now: Date, timeZone: string = DEFAULT_BOOKING_TIME_ZONE): Date {
  const wall = zonedParts(now, timeZone);
  const year = wall.month === 12 ? wall.year + 1 : wall.year;
  const month = wall.month === 12 ? 1 : wall.month + 1;
  const day = Math.min(wall.day, daysInMonth(year, month));
  return zonedTimeToInstant(
    { year, month, day },
    wall.hour,
    timeZone,
    wall.minute,
    wall.second,
    now.getUTCMilliseconds(),
  );
}

export function calendarDayOf(instant: Date, timeZone: string): CalendarDay {
  const { year, month, day } = zonedParts(instant, timeZone);
  return { year, month, day };
}

export function isWeekend(day: CalendarDay): boolean {
  const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
  return weekday === 0 || weekday === 6;
}

export interface Slot {
  /** Hour on the booking zone's clock, 7–23. */
  hour: number;
  /** "07:00" … "23:00", as shown in the booking zone. */
  label: string;
  /** The slot's start as an ISO 8601 UTC instant: what the API receives. */
  iso: string;
}

/**
 * The slots of a day that can still be booked at `now`: empty on weekends, none sooner than the notice allows nor
 * beyond the window. `starts` are the day's slot starts (slotStartsOf), from a caller that keeps them.
 */
export function availableSlots(
  day: CalendarDay,
  now: Date,
  timeZone: string,
  minNoticeMinutes = DEFAULT_MIN_NOTICE_MINUTES,
  starts?: readonly Date[],
): Slot[] {
  if (isWeekend(day)) return [];
  const dayStarts = starts ?? slotStartsOf(day, timeZone);
  const windowEnd = oneMonthAfter(now, timeZone).getTime();
  const earliest = earliestStart(now, minNoticeMinutes);
  const slots: Slot[] = [];
  for (const [index, hour] of SLOT_HOURS.entries()) {
    const instant = dayStarts[index]!;
    const time = instant.getTime();
    if (time > now.getTime() && time >= earliest && time <= windowEnd) {
      slots.push({ hour, label: `${String(hour).padStart(2, '0')}:00`, iso: instant.toISOString() });
    }
  }
  return slots;
}

/** A day is offered by the calendar when at least one of its slots can be booked. */
export function isBookableDay(
  day: CalendarDay,
  now: Date,
  timeZone: string,
  minNoticeMinutes = DEFAULT_MIN_NOTICE_MINUTES,
): boolean {
  return availableSlots(day, now, timeZone, minNoticeMinutes).length > 0;
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 8601 date-time with its offset, naming a day and time that exist (Date would roll 30 February over to March). */
function parseIsoInstant(value: string): Date | undefined {
  const match = ISO_INSTANT.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  if (
    calendar.getUTCMonth() !== month! - 1 ||
    calendar.getUTCDate() !== day ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59
  ) {
    return undefined;
  }
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/**
 * No window is shorter than this: a month of the zone's clock is at least 28 days (31 January to 28 February), and no
 * zone's offset has grown by more than a day within one (Samoa skipped 30 December 2011).
 */
const SHORTEST_MONTH_MS = 26 * DAY_MS;

/**
 * The one check of a requested slot. Returns the message for a person, or null when the slot can be booked. A slot
 * sooner than the notice allows is outside the window.
 */
export function timeSlotProblem(
  value: string,
  now: Date,
  timeZone: string,
  minNoticeMinutes = DEFAULT_MIN_NOTICE_MINUTES,
): string | null {
  // Without an offset, "09:00" would mean whatever the server's zone says: refused.
  const instant = parseIsoInstant(value);
  if (!instant) return TIME_SLOT_WINDOW_MESSAGE;
  const time = instant.getTime();
  if (time <= now.getTime() || time < earliestStart(now, minNoticeMinutes)) return TIME_SLOT_WINDOW_MESSAGE;
  // Only a time further off than the shortest month can be past the window's end: the end is worked out only then.
  if (time - now.getTime() > SHORTEST_MONTH_MS && time > oneMonthAfter(now, timeZone).getTime())
    return TIME_SLOT_WINDOW_MESSAGE;
  const local = zonedParts(instant, timeZone);
  if (local.weekday === 0 || local.weekday === 6) return TIME_SLOT_WEEKEND_MESSAGE;
  const wholeHour = local.minute === 0 && local.second === 0 && instant.getUTCMilliseconds() === 0;
  if (!wholeHour || local.hour < FIRST_SLOT_HOUR || local.hour > LAST_SLOT_HOUR) return timeSlotHoursMessage(timeZone);
  return null;
}

/** The answer when the slot filled up between the visitor's choice and the submit. */
export const SLOT_TAKEN_MESSAGE = 'This time was just taken. Please choose another.';
/** The answer when the same person (by e-mail) already holds the slot. */
export const SLOT_ALREADY_BOOKED_MESSAGE =
  'You have already booked this time. Your confirmation is on its way; to book another demo, choose another time.';

/** One slot of a day, as GET /api/slots answers it. */
export interface SlotAvailability {
  /** The slot's start, an ISO 8601 UTC instant. */
  start: string;
  available: boolean;
}

/** GET /api/slots?date=YYYY-MM-DD: the 17 slots of a booking-zone day. */
export interface DaySlots {
  date: string;
  timeZone: string;
  slots: SlotAvailability[];
  /**
   * Present (true) when the team's calendars could not be read at all: no slot is offered because no host's
   * calendar can be read, not because the day is booked up. The dialog then asks the visitor to write to `salesDesk`.
   */
  calendarsUnreadable?: boolean;
  /** The sales desk's address, with calendarsUnreadable, when the server has one. */
  salesDesk?: string;
}

/** A day written YYYY-MM-DD, as the slots endpoint takes it. */
export function formatCalendarDay(day: CalendarDay): string {
  return `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
}

/** Reads YYYY-MM-DD naming a day that exists; anything else is undefined. */
export function parseCalendarDay(value: string): CalendarDay | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1970 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return { year, month, day };
}

/** The start of every slot of a day (17), bookable or not. */
export function slotStartsOf(day: CalendarDay, timeZone: string): Date[] {
  return SLOT_HOURS.map((hour) => zonedTimeToInstant(day, hour, timeZone));
}
