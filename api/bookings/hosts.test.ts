import { expect } from 'chai';
import {
  CALDAV_PASSWORD,
  CALDAV_USER,
  eventIcs,
  startCalDavServer,
  type CalDavServer,
} from '../../test/caldav-server.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { silentLogger } from '../../test/stack.js';
import { HostCalendars } from '../hosts/calendars.js';
import { parseTeam } from '../../server-shared/hosts/team.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';
import type { DaySlots } from '../../domain/booking.js';
import { comparableAnswer, icsOrganizer } from '../../test/booking.js';

type Answer = Awaited<ReturnType<AppUnderTest['post']>>;

// Monday 19 October 2026, 07:00 in Berlin (summer time, UTC+2); the slots booked are on Wednesday and Thursday.
const NOW = new Date('2026-10-19T05:00:00Z');
const at = (day: 21 | 22, berlinHour: number) => `2026-10-${day}T${String(berlinHour - 2).padStart(2, '0')}:00:00.000Z`;

interface TeamMember {
  name: string;
  url: string;
  weight?: number;
  dailyLimit?: number;
}

const teamOf = (hosts: TeamMember[]) =>
  parseTeam(
    JSON.stringify({
      hosts: hosts.map(({ name, url, weight, dailyLimit }) => ({
        name,
        title: `${name}'s title`,
        email: `${name.toLowerCase()}@converge.test`,
        calendarUrl: url,
        calendarUsername: CALDAV_USER,
        calendarPassword: CALDAV_PASSWORD,
        ...(weight ? { weight } : {}),
        ...(dailyLimit ? { dailyLimit } : {}),
      })),
    }),
    {},
  ).hosts;

describe('bookings with a team: a fair choice of host, one demo per host at a time', function () {
  this.timeout(60_000);
  let server: CalDavServer;
  let ana: string;
  let ben: string;
  let cleo: string;
  const apps: AppUnderTest[] = [];
  before(async () => {
    server = await startCalDavServer();
    ana = await server.makeCalendar('ana');
    ben = await server.makeCalendar('ben');
    cleo = await server.makeCalendar('cleo');
    // Thursday 10:00 Berlin: Cleo has a meeting of her own.
    await server.putEvent(cleo, 'c10', eventIcs('c10@test', 'DTSTART:20261022T080000Z', 'DTEND:20261022T090000Z'));
    // Thursday 15:00 Berlin: Ana has a meeting of her own.
    await server.putEvent(ana, 'a15', eventIcs('a15@test', 'DTSTART:20261022T130000Z', 'DTEND:20261022T140000Z'));
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  after(async () => {
    await server.stop();
  });

  async function appWith(hosts: TeamMember[], options: { trustProxy?: number } = {}) {
    const hostCalendars = new HostCalendars(teamOf(hosts), {
      logger: silentLogger,
      now: () => NOW,
      bookingTimeZone: 'Europe/Berlin',
      timeoutMs: 2000,
    });
    const app = await startAppUnderTest({
      ...options,
      now: () => NOW,
      hostCalendars,
      bookingLimits: { slotCapacity: 1, perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 0 },
      followUps: { reminderMinutesBefore: 0 },
    });
    apps.push(app);
    return app;
  }
  const prospect = (n: number, timeSlot: string) => ({
    name: `Prospect ${n}`,
    email: `prospect${n}@northwind-${n}.io`,
    company: `Northwind ${n}`,
    timeSlot,
  });
  const hostsOf = async (app: AppUnderTest) =>
    (await app.db('bookings').where({ status: 'booked' }).orderBy('created_at').select('host_email', 'time_slot')).map(
      (row: { host_email: string; time_slot: Date }) => `${row.host_email} ${row.time_slot.toISOString()}`,
    );

  it('gives 50 concurrent bookings of one slot with 3 free hosts exactly three 201s, three different hosts, and 409s', async () => {
    const app = await appWith([
      { name: 'Ana', url: ana },
      { name: 'Ben', url: ben },
      { name: 'Cleo', url: cleo },
    ]);
    const slot = at(21, 11);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => app.post('/api/demo-request', prospect(n, slot))),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    process.stdout.write(
      `      [figures] 50 concurrent bookings, 3 free hosts: ${created.length} × 201, ${refused.length} × 409, others ${answers.length - created.length - refused.length}\n`,
    );
    expect(created).to.have.length(3);
    expect(refused).to.have.length(47);
    expect(new Set(created.map((answer) => (answer.body.host as { name: string }).name))).to.deep.equal(
      new Set(['Ana', 'Ben', 'Cleo']),
    );
    expect(created[0]!.body.host).to.have.keys(['name', 'title']);
    expect((await hostsOf(app)).sort()).to.deep.equal([
      `ana@converge.test ${slot}`,
      `ben@converge.test ${slot}`,
      `cleo@converge.test ${slot}`,
    ]);
    const day = (await (await fetch(`${app.url}/api/slots?date=2026-10-21`)).json()) as DaySlots;
    expect(
      day.slots.find((one) => one.start === slot)?.available,
      'the slot is full once every host holds it',
    ).to.equal(false);
  });

  it('never chooses a host busy in their own calendar: the slot takes as many bookings as hosts are free', async () => {
    const app = await appWith([
      { name: 'Ana', url: ana },
      { name: 'Cleo', url: cleo },
    ]);
    const slot = at(22, 10);
    const first = await app.post('/api/demo-request', prospect(1, slot));
    expect(first.status).to.equal(201);
    expect(first.body.host).to.deep.equal({ name: 'Ana', title: "Ana's title" });
    const second = await app.post('/api/demo-request', prospect(2, slot));
    expect(second.status, 'Cleo is in a meeting of her own').to.equal(409);
    expect(second.body.fields).to.deep.equal({ timeSlot: 'This time was just taken. Please choose another.' });
  });

  it('shares the demos by weight, ties to the earlier in the team file, and records why each host was chosen', async () => {
    const app = await appWith([
      { name: 'Ana', url: ana, weight: 2 },
      { name: 'Ben', url: ben },
    ]);
    const names: string[] = [];
    for (const [n, hour] of [9, 10, 11, 12, 13, 14].entries()) {
      const answer = await app.post('/api/demo-request', prospect(n, at(21, hour)));
      expect(answer.status).to.equal(201);
      names.push((answer.body.host as { name: string }).name);
    }
    expect(names).to.deep.equal(['Ana', 'Ben', 'Ana', 'Ana', 'Ben', 'Ana']);
    const last = await app.db('bookings').orderBy('created_at', 'desc').first('host_choice');
    expect(last.host_choice).to.deep.include({ demos: 3, weight: 2, score: 1.5, freeHosts: 2 });
    expect(last.host_choice.rule).to.match(/^fewest demos/);
  });

  it('holds each host to their daily limit, on the page and at booking time', async () => {
    const app = await appWith([{ name: 'Ben', url: ben, dailyLimit: 2 }]);
    expect((await app.post('/api/demo-request', prospect(1, at(21, 9)))).status).to.equal(201);
    expect((await app.post('/api/demo-request', prospect(2, at(21, 10)))).status).to.equal(201);
    const day = (await (await fetch(`${app.url}/api/slots?date=2026-10-21`)).json()) as DaySlots;
    expect(
      day.slots.filter((one) => one.available),
      'Ben has given his two demos of the day',
    ).to.deep.equal([]);
    expect((await app.post('/api/demo-request', prospect(3, at(21, 14)))).status).to.equal(409);
    // The next day is a new day.
    expect((await app.post('/api/demo-request', prospect(4, at(22, 9)))).status).to.equal(201);
  });

  it('keeps the host on a move when they are free at the new time, and hands the demo to a free host when not', async () => {
    const app = await appWith([
      { name: 'Ana', url: ana },
      { name: 'Ben', url: ben },
    ]);
    const booked = await app.post('/api/demo-request', prospect(1, at(22, 9)));
    expect(booked.body.host).to.deep.include({ name: 'Ana' });
    const token = bookingToken(String(booked.body.id), TEST_LINK_SECRET);
    const kept = await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: at(22, 11) });
    expect(kept.status).to.equal(200);
    expect(kept.body.host).to.deep.equal({ name: 'Ana', title: "Ana's title" });
    // 15:00: Ana has a meeting of her own; Ben takes the demo.
    const handed = await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: at(22, 15) });
    expect(handed.status).to.equal(200);
    expect(handed.body.host).to.deep.equal({ name: 'Ben', title: "Ben's title" });
    expect(handed.body.meetingUrl, 'the same video room').to.equal(booked.body.meetingUrl);
    const view = await fetch(`${app.url}/api/bookings/${token}`);
    expect(((await view.json()) as { host: unknown }).host).to.deep.equal({ name: 'Ben', title: "Ben's title" });
    expect(await hostsOf(app)).to.deep.equal([`ben@converge.test ${at(22, 15)}`]);
    const cancelled = await app.post(`/api/bookings/${token}/cancel`, {});
    expect(cancelled.status).to.equal(200);
    // Each host's copy of the event (by e-mail and in their calendar) follows the demo: invited, moved, withdrawn from
    // Ana once Ben took it, then from Ben.
    const hostEmails = await app
      .db('deliveries')
      .where({ booking_id: booked.body.id })
      .whereNot({ kind: 'confirmation' })
      .orderBy(['sequence', 'kind', 'recipient']);
    expect(
      hostEmails.map(
        (row: { kind: string; recipient: string; sequence: number }) => `${row.sequence} ${row.kind} ${row.recipient}`,
      ),
    ).to.deep.equal([
      '0 host-calendar ana@converge.test',
      '0 host-invitation ana@converge.test',
      '1 host-calendar ana@converge.test',
      '1 host-invitation ana@converge.test',
      '1 update null',
      '2 host-calendar ana@converge.test',
      '2 host-calendar ben@converge.test',
      '2 host-cancellation ana@converge.test',
      '2 host-invitation ben@converge.test',
      '2 update null',
      '3 cancellation null',
      '3 host-calendar ben@converge.test',
      '3 host-cancellation ben@converge.test',
    ]);
  });

  it('answers a bot in the honeypot as a booking with a host would be, taking no host and no slot', async () => {
    const app = await appWith([{ name: 'Ana', url: ana }]);
    const trapped = await app.post('/api/demo-request', {
      ...prospect(1, at(21, 16)),
      website: 'https://spam.example',
    });
    expect(trapped.status).to.equal(201);
    expect(trapped.body.host).to.deep.equal({ name: 'Ana', title: "Ana's title" });
    const page = (await (
      await fetch(`${app.url}/api/bookings/${bookingToken(String(trapped.body.id), TEST_LINK_SECRET)}`)
    ).json()) as { host: unknown };
    expect(page.host).to.deep.equal({ name: 'Ana', title: "Ana's title" });
    // Its invitation is organised by its host, address and all, as a booking's is.
    const invitation = await (await fetch(`${app.url}${String(trapped.body.invitePath)}`)).text();
    expect(icsOrganizer(invitation)).to.equal('ORGANIZER;CN=Ana:mailto:ana@converge.test');
    expect(await hostsOf(app)).to.deep.equal([]);
    expect((await app.post('/api/demo-request', prospect(2, at(21, 16)))).body.host).to.deep.include({ name: 'Ana' });
  });

  it('answers bots as it answers people: a host each while one is free, then 409, the invitation organised by the host, the slot gone for their network only', async () => {
    const app = await appWith(
      [
        { name: 'Ana', url: ana },
        { name: 'Ben', url: ben },
      ],
      { trustProxy: 1 },
    );
    const bot = { 'X-Forwarded-For': '203.0.113.9' };
    const person = { 'X-Forwarded-For': '198.51.100.30' };
    const asBot = <T extends object>(body: T) => ({ ...body, website: 'https://spam.example' });
    const availableFrom = async (headers: Record<string, string>, slot: string) =>
      ((await (await fetch(`${app.url}/api/slots?date=2026-10-21`, { headers })).json()) as DaySlots).slots.find(
        (one) => one.start === slot,
      )?.available;
    const realSlot = at(21, 13);
    const trapSlot = at(21, 14);
    const real: Answer[] = [];
    for (let n = 0; n < 3; n += 1) real.push(await app.post('/api/demo-request', prospect(10 + n, realSlot), person));
    const trapped: Answer[] = [];
    const shownToBot: (boolean | undefined)[] = [];
    for (let n = 0; n < 3; n += 1) {
      trapped.push(await app.post('/api/demo-request', asBot(prospect(20 + n, trapSlot)), bot));
      shownToBot.push(await availableFrom(bot, trapSlot));
    }
    expect(
      real.map((answer) => [answer.status, (answer.body.host as { name?: string } | undefined)?.name]),
    ).to.deep.equal([
      [201, 'Ana'],
      [201, 'Ben'],
      [409, undefined],
    ]);
    // Field by field as the people's answers, but for what differs between any two bookings.
    real.forEach((answer, n) =>
      expect(comparableAnswer(trapped[n]!), `answer ${n + 1}`).to.deep.equal(comparableAnswer(answer)),
    );
    expect(shownToBot, 'the bot sees the slot as a person would have after their bookings').to.deep.equal([
      true,
      false,
      false,
    ]);
    expect(await availableFrom(person, trapSlot), 'a person sees it free').to.equal(true);

    const organizer = async (answer: Answer) =>
      icsOrganizer(await (await fetch(`${app.url}${String(answer.body.invitePath)}`)).text());
    expect(await organizer(real[0]!)).to.equal('ORGANIZER;CN=Ana:mailto:ana@converge.test');
    expect(await organizer(trapped[0]!)).to.equal(await organizer(real[0]!));
    expect(await organizer(trapped[1]!)).to.equal(await organizer(real[1]!));

    // No real host was taken: a person books the slot with Ana.
    expect(await hostsOf(app)).to.deep.equal([`ana@converge.test ${realSlot}`, `ben@converge.test ${realSlot}`]);
    const booked = await app.post('/api/demo-request', prospect(30, trapSlot), person);
    expect([booked.status, booked.body.host]).to.deep.equal([201, { name: 'Ana', title: "Ana's title" }]);
  });

  it('gives 20 bots booking one slot at once with 2 free hosts two 201s with different hosts, and 409s', async () => {
    const app = await appWith([
      { name: 'Ana', url: ana },
      { name: 'Ben', url: ben },
    ]);
    const slot = at(21, 15);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        app.post('/api/demo-request', { ...prospect(n, slot), website: 'https://spam.example' }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created).to.have.length(2);
    expect(answers.filter((answer) => answer.status === 409)).to.have.length(18);
    expect(new Set(created.map((answer) => (answer.body.host as { name: string }).name))).to.deep.equal(
      new Set(['Ana', 'Ben']),
    );
    expect(await hostsOf(app), 'no real host taken').to.deep.equal([]);
  });

  it('makes two bookings of one host at overlapping times impossible in the database itself', async () => {
    const app = await appWith([{ name: 'Ana', url: ana }]);
    const row = (slot: string, n: number) => ({
      name: `P${n}`,
      email: `p${n}@acme.com`,
      company: 'Acme',
      time_slot: new Date(slot),
      host_email: 'ana@converge.test',
    });
    await app.db('bookings').insert(row(at(21, 9), 1));
    const failure = await app
      .db('bookings')
      .insert(row(at(21, 9), 2))
      .catch((err: unknown) => err);
    expect(failure).to.have.property('constraint', 'bookings_host_once_at_a_time');
    // A cancelled booking holds nothing; another host, or the next hour, is fine.
    await app.db('bookings').update({ status: 'cancelled' });
    await app.db('bookings').insert(row(at(21, 9), 3));
    await app.db('bookings').insert({ ...row(at(21, 9), 4), host_email: 'ben@converge.test' });
    await app.db('bookings').insert(row(at(21, 10), 5));
  });
});
