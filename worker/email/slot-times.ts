/** A booked slot written out for people: in the booking zone, in UTC, and in the visitor's own zone when known. */
import { bookingZoneLabel } from '../../domain/booking.js';
import { LRUCache } from 'lru-cache';

interface SlotFormatters {
  day: Intl.DateTimeFormat;
  /** The day without its year, for a move's few words. */
  shortDay: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
  zone: Intl.DateTimeFormat;
}

/** Made once per zone: every e-mail of a worker writes the same one or two zones. */
const formattersByZone = new Map<string, SlotFormatters>();

function formattersFor(timeZone: string): SlotFormatters {
  let formatters = formattersByZone.get(timeZone);
  if (!formatters) {
    formatters = {
      day: new Intl.DateTimeFormat('en-GB', {
        timeZone,
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }),
      shortDay: new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }),
      time: new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
      zone: new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' }),
    };
    formattersByZone.set(timeZone, formatters);
  }
  return formatters;
}

function formatSlot(start: Date, end: Date, timeZone: string): string {
  const { day, time, zone } = formattersFor(timeZone);
  const zoneName = zone.formatToParts(start).find((part) => part.type === 'timeZoneName')?.value;
  return `${day.format(start)}, ${time.format(start)}–${time.format(end)}${zoneName ? ` (${zoneName})` : ''}`;
}

/** A move in a few words, in the booking zone: "from Thursday 26 November, 10:00 to Monday 30 November, 15:00". */
export function slotMove(from: Date, to: Date, timeZone: string): string {
  const { shortDay, time } = formattersFor(timeZone);
  return `from ${shortDay.format(from)}, ${time.format(from)} to ${shortDay.format(to)}, ${time.format(to)}`;
}

export interface SlotTimes {
  /** "Europe Time", or the booking zone's own name. */
  zoneLabel: string;
  zoned: string;
  utc: string;
  /** In the visitor's own zone, when the page sent it and its clock differs from the booking zone's. */
  visitor?: string;
}

/** The row that shows the slot in the visitor's own zone. */
const VISITOR_LABEL = 'Your time';

/** Slots are whole hours, and many bookings share one: each is written out once (up to this many kept). */
const SLOTS_KEPT = 2000;
const slotTimesByKey = new LRUCache<string, SlotTimes>({ max: SLOTS_KEPT });

/**
 * The slot in the booking zone and UTC, and in `visitorTimeZone` (the visitor's own, which the booking stored as a
 * valid IANA name) when its clock reads otherwise than the booking zone's at the slot.
 */
export function slotTimes(start: Date, end: Date, timeZone: string, visitorTimeZone?: string | null): SlotTimes {
  const key = `${start.getTime()}/${end.getTime()}/${timeZone}/${visitorTimeZone ?? ''}`;
  const kept = slotTimesByKey.get(key);
  if (kept) return kept;
  const shown = visitorTimeZone && !sameClock(start, timeZone, visitorTimeZone);
  const times: SlotTimes = {
    zoneLabel: bookingZoneLabel(timeZone),
    zoned: formatSlot(start, end, timeZone),
    utc: formatSlot(start, end, 'UTC').replace(/ \(UTC\)$/, ' UTC'),
    ...(shown ? { visitor: formatSlot(start, end, visitorTimeZone) } : {}),
  };
  slotTimesByKey.set(key, times);
  return times;
}

/** Whether the two zones' clocks read alike at the instant (their offsets are equal). */
function sameClock(instant: Date, zone: string, other: string): boolean {
  const { time, day } = formattersFor(zone);
  const theirs = formattersFor(other);
  return time.format(instant) === theirs.time.format(instant) && day.format(instant) === theirs.day.format(instant);
}

/** The slot as rows of label and value: the booking zone, UTC, and the visitor's own zone when it differs. */
export function slotRows(times: SlotTimes): [string, string][] {
  return [
    [times.zoneLabel, times.zoned],
    ['UTC', times.utc],
    ...(times.visitor ? [[VISITOR_LABEL, times.visitor] as [string, string]] : []),
  ];
}
