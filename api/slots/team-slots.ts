/**
 * With a team (TEAM_FILE), a slot is offered when more of its hosts are free than it holds bookings: a host counts
 * when their calendar reads (fail closed: an unreadable one counts for nothing), the slot lies inside their working
 * hours, and their calendar holds nothing busy over it.
 */
import { slotEnd } from '../../domain/booking.js';
import { HostCalendars } from '../../server-shared/hosts/calendars.js';
import { withinWorkingHours } from '../../server-shared/hosts/team.js';

export interface TeamSlots {
  /** The hosts free in each slot asked, by its ISO start. */
  freeHosts: ReadonlyMap<string, number>;
  /** True when not one host's calendar could be read: no slot is offered, and the dialog says why. */
  calendarsUnreadable: boolean;
}

export async function teamSlots(calendars: HostCalendars, starts: readonly { start: Date; iso: string }[]): Promise<TeamSlots> {
  const busyTimes = await calendars.busyTimes();
  const freeHosts = new Map<string, number>();
  for (const { start, iso } of starts) {
    const end = slotEnd(start);
    let free = 0;
    calendars.hosts.forEach((host, index) => {
      const busy = busyTimes[index];
      if (busy && withinWorkingHours(host, start, end) && HostCalendars.isFree(busy, start, end)) free += 1;
    });
    freeHosts.set(iso, free);
  }
  return { freeHosts, calendarsUnreadable: busyTimes.every((busy) => busy === undefined) };
}
