/**
 * What routing adds (issue 38): the same team of hosts, each with a real CalDAV calendar (xandikos), served by three
 * apps side by side in one process: without routing (every host takes every prospect); with the team file's
 * questions, an accounts file of ACCOUNTS lines and one catch-all route (routing's own work, the same calendars
 * read); and with routes that narrow a prospect to two hosts (fewer calendars read). Requests go to each in turn so
 * that the machine's noise falls on all alike: a booking (POST /api/demo-request) and a day's slot list
 * (GET /api/slots, with the route key the dialog gets from POST /api/routing). Also how long the accounts file takes
 * to read. Figures only.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { availableSlots, calendarDayOf, formatCalendarDay } from '../../domain/booking.js';
import { HostCalendars } from '../../api/hosts/calendars.js';
import { readAccountsFile } from '../../api/routing/accounts.js';
import { createProspectRouting } from '../../api/routing/prospect-route.js';
import { parseTeam } from '../../server-shared/hosts/team.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { CALDAV_PASSWORD, CALDAV_USER, startCalDavServer } from '../../test/caldav-server.js';
import { silentLogger } from '../../test/stack.js';
import { percentile } from './processes.js';

const HOSTS = 6;
const ACCOUNTS = 20_000;
const ZONE = 'Europe/Berlin';

export interface RoutingBenchOptions {
  say: (line?: string) => void;
  /** Bookings made by each app; slot lists asked of each, twice as many. */
  bookings?: number;
}

const median = (times: number[]) =>
  percentile(
    [...times].sort((a, b) => a - b),
    50,
  );
const ms = (value: number) => `${value.toFixed(2)} ms`;

export async function routingSection({ say, bookings = 150 }: RoutingBenchOptions): Promise<void> {
  const caldav = await startCalDavServer();
  const folder = await mkdtemp(path.join(tmpdir(), 'converge-bench-routing-'));
  const apps: AppUnderTest[] = [];
  try {
    const hosts = [];
    for (let h = 0; h < HOSTS; h++)
      hosts.push({
        name: `Host ${h}`,
        title: 'Solutions engineer',
        email: `host${h}@converge.test`,
        calendarUrl: await caldav.makeCalendar(`host-${h}`),
        calendarUsername: CALDAV_USER,
        calendarPassword: CALDAV_PASSWORD,
      });
    const questions = [
      { id: 'companySize', label: 'Company size', options: ['1-49', '50-499', '500-4999', '5000+'] },
      { id: 'region', label: 'Region', options: ['Europe', 'North America', 'Asia Pacific', 'Other'] },
    ];
    const routes = [
      { when: { emailDomain: ['competitor.example'] }, disqualify: 'Thank you! Our team will reach out by e-mail.' },
      { when: { companySize: ['5000+'] }, hosts: ['host0@converge.test', 'host1@converge.test'] },
      { when: { region: ['Europe'] }, hosts: ['host2@converge.test', 'host3@converge.test'] },
      { hosts: '*' },
    ];
    const plainTeam = parseTeam(JSON.stringify({ hosts }), {});
    const everyHostTeam = parseTeam(JSON.stringify({ hosts, questions, routes: [{ hosts: '*' }] }), {});
    const routedTeam = parseTeam(JSON.stringify({ hosts, questions, routes }), {});
    // A CRM's export: most domains owned by one of the route's hosts, the owner first when free.
    const accountsFile = path.join(folder, 'accounts.csv');
    const lines = ['domain,owner'];
    for (let n = 0; n < ACCOUNTS; n++) lines.push(`account-${n}.example,host${n % 2}@converge.test`);
    await writeFile(accountsFile, `${lines.join('\n')}\n`);
    const readTimes: number[] = [];
    for (let round = 0; round < 5; round++) {
      const began = performance.now();
      readAccountsFile(
        accountsFile,
        routedTeam.hosts.map((host) => host.email),
        silentLogger,
        60_000,
      ).close();
      readTimes.push(performance.now() - began);
    }
    const routingOf = (team: typeof plainTeam) =>
      createProspectRouting(team, { accountsFile, ownerLookup: undefined }, silentLogger, () => {});
    const routing = routingOf(routedTeam);
    const everyHostRouting = routingOf(everyHostTeam);
    const calendarsOf = (team: typeof plainTeam) =>
      new HostCalendars(team.hosts, { logger: silentLogger, bookingTimeZone: ZONE });
    const limits = { slotCapacity: 1, perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 0 };
    const followUps = { reminderMinutesBefore: 0 };
    const plain = await startAppUnderTest({ hostCalendars: calendarsOf(plainTeam), bookingLimits: limits, followUps });
    apps.push(plain);
    const everyHost = await startAppUnderTest({
      hostCalendars: calendarsOf(everyHostTeam),
      routing: everyHostRouting,
      bookingLimits: limits,
      followUps,
    });
    apps.push(everyHost);
    const routed = await startAppUnderTest({
      hostCalendars: calendarsOf(routedTeam),
      routing,
      bookingLimits: limits,
      followUps,
    });
    apps.push(routed);

    // The coming weeks' slots, each booked at most twice per app (the route has two hosts).
    const now = new Date();
    const days: string[] = [];
    const slots: string[] = [];
    for (let day = 2; day <= 30; day++) {
      const calendarDay = calendarDayOf(new Date(now.getTime() + day * 86_400_000), ZONE);
      const open = availableSlots(calendarDay, now, ZONE);
      if (open.length > 0) days.push(formatCalendarDay(calendarDay));
      for (const slot of open) slots.push(slot.iso);
    }
    const answers = { companySize: '5000+', region: 'Europe' };
    const prospect = (n: number) => ({
      name: `Bench Prospect ${n}`,
      email: `buyer${n}@account-${n}.example`,
      company: `Account ${n}`,
      timeSlot: slots[Math.floor(n / 2) % slots.length]!,
    });
    const timed = async (request: () => Promise<Response>, expected: number): Promise<number> => {
      const began = performance.now();
      const answer = await request();
      await answer.arrayBuffer();
      const took = performance.now() - began;
      if (answer.status !== expected) throw new Error(`expected ${expected}, got ${answer.status}`);
      return took;
    };
    const post = (app: AppUnderTest, urlPath: string, body: unknown) => () =>
      fetch(`${app.url}${urlPath}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    // Every calendar read once by each app before anything is timed.
    for (const app of apps) await timed(() => fetch(`${app.url}/api/slots?date=${days[0]}`), 200);
    const booked = { plain: [] as number[], everyHost: [] as number[], routed: [] as number[] };
    for (let n = 0; n < bookings; n++) {
      booked.plain.push(await timed(post(plain, '/api/demo-request', prospect(n)), 201));
      booked.everyHost.push(await timed(post(everyHost, '/api/demo-request', { ...prospect(n), answers }), 201));
      booked.routed.push(await timed(post(routed, '/api/demo-request', { ...prospect(n), answers }), 201));
    }
    const keyOf = async (app: AppUnderTest) => {
      const answer = await (await post(app, '/api/routing', { email: 'cfo@account-1.example', answers })()).json();
      return encodeURIComponent(String((answer as { route: string }).route));
    };
    const [everyHostKey, routedKey] = [await keyOf(everyHost), await keyOf(routed)];
    const listed = { plain: [] as number[], everyHost: [] as number[], routed: [] as number[] };
    for (let n = 0; n < bookings * 2; n++) {
      const day = days[n % days.length]!;
      listed.plain.push(await timed(() => fetch(`${plain.url}/api/slots?date=${day}`), 200));
      listed.everyHost.push(
        await timed(() => fetch(`${everyHost.url}/api/slots?date=${day}&route=${everyHostKey}`), 200),
      );
      listed.routed.push(await timed(() => fetch(`${routed.url}/api/slots?date=${day}&route=${routedKey}`), 200));
    }
    const routedAlone: number[] = [];
    for (let n = 0; n < bookings; n++) {
      const began = performance.now();
      await routing.router.routeOf(`buyer${n}@account-${n}.example`, answers);
      routedAlone.push(performance.now() - began);
    }
    routing.close();
    everyHostRouting.close();

    say(
      `Routing (${HOSTS} hosts in xandikos, 2 questions, ${ACCOUNTS.toLocaleString('en')} accounts), three apps side by side, requests in turn:`,
    );
    say(`  accounts file read (${ACCOUNTS.toLocaleString('en')} lines), median of 5: ${ms(median(readTimes))}`);
    const signed = (value: number) => `${value >= 0 ? '+' : ''}${ms(value)}`;
    const line = (what: string, times: { plain: number[]; everyHost: number[]; routed: number[] }) => {
      const [without, all, narrowed] = [median(times.plain), median(times.everyHost), median(times.routed)];
      say(`  ${what}: p50 without routing ${ms(without)}`);
      say(`    routed to every host (routing's own work): ${ms(all)}, ${signed(all - without)} (goal: at most +1 ms)`);
      say(
        `    routed to 2 of the ${HOSTS} hosts (fewer calendars read): ${ms(narrowed)}, ${signed(narrowed - without)}`,
      );
    };
    line(`booking, n=${bookings} each`, booked);
    line(`slot list of a day, n=${bookings * 2} each`, listed);
    say(`  the route alone (answers, domain, accounts), in process: p50 ${(median(routedAlone) * 1000).toFixed(1)} µs`);
  } finally {
    await Promise.all(apps.map((app) => app.close()));
    await caldav.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
