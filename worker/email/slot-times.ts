/** A booked slot written out for people: in the booking zone and in UTC. */
import { bookingZoneLabel } from '../../domain/booking.js';
import { brand } from '../../domain/brand.js';
import { escapeHtml } from '../../domain/text.js';
import { KeptAnswers } from '../../domain/kept-answers.js';

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
      day: new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
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
}

/** Slots are whole hours, and many bookings share one: each is written out once (up to this many kept). */
const SLOTS_KEPT = 2000;
const slotTimesByKey = new KeptAnswers<SlotTimes>(SLOTS_KEPT);

export function slotTimes(start: Date, end: Date, timeZone: string): SlotTimes {
  return slotTimesByKey.of(`${start.getTime()}/${end.getTime()}/${timeZone}`, () => ({
    zoneLabel: bookingZoneLabel(timeZone),
    zoned: formatSlot(start, end, timeZone),
    utc: formatSlot(start, end, 'UTC').replace(/ \(UTC\)$/, ' UTC'),
  }));
}

/** The slot as two aligned plain-text lines: the booking zone, then UTC. */
export function slotTimesText(times: SlotTimes): string[] {
  return [`  ${times.zoneLabel}: ${times.zoned}`, `  UTC:${' '.repeat(Math.max(1, times.zoneLabel.length - 2))}${times.utc}`];
}

/** The slot as a two-row table: the booking zone, then UTC. */
export function slotTableHtml(times: SlotTimes): string {
  const cell = `padding:4px 16px 4px 0;color:${brand.colors.muted}`;
  return `    <table role="presentation" style="border-collapse:collapse;margin:16px 0">
      <tr><td style="${cell}">${escapeHtml(times.zoneLabel)}</td><td style="padding:4px 0"><strong>${escapeHtml(times.zoned)}</strong></td></tr>
      <tr><td style="${cell}">UTC</td><td style="padding:4px 0">${escapeHtml(times.utc)}</td></tr>
    </table>`;
}
