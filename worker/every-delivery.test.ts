/**
 * Every delivery a booking causes, on every channel at once, counted where it lands: a booking, a move that hands the
 * demo to another host, and a cancellation, against real PostgreSQL, Redis, an SMTP server, a CalDAV server
 * (xandikos) and a webhook receiver that verifies signatures. Each receiver holds exactly what the outbox says it sent,
 * and every row of the booking ends sent or dropped, none pending, failed or sent twice.
 */
import { expect } from 'chai';
import { bookingToken } from '../server-shared/booking-link.js';
import { newWebhookSecret } from '../server-shared/webhooks.js';
import { bookableSlots, icsProperties } from '../test/booking.js';
import { eventIcs, storedDemoEvent, type CalDavServer } from '../test/caldav-server.js';
import { startTeamCalendars, type TeamCalendars } from '../test/team-calendars.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../test/stack.js';
import { until } from '../test/until.js';
import { startReceiver, type Receiver } from '../test/webhook-receiver.js';

const SALES = 'sales@converge.test';
const PROSPECT = 'grace@hopper-systems.com';
const compact = (iso: string) => iso.replace(/[-:]/g, '').replace('.000Z', 'Z');

interface Row {
  channel: string;
  kind: string;
  recipient: string | null;
  sequence: number | null;
  sent_at: Date | null;
  dropped_at: Date | null;
  failed_at: Date | null;
  attempts: number;
}

describe('every delivery of a booking, its move and its cancellation, counted at its receiver', function () {
  this.timeout(120_000);
  let caldav: CalDavServer;
  let receiver: Receiver;
  let stack: Stack;
  let team: TeamCalendars;
  let ana: string;
  let ben: string;
  const [first, second] = bookableSlots(2);

  before(async () => {
    team = await startTeamCalendars({ hosts: ['Ana', 'Ben'] });
    caldav = team.caldav;
    ana = team.calendars.ana!;
    ben = team.calendars.ben!;
    receiver = await startReceiver(newWebhookSecret());
    stack = await startStack({
      env: {
        TEAM_FILE: team.teamFile,
        SALES_NOTIFY_EMAIL: SALES,
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: receiver.secret,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      workerOptions: { sweepEveryMs: 500, sweepGraceMs: 2000 },
    });
  });
  after(async () => {
    await stack?.close();
    await receiver?.close();
    await team?.stop();
  });

  const post = async (url: string, body: unknown) => {
    const answer = await fetch(`${stack.url}${url}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const rowsOf = (id: string): Promise<Row[]> =>
    stack.db('deliveries').where({ booking_id: id }).orderBy(['sequence', 'kind', 'recipient']);
  /** Waits until none of the booking's rows but a reminder not yet due is still to go. */
  const drained = (id: string) =>
    until(async () => {
      const rows = await rowsOf(id);
      const open = rows.filter((row) => !row.sent_at && !row.dropped_at && !row.failed_at && row.kind !== 'reminder');
      return open.length === 0 ? rows : undefined;
    }, 'the outbox drained');

  it('sends each once, in order, to the prospect, the sales desk, each host (mail and calendar) and the endpoint', async () => {
    const booked = await post('/api/bookings', {
      name: 'Grace Hopper',
      email: PROSPECT,
      company: 'Hopper Systems',
      timeSlot: first!.iso,
    });
    expect(booked.status).to.equal(201);
    const id = String(booked.body.id);
    const token = bookingToken(id, TEST_LINK_SECRET);
    await drained(id);
    expect(icsProperties((await storedDemoEvent(ana, id))!)).to.include({
      DTSTART: compact(first!.iso),
      SEQUENCE: '0',
    });

    // Ana busy at the new time: Ben takes the demo.
    const end = new Date(new Date(second!.iso).getTime() + 3_600_000).toISOString();
    await caldav.putEvent(
      ana,
      'busy',
      eventIcs('busy@test', `DTSTART:${compact(second!.iso)}`, `DTEND:${compact(end)}`),
    );
    const moved = await post(`/api/bookings/${token}/reschedule`, { timeSlot: second!.iso });
    expect(moved.body.host).to.deep.include({ name: 'Ben' });
    await drained(id);
    expect(await storedDemoEvent(ana, id)).to.equal(undefined);
    expect(icsProperties((await storedDemoEvent(ben, id))!)).to.include({
      DTSTART: compact(second!.iso),
      SEQUENCE: '1',
    });

    expect((await post(`/api/bookings/${token}/cancel`, {})).status).to.equal(200);
    const rows = await drained(id);
    expect(await storedDemoEvent(ben, id)).to.equal(undefined);

    // The outbox: every row ended, sent on its first try or dropped (the reminders, by the changes after them).
    const ended = rows.map(
      (row) =>
        `${row.channel} ${row.kind} ${row.recipient ?? 'prospect'} ${row.sequence ?? '-'} ${
          row.sent_at ? `sent after ${row.attempts} try` : row.dropped_at ? 'dropped' : 'failed'
        }`,
    );
    expect(ended).to.have.members([
      'email confirmation prospect 0 sent after 1 try',
      'email reminder prospect 0 dropped',
      `email sales-notice ${SALES} 0 sent after 1 try`,
      'email host-invitation ana@converge.test 0 sent after 1 try',
      'calendar host-calendar ana@converge.test 0 sent after 1 try',
      'email update prospect 1 sent after 1 try',
      'email reminder prospect 1 dropped',
      `email sales-notice ${SALES} 1 sent after 1 try`,
      'email host-invitation ben@converge.test 1 sent after 1 try',
      'calendar host-calendar ben@converge.test 1 sent after 1 try',
      'email host-cancellation ana@converge.test 1 sent after 1 try',
      'calendar host-calendar ana@converge.test 1 sent after 1 try',
      'email cancellation prospect 2 sent after 1 try',
      `email sales-notice ${SALES} 2 sent after 1 try`,
      'email host-cancellation ben@converge.test 2 sent after 1 try',
      'calendar host-calendar ben@converge.test 2 sent after 1 try',
      'webhook webhook prospect - sent after 1 try',
      'webhook webhook prospect - sent after 1 try',
      'webhook webhook prospect - sent after 1 try',
    ]);

    // The SMTP server holds exactly the e-mails sent, each once, with the event's method and sequence.
    const sentEmails = rows.filter((row) => row.channel === 'email' && row.sent_at).length;
    await until(async () => (stack.smtp.messages.length >= sentEmails ? true : undefined), 'the e-mails');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mails = stack.smtp.messages.map((mail) => {
      // The sales desk's event is an attachment (base64 in the raw message): read from the parsed parts.
      const part = mail.parsed.attachments.find((attachment) => attachment.mimeType.startsWith('text/calendar'));
      const content = part?.content ?? '';
      const ics = icsProperties(typeof content === 'string' ? content : new TextDecoder().decode(content));
      return `${mail.envelopeTo.join()} ${/method=(\w+)/i.exec(mail.raw)?.[1] ?? '-'} ${ics.SEQUENCE ?? '-'}`;
    });
    expect(mails).to.have.members([
      `${PROSPECT} REQUEST 0`,
      `${SALES} PUBLISH 0`,
      'ana@converge.test REQUEST 0',
      `${PROSPECT} REQUEST 1`,
      `${SALES} PUBLISH 1`,
      'ben@converge.test REQUEST 1',
      'ana@converge.test CANCEL 1',
      `${PROSPECT} CANCEL 2`,
      `${SALES} PUBLISH 2`,
      'ben@converge.test CANCEL 2',
    ]);

    // The endpoint took the three events once each, in the order of the changes, each verified.
    expect(receiver.received.every((request) => request.event !== null)).to.equal(true);
    expect(receiver.taken().map((event) => event.type)).to.deep.equal([
      'booking.created',
      'booking.rescheduled',
      'booking.cancelled',
    ]);
  });
});
