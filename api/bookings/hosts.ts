/**
 * With a team (TEAM_FILE), who could give the demo at a slot: the hosts (with routing, those of the prospect's route
 * and the account's owner) inside their working hours whose own calendar, read again now, holds nothing busy over
 * it; the others are kept with why, for the routing record. An unreadable calendar is no candidate (fail closed). The database then
 * chooses among them under its locks (booking_choose_host, db/functions/booking-rules.sql): who is not booked at that time,
 * under their daily limit, and fairest by weight.
 */
import { slotEnd } from '../../domain/booking.js';
import { HostCalendars } from '../hosts/calendars.js';
import { hostDay, withinWorkingHours, type Host } from '../../server-shared/hosts/team.js';
import type { CandidateOutcome } from '../../domain/routing.js';

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

/** Why the API passed a host over before the database was asked: their hours, their calendar unread, or busy in it. */
export type CalendarOutcome = Extract<CandidateOutcome, 'outside-hours' | 'calendar-unreadable' | 'busy'>;

/** The hosts asked about a slot: those free in their hours and calendars, and what the others' reading found. */
export interface HostsAtSlot {
  /** Free in their hours and own calendar, in the team file's order: the database chooses among them. */
  free: HostCandidate[];
  /** Every host asked, in the order asked, with why they were passed over; undefined: free, the database decides. */
  asked: { email: string; name: string; outcome: CalendarOutcome | undefined }[];
}

/**
 * The hosts of `emails` (lower case; every host when undefined) at `timeSlot`, their calendars read at this moment.
 * `free` keeps the team file's order (the fair choice's ties); `asked` the order of `emails`.
 */
export async function hostsAtSlot(
  calendars: HostCalendars,
  timeSlot: Date,
  bookingTimeZone: string,
  emails?: readonly string[],
): Promise<HostsAtSlot> {
  const end = slotEnd(timeSlot);
  const wanted = emails && new Set(emails);
  const hosts = calendars.hosts
    .map((host, index) => ({ host, index }))
    .filter(({ host }) => !wanted || wanted.has(host.email.toLowerCase()));
  const outcomes = await Promise.all(
    hosts.map(async ({ host, index }): Promise<CalendarOutcome | undefined> => {
      if (!withinWorkingHours(host, timeSlot, end)) return 'outside-hours';
      const busy = await calendars.freshBusyTimes(index);
      if (busy === undefined) return 'calendar-unreadable';
      return HostCalendars.isFree(busy, timeSlot, end) ? undefined : 'busy';
    }),
  );
  const asked = hosts.map(({ host }, position) => ({
    email: host.email.toLowerCase(),
    name: host.name,
    outcome: outcomes[position],
  }));
  const order = emails ?? asked.map((host) => host.email);
  return {
    free: hosts
      .filter((_, position) => outcomes[position] === undefined)
      .map(({ host }) => candidateOf(host, timeSlot, bookingTimeZone)),
    asked: order.flatMap((email) => asked.filter((host) => host.email === email)),
  };
}

/** The hosts who could take `timeSlot`, in the team file's order; their calendars are read at this moment. */
export async function hostCandidates(
  calendars: HostCalendars,
  timeSlot: Date,
  bookingTimeZone: string,
): Promise<HostCandidate[]> {
  return (await hostsAtSlot(calendars, timeSlot, bookingTimeZone)).free;
}
