/** A booked slot written out for people: in the booking zone and in UTC. */
import { bookingZoneLabel } from '../../domain/booking.js';

function formatSlot(start: Date, end: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(start);
  const time = (instant: Date) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
  const zoneName = new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' })
    .formatToParts(start)
    .find((part) => part.type === 'timeZoneName')?.value;
  return `${day}, ${time(start)}–${time(end)}${zoneName ? ` (${zoneName})` : ''}`;
}

export interface SlotTimes {
  /** "Europe Time", or the booking zone's own name. */
  zoneLabel: string;
  zoned: string;
  utc: string;
}

export function slotTimes(start: Date, end: Date, timeZone: string): SlotTimes {
  return {
    zoneLabel: bookingZoneLabel(timeZone),
    zoned: formatSlot(start, end, timeZone),
    utc: formatSlot(start, end, 'UTC').replace(/ \(UTC\)$/, ' UTC'),
  };
}
