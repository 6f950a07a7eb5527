/**
 * Issue 40's acceptance check, run as an operator runs the product: the API and worker programs (api/main.ts,
 * worker/main.ts) as child processes with SMPP_URL and SMS_FROM pointing at an SMSC started here (test/smsc.ts, this
 * repository's own), a team of one host whose calendar is in xandikos, the e-mails in an SMTP sink. It books over
 * HTTP with the consent and without, moves and cancels one booking, answers a delivery receipt only once the worker
 * has been restarted, sends STOP from a phone and books that number again; then counts what the SMSC received, each
 * number's texts word for word and in order.
 */
import { expect } from 'chai';
import { bookingToken, smsLinkCode } from '../server-shared/booking-link.js';
import type { SmsView } from '../domain/sales.js';
import { bookableSlots } from '../test/booking.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { startSmsc, type Smsc } from '../test/smsc.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, testQueuePrefix } from '../test/stack.js';
import { startTeamCalendars, type TeamCalendars } from '../test/team-calendars.js';
import { until } from '../test/until.js';
import { OPTED_OUT_TEXT } from '../worker/sms/inbound.js';
import { freePort } from './dev-services/ports.js';
import { spawnProgram, type Spawned } from './dev-services/testing/spawned.js';

const ADMIN_TOKEN = 'sms-acceptance-token-0123456789abcdefghij';
/** The prospect who books, moves and cancels, on New York's clock; the one without consent; the one who says STOP. */
const MOVER = { phone: '+1 212 555 0142', e164: '+12125550142', zone: 'America/New_York' };
const SILENT = { phone: '+33 6 12 34 56 02', e164: '+33612345602' };
const STOPPER = { phone: '+44 7911 123456', e164: '+447911123456', zone: 'Europe/London' };

/** A text's time as the prospect reads it: "Tue 1 Dec, 09:00 GMT-5" (docs/sms.md). */
function onTheirClock(iso: string, zone: string): string {
  const part = (type: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(new Date(iso))
      .find((one) => one.type === type)?.value;
  return `${part('weekday')} ${part('day')} ${part('month')}, ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

describe('texts as an operator runs them (issue 40 acceptance)', function () {
  this.timeout(60_000);
  // One host: each booking has a slot of its own, and a move goes to a slot left free.
  const [first, second, third, fourth, fifth] = bookableSlots(5).map((slot) => slot.iso) as [
    string,
    string,
    string,
    string,
    string,
  ];
  let smsc: Smsc;
  let smtp: SmtpSink;
  let team: TeamCalendars;
  let database: TestDatabase;
  let queuePrefix: string;
  let env: Record<string, string>;
  let api: Spawned | undefined;
  let worker: Spawned | undefined;
  let url: string;

  const startWorkerProgram = async () => {
    worker = spawnProgram('worker/main.ts', env);
    await worker.waitForLog((line) => line.msg === 'bound to the SMSC', 40_000);
  };

  before(async function () {
    this.timeout(50_000);
    [smsc, smtp, team, database] = await Promise.all([
      startSmsc(),
      startSmtpSink(),
      startTeamCalendars({ hosts: ['Dana'], hostName: () => 'Dana Scully' }),
      createTestDatabase(),
    ]);
    queuePrefix = testQueuePrefix();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      SMTP_URL: smtp.url,
      SMPP_URL: smsc.url,
      SMS_FROM: 'Converge',
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      PUBLIC_URL: url,
      TEAM_FILE: team.teamFile,
      ADMIN_TOKEN,
      DEMO_REQUESTS_PER_HOUR: '0',
    };
    api = spawnProgram('api/main.ts', { ...env, PORT: String(port), WEB_ROOT: '/nonexistent' });
    await Promise.all([api.waitForLog((line) => line.msg === 'api listening', 40_000), startWorkerProgram()]);
  });
  after(async () => {
    for (const program of [api, worker]) if (program?.isRunning()) program.child.kill('SIGTERM');
    await Promise.all([api?.exited, worker?.exited]);
    await Promise.all([smsc?.stop(), smtp?.close(), team?.stop(), database?.drop(), clearQueuePrefix(queuePrefix)]);
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const requestDemo = async (email: string, timeSlot: string, phone: string, consent: boolean, zone?: string) => {
    const made = await post('/api/demo-request', {
      name: 'Ada Lovelace',
      email,
      company: 'Analytical Engines',
      timeSlot,
      phone,
      ...(consent ? { smsConsent: true } : {}),
      ...(zone ? { visitorTimeZone: zone } : {}),
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    return String(made.body.id);
  };
  const sms = async (id: string): Promise<SmsView | null> => {
    const response = await fetch(`${url}/api/admin/bookings/${id}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).to.equal(200);
    return ((await response.json()) as { sms: SmsView | null }).sms;
  };
  const textsTo = (number: string) => smsc.received.filter((text) => text.to === number).map((text) => text.text);
  const received = (number: string, count: number) =>
    until(async () => (textsTo(number).length >= count ? textsTo(number) : undefined), `${count} texts to ${number}`);
  /** The e-mail of `kind` about booking `id` sent: its texts, stored by the same statement, had their chance. */
  const emailSent = (id: string, kind: string) =>
    until(async () => {
      const [row] = await database.db('deliveries').where({ booking_id: id, kind }).whereNotNull('sent_at');
      return row as unknown;
    }, `the ${kind} e-mail of ${id} sent`);
  const smsRows = (id: string) =>
    database.db('deliveries').where({ booking_id: id, channel: 'sms' }).orderBy('created_at') as Promise<
      { kind: string; sent_at: Date | null; dropped_at: Date | null; sms_message_id: string | null }[]
    >;
  const link = (id: string) => `${url}/m/${smsLinkCode(id, TEST_LINK_SECRET)}`;

  const mover = { id: '' };
  const stopper = { id: '' };

  it('texts the confirmation to the number that consented, and nothing to the one that did not', async () => {
    mover.id = await requestDemo('ada@analytical-engines.com', first, MOVER.phone, true, MOVER.zone);
    const silent = await requestDemo('alan@analytical-engines.com', second, SILENT.phone, false);
    expect(await received(MOVER.e164, 1)).to.deep.equal([
      `Converge demo with Dana booked: ${onTheirClock(first, MOVER.zone)}. Manage: ${link(mover.id)}`,
    ]);
    await emailSent(silent, 'confirmation');
    expect(await smsRows(silent)).to.deep.equal([]);
    expect(await sms(silent)).to.equal(null);
  });

  it('records a receipt the SMSC sends once the worker has been restarted', async () => {
    const row = await until(
      async () => (await smsRows(mover.id)).find((one) => one.kind === 'sms-confirmation' && one.sms_message_id),
      'the message id recorded',
    );
    worker!.child.kill('SIGTERM');
    await worker!.exited;
    await until(async () => (smsc.bound() === 0 ? true : undefined), 'no worker bound while it restarts');
    try {
      await smsc.sendReceipt(row.sms_message_id!);
      expect.fail('a receipt went with no worker bound');
    } catch (err) {
      expect((err as Error).message).to.contain('no bound session');
    }
    await startWorkerProgram();
    expect(await smsc.sendReceipt(row.sms_message_id!), 'the receipt taken').to.equal(0);
    const view = await sms(mover.id);
    expect(view).to.include({ phone: MOVER.e164, delivered: 1, failed: 0 });
    expect(view!.texts[0]).to.include({ kind: 'sms-confirmation', state: 'delivered' });
  });

  it('texts the move and the cancel, the cancel last', async () => {
    const token = bookingToken(mover.id, TEST_LINK_SECRET);
    expect((await post(`/api/bookings/${token}/reschedule`, { timeSlot: third })).status).to.equal(200);
    await received(MOVER.e164, 2);
    expect((await post(`/api/bookings/${token}/cancel`, {})).status).to.equal(200);
    expect(await received(MOVER.e164, 3)).to.deep.equal([
      `Converge demo with Dana booked: ${onTheirClock(first, MOVER.zone)}. Manage: ${link(mover.id)}`,
      `Converge demo with Dana updated: ${onTheirClock(third, MOVER.zone)}. Manage: ${link(mover.id)}`,
      `Converge demo of ${onTheirClock(third, MOVER.zone)} cancelled. Details: ${link(mover.id)}`,
    ]);
    // Nothing is left to send to that phone: the reminders the changes overtook are dropped.
    const rows = await until(async () => {
      const all = await smsRows(mover.id);
      return all.find((one) => one.kind === 'sms-cancellation')?.sent_at ? all : undefined;
    }, 'the cancellation marked sent');
    const left = rows.filter((one) => one.sent_at === null);
    expect(left.map((one) => one.kind)).to.deep.equal(['sms-reminder', 'sms-reminder']);
    for (const reminder of left) expect(reminder.dropped_at).to.be.instanceOf(Date);
  });

  it('confirms a STOP once and texts that number nothing more, though it books again with the consent', async () => {
    stopper.id = await requestDemo('grace@hopper.example', fourth, STOPPER.phone, true, STOPPER.zone);
    await received(STOPPER.e164, 1);
    expect(await smsc.sendMessage(STOPPER.e164, 'Stop')).to.equal(0);
    await received(STOPPER.e164, 2);
    expect(await smsc.sendMessage(STOPPER.e164, 'STOP'), 'a second STOP taken').to.equal(0);
    // The opted-out number books again with the consent ticked, and its first booking moves.
    const again = await requestDemo('grace@hopper.example', fifth, STOPPER.phone, true, STOPPER.zone);
    const token = bookingToken(stopper.id, TEST_LINK_SECRET);
    expect((await post(`/api/bookings/${token}/reschedule`, { timeSlot: first })).status).to.equal(200);
    await Promise.all([emailSent(again, 'confirmation'), emailSent(stopper.id, 'update')]);
    expect(await smsRows(again), 'no text stored for the new booking').to.deep.equal([]);
    const [confirmation, reminder, ...more] = await smsRows(stopper.id).then((rows) =>
      [...rows].sort((a, b) => a.kind.localeCompare(b.kind)),
    );
    expect(more, 'no update stored for the move').to.deep.equal([]);
    expect(confirmation).to.include({ kind: 'sms-confirmation' });
    expect(reminder).to.include({ kind: 'sms-reminder', sent_at: null });
    expect(reminder!.dropped_at, 'the reminder dropped by the STOP').to.be.instanceOf(Date);
    expect((await sms(stopper.id))?.optedOutAt).to.be.a('string');
  });

  it('counts what the SMSC received: each number’s texts, word for word, in order', async () => {
    // Every e-mail of the bookings has gone; a text stored beside one would have had time to reach the SMSC.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const byNumber: Record<string, string[]> = {};
    for (const text of smsc.received) (byNumber[text.to] ??= []).push(text.text);
    expect(byNumber).to.deep.equal({
      [MOVER.e164]: [
        `Converge demo with Dana booked: ${onTheirClock(first, MOVER.zone)}. Manage: ${link(mover.id)}`,
        `Converge demo with Dana updated: ${onTheirClock(third, MOVER.zone)}. Manage: ${link(mover.id)}`,
        `Converge demo of ${onTheirClock(third, MOVER.zone)} cancelled. Details: ${link(mover.id)}`,
      ],
      [STOPPER.e164]: [
        `Converge demo with Dana booked: ${onTheirClock(fourth, STOPPER.zone)}. Manage: ${link(stopper.id)}`,
        OPTED_OUT_TEXT,
      ],
    });
    expect(new Set(smsc.received.map((text) => text.from))).to.deep.equal(new Set(['Converge']));
  });
});
