import { bookingZoneLabel, calendarDayOf } from '../../../domain/booking.js';
import { clockLabel, formatDayLong, visitorClockLabel } from './booking-calendar.js';

export interface BookingTime {
  /** "Monday, 23 November 2026 at 14:00 Europe Time": the demo's start in the booking zone, as the dialog says it. */
  text: string;
  /** "08:00", or "01:00 Tue", on the visitor's clock when it reads differently; else null. */
  local: string | null;
}

/** A booking's start, read the way the demo dialog reads a slot: in the booking zone, with the visitor's own time. */
export function describeBookingTime(iso: string, zone: string, visitorZone: string): BookingTime {
  const instant = new Date(iso);
  const day = calendarDayOf(instant, zone);
  const time = clockLabel(instant, zone);
  return {
    text: `${formatDayLong(day)} at ${time} ${bookingZoneLabel(zone)}`,
    local: visitorClockLabel(instant, day, time, visitorZone),
  };
}
