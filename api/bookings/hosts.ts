/**
 * With a team (TEAM_FILE), who could give the demo at a slot: the hosts inside their working hours whose own calendar,
 * read again now, holds nothing busy over it. An unreadable calendar is no candidate (fail closed). The database then
 * chooses among them under its locks (booking_choose_host, db/functions/bookings.sql): who is not booked at that time,
 * under their daily limit, and fairest by weight.
 */
import { slotEnd } from '../../domain/booking.js';
import { HostCalendars } from '../hosts/calendars.js';
import { hostDay, withinWorkingHours, type Host } from '../../server-shared/hosts/team.js';

export interface HostCandidate {
  email: string;
  name: string;
  title: string;
  weight: number;
  dailyLimit: number | undefined;
  /** Their day around the slot, on their clock: what the daily limit counts. */
  dayStart: Date;
  dayEnd: Date;
}

export function candidateOf(host: Host, timeSlot: Date, bookingTimeZone: string): HostCandidate {
  const day = hostDay(host, timeSlot, bookingTimeZone);
  return {
    email: host.email.toLowerCase(),
    name: host.name,
    title: host.title,
    weight: host.weight,
    dailyLimit: host.dailyLimit,
    dayStart: day.start,
    dayEnd: day.end,
  };
}

/** The hosts who could take `timeSlot`, in the team file's order; their calendars are read at this moment. */
export async function hostCandidates(
  calendars: HostCalendars,
  timeSlot: Date,
  bookingTimeZone: string,
): Promise<HostCandidate[]> {
  const end = slotEnd(timeSlot);
  const free = await Promise.all(
    calendars.hosts.map(async (host, index) => {
      if (!withinWorkingHours(host, timeSlot, end)) return false;
      const busy = await calendars.freshBusyTimes(index);
      return busy !== undefined && HostCalendars.isFree(busy, timeSlot, end);
    }),
  );
  return calendars.hosts.filter((_, index) => free[index]).map((host) => candidateOf(host, timeSlot, bookingTimeZone));
}
