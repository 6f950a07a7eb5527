/**
 * Issue 38's acceptance check, run as an operator runs the product: the API and worker programs (api/main.ts,
 * worker/main.ts) as child processes, with a team file of questions and routes and an accounts file written here,
 * the hosts' calendars in xandikos and the e-mails in an SMTP sink. It books over HTTP as a big company, a region, an
 * owned domain (its owner free, then busy), a competitor and an unknown answer, and reads each decision back from
 * the admin API and the confirmations.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { availableSlots, calendarDayOf, slotEnd } from '../domain/booking.js';
import type { RoutingRecord } from '../domain/routing.js';
import { eventIcs } from '../test/caldav-server.js';
import { hostEmail, startTeamCalendars, type TeamCalendars } from '../test/team-calendars.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../test/smtp-sink.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, testQueuePrefix } from '../test/stack.js';
import { freePort } from './dev-services/ports.js';
import { spawnProgram, type Spawned } from './dev-services/testing/spawned.js';

const ADMIN_TOKEN = 'routing-acceptance-token-0123456789abcdef';
const COMPETITOR_WORDS = 'Thank you! Our team will reach out by e-mail.';
const HOSTS = ['Dana', 'Anna', 'Erik', 'Olga'];
const SALES_DESK = 'sales@converge.test';
/** An instant as iCalendar's UTC form (20261021T070000Z). */
const icsTime = (instant: Date) => instant.toISOString().replace(/[-:]/g, '').replace('.000', '');

/** Four slots of one weekday a few days ahead, in the booking zone (Europe/Berlin). */
function slotsOfADay(): string[] {
  const now = new Date();
  for (let day = 2; day < 14; day += 1) {
    const slots = availableSlots(
      calendarDayOf(new Date(now.getTime() + day * 86_400_000), 'Europe/Berlin'),
      now,
      'Europe/Berlin',
    );
    if (slots.length >= 8) return slots.slice(2, 6).map((slot) => slot.iso);
  }
  throw new Error('no weekday with slots in the next two weeks');
}

interface AdminBooking {
  host: { name: string; email: string } | null;
  answers: Record<string, string> | null;
  labelledAnswers: { id: string; label: string; answer: string }[];
  routing: RoutingRecord | null;
}

describe('routing as an operator runs it (issue 38 acceptance)', function () {
  this.timeout(60_000);
  const [bigSlot, europeSlot, ownerFreeSlot, ownerBusySlot] = slotsOfADay() as [string, string, string, string];
  let team: TeamCalendars;
  let smtp: SmtpSink;
  let database: TestDatabase;
  let queuePrefix: string;
  let api: Spawned | undefined;
  let worker: Spawned | undefined;
  let url: string;

  before(async function () {
    this.timeout(50_000);
    [team, smtp, database] = await Promise.all([
      startTeamCalendars({
        hosts: HOSTS,
        hostName: (name) => `${name} Host`,
        file: {
          questions: [
            { id: 'companySize', label: 'Company size', options: ['1-49', '50-499', '500-4999', '5000+'] },
            { id: 'region', label: 'Region', options: ['Europe', 'North America', 'Asia Pacific', 'Other'] },
          ],
          routes: [
            { when: { emailDomain: ['competitor.example'] }, disqualify: COMPETITOR_WORDS },
            { label: 'Enterprise', when: { companySize: ['5000+'] }, hosts: [hostEmail('Dana'), hostEmail('Anna')] },
            { label: 'Europe', when: { region: ['Europe'] }, hosts: [hostEmail('Erik')] },
            { hosts: '*' },
          ],
        },
      }),
      startSmtpSink(),
      createTestDatabase(),
    ]);
    queuePrefix = testQueuePrefix();
    const busy = async (name: string, slot: string) =>
      team.caldav.putEvent(
        team.calendars[name.toLowerCase()]!,
        `busy-${slot.slice(11, 13)}`,
        eventIcs(
          `busy-${name}-${slot}@test`,
          `DTSTART:${icsTime(new Date(slot))}`,
          `DTEND:${icsTime(slotEnd(new Date(slot)))}`,
        ),
      );
    // Anna is busy at the big company's slot (so Dana takes it), the owner Olga at the slot she cannot take.
    await busy('Anna', bigSlot);
    await busy('Olga', ownerBusySlot);
    const accountsFile = path.join(team.folder, 'accounts.csv');
    await writeFile(
      accountsFile,
      `domain,owner\nowned.example,${hostEmail('Olga')}\nother.example,nobody@elsewhere.test\n`,
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      SMTP_URL: smtp.url,
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      PUBLIC_URL: url,
      TEAM_FILE: team.teamFile,
      ACCOUNTS_FILE: accountsFile,
      ADMIN_TOKEN,
      DATA_DIR: path.join(team.folder, 'data'),
      // Six requests from one address in a minute: the hourly limit per network has tests of its own.
      DEMO_REQUESTS_PER_HOUR: '0',
      SALES_NOTIFY_EMAIL: SALES_DESK,
    };
    api = spawnProgram('api/main.ts', { ...env, PORT: String(port), WEB_ROOT: '/nonexistent' });
    worker = spawnProgram('worker/main.ts', env);
    await Promise.all([
      api.waitForLog((line) => line.msg === 'api listening', 40_000),
      worker.waitForLog((line) => line.msg === 'worker ready', 40_000),
    ]);
  });
  after(async () => {
    for (const program of [api, worker]) if (program?.isRunning()) program.child.kill('SIGTERM');
    await Promise.all([api?.exited, worker?.exited]);
    await Promise.all([team?.stop(), smtp?.close(), database?.drop(), clearQueuePrefix(queuePrefix)]);
  });

  let made = 0;
  async function requestDemo(email: string, timeSlot: string, answers: Record<string, string>) {
    made += 1;
    const response = await fetch(`${url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Prospect ${made}`, email, company: `Company ${made}`, timeSlot, answers }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  async function adminBooking(id: unknown): Promise<AdminBooking> {
    const response = await fetch(`${url}/api/admin/bookings/${String(id)}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).to.equal(200);
    return (await response.json()) as AdminBooking;
  }
  /** The first e-mail to `email` (about `company`, when given). */
  async function confirmationTo(email: string, company?: string): Promise<ReceivedMail> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = smtp.messages.find(
        (message) =>
          message.envelopeTo.includes(email) && (company === undefined || message.parsed.subject?.includes(company)),
      );
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no e-mail to ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const outcomes = (routing: RoutingRecord | null) =>
    Object.fromEntries((routing?.candidates ?? []).map((c) => [c.email, c.outcome]));
  const bookingCount = async () =>
    Number(((await database.db('bookings').count({ n: '*' }).first()) as { n: string }).n);

  it("books a big company with the enterprise route's free host and explains it", async () => {
    const made = await requestDemo('cio@bigbank.example', bigSlot, { companySize: '5000+', region: 'Other' });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const booking = await adminBooking(made.body.id);
    expect(booking.host?.email).to.equal(hostEmail('Dana'));
    expect(booking.answers).to.deep.equal({ companySize: '5000+', region: 'Other' });
    expect(booking.labelledAnswers.map(({ label, answer }) => `${label}: ${answer}`)).to.deep.equal([
      'Company size: 5000+',
      'Region: Other',
    ]);
    expect(booking.routing).to.include({ rule: 1, label: 'Enterprise', owner: null, ownerLookupFailed: false });
    expect(outcomes(booking.routing)).to.deep.equal({ [hostEmail('Dana')]: 'chosen', [hostEmail('Anna')]: 'busy' });
    expect((await confirmationTo('cio@bigbank.example')).parsed.text).to.contain('You will meet Dana Host');
    // The sales desk reads the answers by their questions' labels, and the route.
    const notice = (await confirmationTo(SALES_DESK, 'Company 1')).parsed.text ?? '';
    expect(notice)
      .to.contain('Route: 2 (Enterprise)')
      .and.contain('Their answers:\n  Company size: 5000+\n  Region: Other\n');
  });

  it("books a European prospect with the region's host", async () => {
    const made = await requestDemo('lead@startup.example', europeSlot, { companySize: '1-49', region: 'Europe' });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const booking = await adminBooking(made.body.id);
    expect(booking.host?.email).to.equal(hostEmail('Erik'));
    expect(booking.routing).to.include({ rule: 2, label: 'Europe', owner: null });
    expect(outcomes(booking.routing)).to.deep.equal({ [hostEmail('Erik')]: 'chosen' });
    expect((await confirmationTo('lead@startup.example')).parsed.text).to.contain('You will meet Erik Host');
  });

  it("gives an owned domain its owner when free, though the answers' route is another", async () => {
    const made = await requestDemo('buyer@eu.owned.example', ownerFreeSlot, { companySize: '1-49', region: 'Europe' });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const booking = await adminBooking(made.body.id);
    expect(booking.host?.email).to.equal(hostEmail('Olga'));
    expect(booking.routing).to.deep.include({ rule: 2, owner: { email: hostEmail('Olga'), source: 'accounts' } });
    expect(outcomes(booking.routing)).to.deep.equal({
      [hostEmail('Olga')]: 'chosen',
      [hostEmail('Erik')]: 'owner-first',
    });
    expect((await confirmationTo('buyer@eu.owned.example')).parsed.text).to.contain('You will meet Olga Host');
  });

  it('gives an owned domain the route when its owner is busy in their calendar', async () => {
    const made = await requestDemo('cfo@owned.example', ownerBusySlot, { companySize: '5000+', region: 'Europe' });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const booking = await adminBooking(made.body.id);
    expect([hostEmail('Dana'), hostEmail('Anna')]).to.include(booking.host?.email);
    expect(booking.routing).to.deep.include({
      rule: 1,
      label: 'Enterprise',
      owner: { email: hostEmail('Olga'), source: 'accounts' },
    });
    expect(outcomes(booking.routing)[hostEmail('Olga')]).to.equal('busy');
    expect(outcomes(booking.routing)[booking.host!.email]).to.equal('chosen');
    const host = booking.host?.email === hostEmail('Dana') ? 'Dana' : 'Anna';
    expect((await confirmationTo('cfo@owned.example')).parsed.text).to.contain(`You will meet ${host} Host`);
  });

  it("turns a competitor away with the route's words and stores nothing", async () => {
    const before = await bookingCount();
    const refused = await requestDemo('analyst@eu.competitor.example', bigSlot, {
      companySize: '5000+',
      region: 'Europe',
    });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ disqualified: true, message: COMPETITOR_WORDS });
    expect(await bookingCount()).to.equal(before);
  });

  it('refuses an answer the question does not offer, beside that question', async () => {
    const before = await bookingCount();
    const refused = await requestDemo('someone@acme.example', europeSlot, { companySize: 'huge', region: 'Europe' });
    expect(refused.status).to.equal(400);
    expect(refused.body.fields)
      .to.have.property('answers.companySize')
      .that.matches(/^Company size must be one of: /);
    expect(await bookingCount()).to.equal(before);
  });
});
