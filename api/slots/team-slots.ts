/**
 * With a team (TEAM_FILE), a slot is offered when one of its hosts could take it, as a booking would choose them
 * (booking_choose_host): their calendar reads (fail closed: an unreadable one counts for nothing), the slot lies
 * inside their working hours, their calendar holds nothing busy over it, they hold no booking of ours then, and
 * their day has not reached their daily limit.
 */
import { slotEnd } from '../../domain/booking.js';
import { HostCalendars } from '../hosts/calendars.js';
import { hostDay, withinWorkingHours } from '../../server-shared/hosts/team.js';

export interface TeamSlots {
  /**
   * The names of the hosts free in each slot asked, by its ISO start, in the team file's order; with a route, its
   * hosts alone, in its order (the account's owner first).
   */
  freeHosts: ReadonlyMap<string, readonly string[]>;
  /** True when not one host's (of the route's) calendar could be read: no slot is offered, and the dialog says why. */
  calendarsUnreadable: boolean;
}

/** The hosts' indexes in the team of `route`'s e-mails, in its order; every host's, in the file's, without one. */
function hostIndexes(hosts: readonly { email: string }[], route: readonly string[] | undefined): number[] {
  if (!route) return hosts.map((_host, index) => index);
  const byEmail = new Map(hosts.map((host, index) => [host.email.toLowerCase(), index]));
  return route.flatMap((email) => byEmail.get(email.toLowerCase()) ?? []);
}

/**
 * `held`: each host's booked slot starts (ms) around the day, by their address (hostBookingsAround). `route`: the
 * e-mails of the hosts that may take the prospect (a route key's), the owner first; every host without it.
 */
export async function teamSlots(
  calendars: HostCalendars,
  starts: readonly { start: Date; iso: string }[],
  held: ReadonlyMap<string, readonly number[]>,
  bookingTimeZone: string,
  route?: readonly string[],
): Promise<TeamSlots> {
  const busyTimes = await calendars.busyTimes();
  const asked = hostIndexes(calendars.hosts, route);
  const freeHosts = new Map<string, readonly string[]>();
  for (const { start, iso } of starts) {
    const end = slotEnd(start);
    const free: string[] = [];
    asked.forEach((index) => {
      const host = calendars.hosts[index]!;
      const busy = busyTimes[index];
      if (!busy || !withinWorkingHours(host, start, end) || !HostCalendars.isFree(busy, start, end)) return;
      const theirs = held.get(host.email.toLowerCase()) ?? [];
      // Slots are on one grid and of one length: a booking overlaps this slot only by starting at it.
      if (theirs.includes(start.getTime())) return;
      if (host.dailyLimit !== undefined) {
        const day = hostDay(host, start, bookingTimeZone);
        if (theirs.filter((at) => at >= day.start.getTime() && at < day.end.getTime()).length >= host.dailyLimit)
          return;
      }
      free.push(host.name);
    });
    freeHosts.set(iso, free);
  }
  return { freeHosts, calendarsUnreadable: asked.every((index) => busyTimes[index] === undefined) };
}
