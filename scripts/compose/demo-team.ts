/** The demo team's calendars on the CalDAV service, and the slots they take away. */
import {
  DEFAULT_BOOKING_TIME_ZONE,
  FIRST_SLOT_HOUR,
  formatCalendarDay,
  slotStartsOf,
  type CalendarDay,
} from '../../domain/booking.js';
import { dayAhead, daySlots, http } from './http.js';
import { check, note, waitFor } from './run.js';
import { DEMO_HOSTS, WORKSHOP_PATH } from './settings.js';
import { composeRun } from './stack.js';

export interface HostState {
  name: string;
  state: string;
  lastGoodReadAt: string | null;
  lastError: string | null;
}

/**
 * The demo team on: GET /api/hosts shows its three calendars readable; the weekly sales sync (every host busy) and
 * the one-off customer workshop (every host at work then busy) take their slots away, and the slots beside them
 * stay. Gives the free slot beside the sync, to book.
 */
export async function demoTeam(apiUrl: string, caldavUrl: string, adminToken: string): Promise<string> {
  const hosts = await waitFor('the demo team’s calendars readable (GET /api/hosts)', 90_000, async () => {
    const { status, body, text } = await http<{ team: boolean; hosts: HostState[] }>(`${apiUrl}/api/hosts`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    check(status === 200, `GET /api/hosts answered ${status}: ${text.slice(0, 300)}`);
    check(body.team, 'GET /api/hosts says there is no team: TEAM_FILE did not reach the API');
    return body.hosts.length === DEMO_HOSTS.length && body.hosts.every((host) => host.state === 'readable')
      ? body.hosts
      : undefined;
  });
  check(
    JSON.stringify(hosts.map((host) => host.name)) === JSON.stringify(DEMO_HOSTS),
    `GET /api/hosts lists ${hosts.map((host) => host.name).join(', ')}`,
  );
  note(`GET /api/hosts: ${hosts.map((host) => `${host.name} ${host.state} (read ${host.lastGoodReadAt})`).join('; ')}`);
  // The API started once the calendars answered: not one read failed on the way.
  const apiLogs = await composeRun(['logs', '--no-color', 'api'], { timeoutMs: 60_000 });
  check(
    !`${apiLogs.stdout}${apiLogs.stderr}`.includes('host calendar unreadable'),
    'the API logged a host calendar unreadable',
  );
  const uid = (await composeRun(['exec', '-T', 'caldav', 'id', '-u'])).stdout.trim();
  check(/^\d+$/.test(uid) && uid !== '0', `the CalDAV server runs as uid ${uid}`);
  note(`no calendar read failed; the CalDAV server runs as uid ${uid}`);

  const clock = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
  const at = (day: CalendarDay, hour: number) =>
    slotStartsOf(day, DEFAULT_BOOKING_TIME_ZONE)[hour - FIRST_SLOT_HOUR]!.toISOString();
  const offered = async (day: CalendarDay, hours: number[]) => {
    const answer = await daySlots(apiUrl, day);
    check(!answer.calendarsUnreadable, `GET /api/slots?date=${answer.date} says no calendar can be read`);
    const available = new Map(answer.slots.map((slot) => [slot.start, slot.available]));
    return hours.map((hour) => available.get(at(day, hour)));
  };

  // The weekly sales sync, Tuesdays 15:00-16:00 Europe/Berlin, is in every host's calendar.
  const tuesday = [1, 2, 3, 4, 5, 6, 7]
    .map(dayAhead)
    .find((day) => new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay() === 2)!;
  const [before, sync, after] = await offered(tuesday, [14, 15, 16]);
  check(sync === false, `${formatCalendarDay(tuesday)} 15:00, the weekly sales sync of every host, is offered`);
  check(
    before === true && after === true,
    `${formatCalendarDay(tuesday)} 14:00 and 16:00 (hosts free) are not both offered: ${before}, ${after}`,
  );
  note(
    `${formatCalendarDay(tuesday)}: 15:00 (weekly sales sync, every host busy) not offered; 14:00 and 16:00 offered`,
  );

  // The one-off workshop, on the day the seed chose (the second weekday after the stack's first start).
  const workshop = await http<string>(`${caldavUrl}${WORKSHOP_PATH}`);
  check(workshop.status === 200, `GET ${WORKSHOP_PATH} from the CalDAV service answered ${workshop.status}`);
  const start = /^DTSTART;TZID=Europe\/Berlin:(\d{4})(\d{2})(\d{2})T(\d{2})0000\r?$/m.exec(workshop.text);
  const end = /^DTEND;TZID=Europe\/Berlin:\d{8}T(\d{2})0000\r?$/m.exec(workshop.text);
  check(start && end, `the seeded workshop has no DTSTART/DTEND in Europe/Berlin:\n${workshop.text}`);
  const day = { year: Number(start[1]), month: Number(start[2]), day: Number(start[3]) };
  const [from, to] = [Number(start[4]), Number(end[1])];
  const busy = Array.from({ length: to - from }, (_, i) => from + i);
  const states = await offered(day, [from - 1, ...busy, to]);
  check(
    states.slice(1, -1).every((state) => state === false),
    `${formatCalendarDay(day)}: the workshop's slots (${busy.join(', ')}:00) are offered: ${states.join(', ')}`,
  );
  check(
    states[0] === true && states.at(-1) === true,
    `${formatCalendarDay(day)}: the slots beside the workshop are not offered: ${states.join(', ')}`,
  );
  note(
    `${formatCalendarDay(day)}: ${busy.map(clock).join(' and ')} (one-off workshop) not offered; ${clock(from - 1)} and ${clock(to)} offered`,
  );
  return at(tuesday, 14);
}
