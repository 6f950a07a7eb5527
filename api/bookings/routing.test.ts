import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CALDAV_PASSWORD,
  CALDAV_USER,
  eventIcs,
  startCalDavServer,
  type CalDavServer,
} from '../../test/caldav-server.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { silentLogger, TEST_LINK_SECRET } from '../../test/stack.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { HostCalendars } from '../hosts/calendars.js';
import { parseTeam } from '../../server-shared/hosts/team.js';
import { createProspectRouting } from '../routing/prospect-route.js';
import type { RoutingRecord } from '../../domain/routing.js';

// Monday 19 October 2026, 07:00 in Berlin (summer time, UTC+2); the slots booked are on Wednesday and Thursday.
const NOW = new Date('2026-10-19T05:00:00Z');
const at = (day: 21 | 22, berlinHour: number) => `2026-10-${day}T${String(berlinHour - 2).padStart(2, '0')}:00:00.000Z`;
const DISQUALIFY = 'Thank you! Our team will reach out by e-mail.';
const SALES_DESK = 'sales-desk@converge.test';

const questions = [
  { id: 'companySize', label: 'Company size', options: ['1-49', '50-499', '500-4999', '5000+'] },
  { id: 'region', label: 'Region', options: ['Europe', 'North America', 'Asia Pacific', 'Other'] },
];
const routes = [
  { when: { emailDomain: ['competitor.example'] }, disqualify: DISQUALIFY },
  { label: 'Enterprise', when: { companySize: ['5000+'] }, hosts: ['Dana@converge.test', 'anna@converge.test'] },
  { when: { region: ['Europe'] }, hosts: ['lina@converge.test'] },
  { when: { region: ['North America'] }, hosts: ['omar@converge.test', 'kim@converge.test', 'dana@converge.test'] },
];

describe('booking with routing: the route of the answers and the e-mail, the account owner first', function () {
  this.timeout(90_000);
  let server: CalDavServer;
  let folder: string;
  let app: AppUnderTest;
  let routing: ReturnType<typeof createProspectRouting>;
  let calendars: Record<string, string>;

  before(async () => {
    server = await startCalDavServer();
    calendars = Object.fromEntries(
      await Promise.all(['anna', 'dana', 'lina', 'omar'].map(async (name) => [name, await server.makeCalendar(name)])),
    ) as Record<string, string>;
    // Thursday 14:00 Berlin: Lina, who owns owned.example, has a meeting of her own.
    await server.putEvent(
      calendars.lina!,
      'l14',
      eventIcs('l14@test', 'DTSTART:20261022T120000Z', 'DTEND:20261022T130000Z'),
    );
    folder = await mkdtemp(path.join(tmpdir(), 'converge-routing-'));
    const accountsFile = path.join(folder, 'accounts.csv');
    await writeFile(accountsFile, 'domain,owner\nowned.example,lina@converge.test\n');
    const host = (name: string, calendarUrl: string, extra: object = {}) => ({
      name: name[0]!.toUpperCase() + name.slice(1),
      title: 'Solutions Engineer',
      email: `${name}@converge.test`,
      calendarUrl,
      calendarUsername: CALDAV_USER,
      calendarPassword: CALDAV_PASSWORD,
      ...extra,
    });
    const team = parseTeam(
      JSON.stringify({
        hosts: [
          host('anna', calendars.anna!),
          host('dana', calendars.dana!),
          host('lina', calendars.lina!),
          // Omar works New York's hours: a Berlin morning is outside them.
          host('omar', calendars.omar!, {
            workingHours: { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timeZone: 'America/New_York' },
          }),
          // Kim's calendar cannot be read: no server answers there.
          host('kim', 'http://127.0.0.1:9/kim/'),
        ],
        questions,
        routes,
      }),
      {},
    );
    const hostCalendars = new HostCalendars(team.hosts, {
      logger: silentLogger,
      now: () => NOW,
      bookingTimeZone: 'Europe/Berlin',
      timeoutMs: 2000,
    });
    routing = createProspectRouting(team, { accountsFile, ownerLookup: undefined }, silentLogger, () => {});
    app = await startAppUnderTest({
      now: () => NOW,
      hostCalendars,
      routing,
      bookingLimits: { slotCapacity: 1, perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 0 },
      followUps: { reminderMinutesBefore: 0, salesNotifyEmail: SALES_DESK },
    });
  });
  after(async () => {
    routing.close();
    await app.close();
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  });
  afterEach(async () => {
    await app.db('bookings').del();
    await app.db('funnel_daily_counts').del();
  });

  const prospect = (n: number | string, timeSlot: string, answers: Record<string, string>, domain?: string) => ({
    name: `Prospect ${n}`,
    email: `prospect${n}@${domain ?? `northwind-${n}.io`}`,
    company: `Northwind ${n}`,
    timeSlot,
    answers,
  });
  const enterprise = { companySize: '5000+', region: 'Europe' };
  const stored = async (id: unknown) =>
    (await app.db('bookings').where({ id }).first('host_email', 'answers', 'routing')) as {
      host_email: string;
      answers: Record<string, string>;
      routing: RoutingRecord;
    };

  it("gives 50 concurrent bookings of a slot whose route has 2 free hosts exactly two 201s, with the route's hosts, though others are free", async () => {
    const slot = at(21, 11);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => app.post('/api/demo-request', prospect(n, slot, enterprise))),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    process.stdout.write(
      `      [figures] 50 concurrent routed bookings, 2 free route hosts and 2 free others: ${created.length} × 201, ${refused.length} × 409\n`,
    );
    expect(created).to.have.length(2);
    expect(refused).to.have.length(48);
    const hosts = (await app.db('bookings').where({ time_slot: slot }).pluck('host_email')) as string[];
    expect(hosts.sort()).to.deep.equal(['anna@converge.test', 'dana@converge.test']);
    // The second booked found the first's host taken at that time: the database's "busy".
    const records = await Promise.all(created.map((answer) => stored(answer.body.id)));
    const outcomes = records.map((record) => record.routing.candidates.map((candidate) => candidate.outcome).sort());
    expect(outcomes).to.deep.include.members([
      ['chosen', 'fewer-demos-elsewhere'],
      ['busy', 'chosen'],
    ]);
  });

  it('keeps the answers and the routing record: the rule, its label and each candidate with its outcome', async () => {
    const big = await app.post(
      '/api/demo-request',
      prospect('big', at(21, 14), { companySize: '5000+', region: 'Other' }),
    );
    expect(big.status, JSON.stringify(big.body)).to.equal(201);
    const bigRow = await stored(big.body.id);
    expect(bigRow.answers).to.deep.equal({ companySize: '5000+', region: 'Other' });
    expect(bigRow.routing).to.deep.equal({
      rule: 1,
      label: 'Enterprise',
      owner: null,
      ownerLookupFailed: false,
      // Equal demos: the earlier in the team file.
      candidates: [
        { email: 'dana@converge.test', name: 'Dana', outcome: 'fewer-demos-elsewhere' },
        { email: 'anna@converge.test', name: 'Anna', outcome: 'chosen' },
      ],
    });
    expect(bigRow.host_email).to.equal('anna@converge.test');

    const europe = await app.post(
      '/api/demo-request',
      prospect('eu', at(21, 14), { companySize: '50-499', region: 'Europe' }),
    );
    expect(europe.status).to.equal(201);
    expect(europe.body.host).to.deep.equal({ name: 'Lina', title: 'Solutions Engineer' });
    expect((await stored(europe.body.id)).routing).to.deep.include({ rule: 2, label: 'region: Europe' });

    // A Berlin morning: Omar is outside his hours, Kim's calendar unreadable, Dana free.
    const america = await app.post(
      '/api/demo-request',
      prospect('us', at(22, 9), { companySize: '1-49', region: 'North America' }),
    );
    expect(america.status, JSON.stringify(america.body)).to.equal(201);
    expect((await stored(america.body.id)).routing.candidates).to.deep.equal([
      { email: 'omar@converge.test', name: 'Omar', outcome: 'outside-hours' },
      { email: 'kim@converge.test', name: 'Kim', outcome: 'calendar-unreadable' },
      { email: 'dana@converge.test', name: 'Dana', outcome: 'chosen' },
    ]);
  });

  it("offers the account's owner first when free, even outside the route; when the owner is busy, the route applies", async () => {
    const free = await app.post('/api/demo-request', prospect(1, at(22, 11), enterprise, 'owned.example'));
    expect(free.status, JSON.stringify(free.body)).to.equal(201);
    expect(free.body.host).to.deep.equal({ name: 'Lina', title: 'Solutions Engineer' });
    const freeRow = await stored(free.body.id);
    expect(freeRow.routing).to.deep.equal({
      rule: 1,
      label: 'Enterprise',
      owner: { email: 'lina@converge.test', source: 'accounts' },
      ownerLookupFailed: false,
      candidates: [
        { email: 'lina@converge.test', name: 'Lina', outcome: 'chosen' },
        { email: 'dana@converge.test', name: 'Dana', outcome: 'owner-first' },
        { email: 'anna@converge.test', name: 'Anna', outcome: 'owner-first' },
      ],
    });
    const why = (await app.db('bookings').where({ id: free.body.id }).first('host_choice')) as {
      host_choice: { rule: string };
    };
    expect(why.host_choice.rule).to.equal("the account's owner, free at the slot");

    // Thursday 14:00: Lina's own meeting. The route's fairest takes it (equal demos: the earlier in the file).
    const busy = await app.post('/api/demo-request', prospect(2, at(22, 14), enterprise, 'owned.example'));
    expect(busy.status).to.equal(201);
    expect(busy.body.host).to.deep.equal({ name: 'Anna', title: 'Solutions Engineer' });
    expect((await stored(busy.body.id)).routing.candidates).to.deep.equal([
      { email: 'lina@converge.test', name: 'Lina', outcome: 'busy' },
      { email: 'dana@converge.test', name: 'Dana', outcome: 'fewer-demos-elsewhere' },
      { email: 'anna@converge.test', name: 'Anna', outcome: 'chosen' },
    ]);

    // Thursday 11:00 again: Lina now gives a demo then; the route's hosts take the next two, then 409.
    const again = await Promise.all(
      [3, 4, 5].map((n) => app.post('/api/demo-request', prospect(n, at(22, 11), enterprise, 'owned.example'))),
    );
    expect(again.map((answer) => answer.status).sort()).to.deep.equal([201, 201, 409]);
    expect(
      (
        (await app
          .db('bookings')
          .where({ time_slot: at(22, 11) })
          .pluck('host_email')) as string[]
      ).sort(),
    ).to.deep.equal(['anna@converge.test', 'dana@converge.test', 'lina@converge.test']);
  });

  it("moves a booking within its route: its host kept when free, else the route's, never a host outside it", async () => {
    const booked = await app.post('/api/demo-request', prospect('mover', at(21, 9), enterprise));
    expect(booked.body.host).to.deep.equal({ name: 'Anna', title: 'Solutions Engineer' });
    const token = bookingToken(String(booked.body.id), TEST_LINK_SECRET);
    const move = (timeSlot: string) => app.post(`/api/bookings/${token}/reschedule`, { timeSlot });
    const kept = await move(at(21, 10));
    expect(kept.status, JSON.stringify(kept.body)).to.equal(200);
    expect(kept.body.host).to.deep.equal({ name: 'Anna', title: 'Solutions Engineer' });
    expect((await stored(booked.body.id)).routing.candidates).to.deep.include({
      email: 'dana@converge.test',
      name: 'Dana',
      outcome: 'host-kept',
    });
    // Both of the route's hosts give a demo at 13:00; Lina and Omar are free then, outside the route.
    for (const n of [1, 2]) {
      const other = await app.post('/api/demo-request', prospect(`full${n}`, at(21, 13), enterprise));
      expect(other.status).to.equal(201);
    }
    expect((await move(at(21, 13))).status).to.equal(409);
    // 15:00: Anna has a meeting of her own; Dana, of the route, takes the moved one.
    await server.putEvent(
      calendars.anna!,
      'a15',
      eventIcs('a15@test', 'DTSTART:20261021T130000Z', 'DTEND:20261021T140000Z'),
    );
    const handed = await move(at(21, 15));
    expect(handed.status).to.equal(200);
    expect(handed.body.host).to.deep.equal({ name: 'Dana', title: 'Solutions Engineer' });
    expect((await stored(booked.body.id)).routing).to.deep.include({
      rule: 1,
      candidates: [
        { email: 'dana@converge.test', name: 'Dana', outcome: 'chosen' },
        { email: 'anna@converge.test', name: 'Anna', outcome: 'busy' },
      ],
    });
  });

  it('turns a competitor away with 422 and its message: nothing stored but the funnel count', async () => {
    const answer = await app.post('/api/demo-request', {
      ...prospect('rival', at(21, 15), enterprise, 'sales.competitor.example'),
      attribution: { utm_source: 'newsletter' },
    });
    expect(answer.status).to.equal(422);
    expect(answer.body).to.deep.include({ disqualified: true, message: DISQUALIFY });
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
    expect(await app.db('deliveries').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
    expect(
      await app
        .db('funnel_daily_counts')
        .select(app.db.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'source', 'step', 'count'),
    ).to.deep.equal([{ day: '2026-10-19', source: 'other', step: 'disqualified', count: '1' }]);
  });

  it('refuses an unknown option or a missing answer with 400 beside the question, and an unrouted prospect with 422', async () => {
    const unknown = await app.post(
      '/api/demo-request',
      prospect(7, at(21, 15), { companySize: '10', region: 'Europe' }),
    );
    expect(unknown.status).to.equal(400);
    expect(unknown.body.fields).to.deep.equal({
      'answers.companySize': 'Company size must be one of: 1-49, 50-499, 500-4999, 5000+.',
    });
    const missing = await app.post('/api/demo-request', { ...prospect(8, at(21, 15), {}), answers: undefined });
    expect(missing.status).to.equal(400);
    expect(Object.keys(missing.body.fields as object).sort()).to.deep.equal(['answers.companySize', 'answers.region']);

    const unrouted = await app.post(
      '/api/demo-request',
      prospect(9, at(21, 15), { companySize: '1-49', region: 'Asia Pacific' }),
    );
    expect(unrouted.status).to.equal(422);
    expect(unrouted.body).to.deep.include({
      unrouted: true,
      message: `No one on our team takes this kind of request online yet; please write to ${SALES_DESK}.`,
    });
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
    expect(await app.db('funnel_daily_counts').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
  });

  it('answers a bot in the honeypot as a routed booking: the same 400, 422 and host, nothing stored for real', async () => {
    const trap = { website: 'https://spam.example' };
    const competitor = await app.post('/api/demo-request', {
      ...prospect('bot1', at(21, 16), enterprise, 'competitor.example'),
      ...trap,
    });
    expect(competitor.status).to.equal(422);
    expect(competitor.body).to.deep.include({ disqualified: true, message: DISQUALIFY });
    const unknown = await app.post('/api/demo-request', {
      ...prospect('bot2', at(21, 16), { companySize: 'x' }),
      ...trap,
    });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.fields).to.have.keys(['answers.companySize', 'answers.region']);
    const caught = await app.post('/api/demo-request', { ...prospect('bot3', at(21, 16), enterprise), ...trap });
    expect(caught.status).to.equal(201);
    expect(['Anna', 'Dana']).to.include((caught.body.host as { name: string }).name);
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
    expect(await app.db('funnel_daily_counts').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
  });
});

describe('booking with a team file that has neither questions nor routes', function () {
  this.timeout(60_000);
  let server: CalDavServer;
  let app: AppUnderTest;

  before(async () => {
    server = await startCalDavServer();
    const hosts = await Promise.all(
      ['Anna', 'Dana'].map(async (name) => ({
        name,
        title: 'Solutions Engineer',
        email: `${name.toLowerCase()}@converge.test`,
        calendarUrl: await server.makeCalendar(name.toLowerCase()),
        calendarUsername: CALDAV_USER,
        calendarPassword: CALDAV_PASSWORD,
      })),
    );
    const team = parseTeam(JSON.stringify({ hosts }), {});
    app = await startAppUnderTest({
      now: () => NOW,
      hostCalendars: new HostCalendars(team.hosts, {
        logger: silentLogger,
        now: () => NOW,
        bookingTimeZone: 'Europe/Berlin',
        timeoutMs: 2000,
      }),
      routing: createProspectRouting(team, { accountsFile: undefined, ownerLookup: undefined }, silentLogger, () => {}),
      bookingLimits: { slotCapacity: 1, perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 0 },
      followUps: { reminderMinutesBefore: 0 },
    });
  });
  after(async () => {
    await app.close();
    await server.stop();
  });

  it('books as before, every host a candidate, and records that no route chose them', async () => {
    const body = { name: 'Ada Park', email: 'ada@northwind.io', company: 'Northwind', timeSlot: at(21, 11) };
    const first = await app.post('/api/demo-request', body);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    expect(first.body.host).to.deep.equal({ name: 'Anna', title: 'Solutions Engineer' });
    const row = (await app.db('bookings').where({ id: first.body.id }).first('answers', 'routing')) as {
      answers: object;
      routing: RoutingRecord;
    };
    expect(row.answers).to.deep.equal({});
    expect(row.routing).to.deep.equal({
      rule: null,
      label: 'every host',
      owner: null,
      ownerLookupFailed: false,
      candidates: [
        { email: 'anna@converge.test', name: 'Anna', outcome: 'chosen' },
        { email: 'dana@converge.test', name: 'Dana', outcome: 'fewer-demos-elsewhere' },
      ],
    });
    const second = await app.post('/api/demo-request', { ...body, email: 'bo@northwind.io' });
    expect(second.body.host).to.deep.equal({ name: 'Dana', title: 'Solutions Engineer' });
    const third = await app.post('/api/demo-request', { ...body, email: 'cy@northwind.io' });
    expect(third.status).to.equal(409);
    // No question is asked: an answer is to none of them.
    const answered = await app.post('/api/demo-request', { ...body, timeSlot: at(21, 12), answers: { size: 'big' } });
    expect(answered.status).to.equal(400);
    expect(answered.body.fields).to.deep.equal({ 'answers.size': '"size" is not a question of this form.' });
  });
});
