import { expect } from 'chai';
import ICAL from 'ical.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { bookableSlots, icsOrganizer, icsProperties } from '../../test/booking.js';
import { eventIcs, storedDemoEvent, type CalDavServer } from '../../test/caldav-server.js';
import { startTeamCalendars, type TeamCalendars } from '../../test/team-calendars.js';
import { expectDocumented } from '../../test/documented.js';
import type { ReceivedMail } from '../../test/smtp-sink.js';
import { silentLogger, startStack, TEST_LINK_SECRET, TEST_REDIS_URL, type Stack } from '../../test/stack.js';
import { loadApiConfig } from '../config.js';
import { startApiServer } from '../server.js';
import { until } from '../../test/until.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { newWebhookSecret, webhookEventSchema, type WebhookEventType } from '../../server-shared/webhooks.js';
import type { BookingDetail, BookingSummary } from '../../domain/sales.js';

const TOKEN = 'ops-secret-token-of-at-least-32-characters';
const SALES = 'sales@converge.test';
const compact = (iso: string) => iso.replace(/[-:]/g, '').replace('.000Z', 'Z');
const hourAfter = (iso: string) => compact(new Date(new Date(iso).getTime() + 3_600_000).toISOString());
const uidOf = (id: string) => `demo-${id}@converge.localhost`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the host's answer in their own calendar (issue 39)", function () {
  this.timeout(120_000);
  let caldav: CalDavServer;
  let receiver: Receiver;
  let stack: Stack;
  let team: TeamCalendars;
  let calendars: Readonly<Record<string, string>>;
  const slots = bookableSlots(10);
  const valid = addFormats.default(new Ajv2020({ strict: false }));

  before(async () => {
    team = await startTeamCalendars({ hosts: ['Ana', 'Ben', 'Cy'] });
    ({ caldav, calendars } = team);
    receiver = await startReceiver(newWebhookSecret());
    stack = await startStack({
      env: {
        TEAM_FILE: team.teamFile,
        ADMIN_TOKEN: TOKEN,
        SALES_NOTIFY_EMAIL: SALES,
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: receiver.secret,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // A short poll, so that the test waits seconds for what takes up to 30 s by default.
        HOST_CALENDAR_POLL_SECONDS: '1',
      },
      workerOptions: { sweepEveryMs: 500, sweepGraceMs: 2000 },
    });
  });
  after(async () => {
    await stack?.close();
    await receiver?.close();
    await team?.stop();
  });

  const book = async (email: string, timeSlot: string) => {
    const answer = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Grace Hopper', email, company: 'Hopper Systems', timeSlot }),
    });
    expect(answer.status, await answer.clone().text()).to.equal(201);
    return String(((await answer.json()) as { id: string }).id);
  };
  const reschedule = (id: string, timeSlot: string) =>
    fetch(`${stack.url}/api/bookings/${bookingToken(id, TEST_LINK_SECRET)}/reschedule`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ timeSlot }),
    });
  const detail = async (id: string) =>
    (await (
      await fetch(`${stack.url}/api/admin/bookings/${id}`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).json()) as BookingDetail;
  const row = async (id: string) =>
    (await stack
      .db('bookings')
      .where({ id })
      .first('host_email', 'sequence', 'time_slot', 'status', 'needs_new_time_at', 'needs_new_time_reason')) as {
      host_email: string | null;
      sequence: number;
      time_slot: Date;
      status: string;
      needs_new_time_at: Date | null;
      needs_new_time_reason: string | null;
    };
  const mailsTo = (address: string) => stack.smtp.messages.filter((mail) => mail.envelopeTo.includes(address));
  /** The e-mail's iCalendar part as a calendar program reads it: its METHOD and its one event's UID, SEQUENCE, start. */
  const calendarIn = (mail: ReceivedMail) => {
    const part = mail.parsed.attachments.find((attachment) => attachment.mimeType === 'text/calendar');
    if (!part) throw new Error(`no text/calendar part in "${mail.parsed.subject ?? ''}"`);
    const calendar = new ICAL.Component(
      ICAL.parse(typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content)),
    );
    const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
    return {
      method: calendar.getFirstPropertyValue('method'),
      uid: event.uid,
      sequence: event.sequence,
      start: event.startDate.toJSDate().toISOString(),
      status: event.component.getFirstPropertyValue('status'),
    };
  };
  const eventsOf = (id: string, type?: WebhookEventType) =>
    receiver.taken().filter((taken) => taken.data.booking.id === id && (!type || taken.type === type));
  const inCalendar = (host: string, id: string) =>
    until(() => storedDemoEvent(calendars[host]!, id), `the event in ${host}'s calendar`);
  const outOf = (host: string, id: string) =>
    until(
      async () => ((await storedDemoEvent(calendars[host]!, id)) === undefined ? true : undefined),
      `the event out of ${host}'s calendar`,
    );
  const hostedBy = (id: string, host: string | null) =>
    until(async () => ((await row(id)).host_email === host ? true : undefined), `the booking with ${host}`, 20_000);

  it('a host deleting the event hands the demo to a free host of the route within the poll, tells the prospect who they meet now (same UID, SEQUENCE up), both hosts and the desk, raises booking.reassigned with the reason, and never gives that host the slot again', async () => {
    const slot = slots[0]!.iso;
    const prospect = 'grace@hopper-systems.com';
    const id = await book(prospect, slot);
    expect((await row(id)).host_email).to.equal('ana@converge.test');
    await inCalendar('ana', id);

    const deletedAt = Date.now();
    await caldav.deleteEvent(calendars.ana!, uidOf(id));
    await hostedBy(id, 'ben@converge.test');
    // Within a few polls of one second (by default within the 30 s poll, under the two minutes asked).
    expect(Date.now() - deletedAt).to.be.below(10_000);

    const inBens = icsProperties(await inCalendar('ben', id));
    expect(inBens).to.include({ DTSTART: compact(slot), SEQUENCE: '1', UID: uidOf(id) });
    const update = await until(
      async () => mailsTo(prospect).find((mail) => /is now with Ben/.test(mail.parsed.subject ?? '')),
      "the prospect's update",
    );
    expect(icsProperties(update.raw)).to.include({ METHOD: 'REQUEST', SEQUENCE: '1', UID: uidOf(id) });
    expect(icsOrganizer(update.raw)).to.contain('ben@converge.test');
    await until(
      async () => mailsTo('ana@converge.test').find((mail) => /method=CANCEL/i.test(mail.raw)),
      "Ana's withdrawal",
    );
    await until(
      async () => mailsTo('ben@converge.test').find((mail) => /method=REQUEST/i.test(mail.raw)),
      "Ben's invitation",
    );
    await until(
      async () => mailsTo(SALES).find((mail) => /^Demo handed to another host/.test(mail.parsed.subject ?? '')),
      "the sales desk's notice",
    );
    const event = await until(async () => eventsOf(id, 'booking.reassigned')[0], 'booking.reassigned');
    expect(event.data.reason).to.equal('host-deleted');
    expect(event.data.previousHost).to.deep.include({ email: 'ana@converge.test' });
    expect(event.data.host).to.deep.include({ email: 'ben@converge.test' });
    const check = valid.compile(webhookEventSchema('booking.reassigned'));
    expect(check(event), JSON.stringify(check.errors)).to.equal(true);
    const shown = await detail(id);
    expectDocumented('/api/admin/bookings/{id}', 'get', 200, shown);
    expect(shown.history.map((entry) => entry.what)).to.deep.equal(['booked', 'reassigned']);
    expect(shown.needsNewTime).to.equal(null);

    // Ana is free by her calendar and has the fewest demos, and earlier in the file than Cy: still, she gave this
    // slot up, so the next prospect at it meets Cy.
    const next = await book('ada@lovelace-engines.com', slot);
    expect((await row(next)).host_email).to.equal('cy@converge.test');
    await inCalendar('cy', next);
    expect(eventsOf(id, 'booking.reassigned')).to.have.length(1);
  });

  it("a host declining the event (their ATTENDEE's PARTSTAT=DECLINED) hands it on the same way, with the reason host-declined", async () => {
    const slot = slots[1]!.iso;
    const prospect = 'alan@turing-machines.com';
    const id = await book(prospect, slot);
    const host = (await row(id)).host_email!;
    const name = host.split('@')[0]!;
    const stored = await inCalendar(name, id);
    // As a calendar program writes the host's answer: their own attendee line, PARTSTAT changed.
    const unfolded = stored.replace(/\r\n[ \t]/g, '');
    const declined = unfolded
      .split('\r\n')
      .map((line) =>
        line.startsWith('ATTENDEE') && line.toLowerCase().includes(`mailto:${host}`)
          ? line.replace(/PARTSTAT=[A-Z-]+/, 'PARTSTAT=DECLINED')
          : line,
      )
      .join('\r\n');
    expect(declined).to.contain('PARTSTAT=DECLINED');
    await caldav.putEvent(calendars[name]!, uidOf(id), declined);

    const event = await until(async () => eventsOf(id, 'booking.reassigned')[0], 'booking.reassigned', 20_000);
    expect(event.data.reason).to.equal('host-declined');
    expect(event.data.previousHost).to.deep.include({ email: host });
    const now = await row(id);
    expect(now.host_email).to.not.equal(host);
    expect(now.sequence).to.equal(1);
    await inCalendar(now.host_email!.split('@')[0]!, id);
    await outOf(name, id);
    await until(
      async () => mailsTo(prospect).find((mail) => /is now with/.test(mail.parsed.subject ?? '')),
      "the prospect's update",
    );
  });

  it('with no other host free, the prospect gets an apology with the link to choose a new time, the desk a notice, booking.needs-new-time is raised and the sales views say "needs a new time"; a new time clears it', async () => {
    const slot = slots[2]!.iso;
    // Ben and Cy are busy then in their own calendars.
    for (const other of ['ben', 'cy'])
      await caldav.putEvent(
        calendars[other]!,
        `busy-${other}`,
        eventIcs(`busy-${other}`, `DTSTART:${compact(slot)}`, `DTEND:${hourAfter(slot)}`),
      );
    const prospect = 'edsger@dijkstra-paths.com';
    const id = await book(prospect, slot);
    expect((await row(id)).host_email).to.equal('ana@converge.test');
    await inCalendar('ana', id);
    await caldav.deleteEvent(calendars.ana!, uidOf(id));

    await hostedBy(id, null);
    const now = await row(id);
    expect(now).to.include({ status: 'booked', needs_new_time_reason: 'host-deleted', sequence: 1 });
    expect(now.needs_new_time_at).to.be.an.instanceOf(Date);

    const apology = await until(
      async () => mailsTo(prospect).find((mail) => /needs a new time/.test(mail.parsed.subject ?? '')),
      "the prospect's apology",
    );
    const manage = `${stack.url}/booking/${bookingToken(id, TEST_LINK_SECRET)}`;
    expect(apology.parsed.text).to.contain('We are sorry');
    expect(apology.parsed.text).to.contain(manage);
    // The demo nobody will give leaves the prospect's calendar: the same event withdrawn, its SEQUENCE the change's.
    const withdrawn = calendarIn(apology);
    expect(withdrawn).to.include({ method: 'CANCEL', uid: uidOf(id), sequence: 1, start: slot, status: 'CANCELLED' });
    const notice = await until(
      async () => mailsTo(SALES).find((mail) => /^Demo needs a new time/.test(mail.parsed.subject ?? '')),
      "the sales desk's notice",
    );
    expect(notice.parsed.text).to.contain('Needs a new time');
    const event = await until(async () => eventsOf(id, 'booking.needs-new-time')[0], 'booking.needs-new-time');
    expect(event.data).to.deep.include({ reason: 'host-deleted', host: null });
    expect(event.data.previousHost).to.deep.include({ email: 'ana@converge.test' });
    const check = valid.compile(webhookEventSchema('booking.needs-new-time'));
    expect(check(event), JSON.stringify(check.errors)).to.equal(true);

    // The admin API and the sales page's words for it.
    const shown = await detail(id);
    expectDocumented('/api/admin/bookings/{id}', 'get', 200, shown);
    expect(shown.needsNewTime).to.deep.include({ reason: 'host-deleted' });
    expect(shown.host).to.equal(null);
    expect(shown.history.at(-1)).to.deep.include({ what: 'needs-new-time', fromHost: 'Ana' });
    const list = (await (
      await fetch(`${stack.url}/api/admin/bookings?limit=50`, { headers: { Authorization: `Bearer ${TOKEN}` } })
    ).json()) as { demoRequests: BookingSummary[] };
    const listed = list.demoRequests.find((booking) => booking.id === id)!;
    expect(listed.needsNewTime).to.deep.include({ reason: 'host-deleted' });
    expect(eventsOf(id, 'booking.reassigned')).to.have.length(0);

    // The prospect follows the link and picks a new time: a host again, and no longer flagged.
    const moved = await reschedule(id, slots[3]!.iso);
    expect(moved.status, await moved.clone().text()).to.equal(200);
    const after = await row(id);
    expect(after.host_email).to.not.equal(null);
    expect(after.needs_new_time_at).to.equal(null);
    expect((await detail(id)).needsNewTime).to.equal(null);
    // And the new time comes back into it as the same event, requested again at a higher SEQUENCE than the withdrawal.
    const update = await until(
      async () => mailsTo(prospect).find((mail) => /has moved/.test(mail.parsed.subject ?? '')),
      "the prospect's new invitation",
    );
    expect(calendarIn(update)).to.include({ method: 'REQUEST', uid: uidOf(id), sequence: 2, start: slots[3]!.iso });
  });

  it("the product's own changes are not taken for the host's: a move that took the event from its host, a cancel", async () => {
    const slot = slots[4]!.iso;
    const later = slots[5]!.iso;
    const id = await book('barbara@liskov-types.com', slot);
    const host = (await row(id)).host_email!;
    const name = host.split('@')[0]!;
    await inCalendar(name, id);
    // The host is busy at the later slot, so the move hands the demo to another host and removes it from theirs.
    await caldav.putEvent(
      calendars[name]!,
      `busy-later-${name}`,
      eventIcs(`busy-later-${name}`, `DTSTART:${compact(later)}`, `DTEND:${hourAfter(later)}`),
    );
    const moved = await reschedule(id, later);
    expect(moved.status, await moved.clone().text()).to.equal(200);
    const movedTo = (await row(id)).host_email!;
    expect(movedTo).to.not.equal(host);
    await outOf(name, id);
    await inCalendar(movedTo.split('@')[0]!, id);

    const cancelled = await book('john@mccarthy-lisp.com', slots[6]!.iso);
    const cancelledHost = (await row(cancelled)).host_email!.split('@')[0]!;
    await inCalendar(cancelledHost, cancelled);
    const cancel = await fetch(`${stack.url}/api/bookings/${bookingToken(cancelled, TEST_LINK_SECRET)}/cancel`, {
      method: 'POST',
    });
    expect(cancel.status).to.equal(200);
    await outOf(cancelledHost, cancelled);

    // Several polls later, nothing was handed on or flagged.
    await sleep(4000);
    expect(eventsOf(id, 'booking.reassigned')).to.have.length(0);
    expect(eventsOf(id, 'booking.needs-new-time')).to.have.length(0);
    expect(eventsOf(cancelled, 'booking.needs-new-time')).to.have.length(0);
    expect(await row(id)).to.include({ host_email: movedTo, sequence: 1, needs_new_time_at: null });
    expect(await stack.db('host_freed_slots').whereIn('booking_id', [id, cancelled])).to.have.length(0);
  });

  it('two API processes reading the same calendars hand the demo on once', async () => {
    const second = await startApiServer(
      loadApiConfig({
        PORT: '0',
        DATABASE_URL: stack.databaseUrl,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: stack.queuePrefix,
        BOOKING_LINK_SECRET: TEST_LINK_SECRET,
        TEAM_FILE: team.teamFile,
        SALES_NOTIFY_EMAIL: SALES,
        HOST_CALENDAR_POLL_SECONDS: '1',
        // The same endpoint: an API started without it would take the environment's endpoint away.
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: receiver.secret,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
      silentLogger,
    );
    try {
      const prospect = 'frances@allen-compilers.com';
      const id = await book(prospect, slots[9]!.iso);
      const host = (await row(id)).host_email!;
      const name = host.split('@')[0]!;
      await inCalendar(name, id);
      await caldav.deleteEvent(calendars[name]!, uidOf(id));
      await until(async () => eventsOf(id, 'booking.reassigned')[0], 'booking.reassigned', 20_000);
      // Several polls of both processes later: one handover, one update to the prospect.
      await sleep(3000);
      expect(eventsOf(id, 'booking.reassigned')).to.have.length(1);
      expect((await row(id)).sequence).to.equal(1);
      expect(mailsTo(prospect).filter((mail) => /is now with/.test(mail.parsed.subject ?? ''))).to.have.length(1);
      expect(await stack.db('host_freed_slots').where({ booking_id: id })).to.have.length(1);
    } finally {
      await second.close();
    }
  });

  it('a host deleting the event while the prospect moves it ends in one consistent outcome', async () => {
    const slot = slots[7]!.iso;
    const later = slots[8]!.iso;
    const id = await book('donald@knuth-texts.com', slot);
    const host = (await row(id)).host_email!;
    const name = host.split('@')[0]!;
    await inCalendar(name, id);
    await caldav.deleteEvent(calendars[name]!, uidOf(id));
    const moved = await reschedule(id, later);
    expect(moved.status, await moved.clone().text()).to.equal(200);

    // Let the polls and the worker settle: the booking, its calendars and its events agree.
    await sleep(4000);
    const end = await until(async () => {
      const now = await row(id);
      if (now.status !== 'booked' || now.host_email === null) return undefined;
      const stored = await storedDemoEvent(calendars[now.host_email.split('@')[0]!]!, id);
      return stored && icsProperties(stored).DTSTART === compact(later) ? now : undefined;
    }, 'the moved event in its host calendar');
    expect(end.time_slot.toISOString()).to.equal(later);
    for (const other of ['ana', 'ben', 'cy'].filter((each) => `${each}@converge.test` !== end.host_email))
      expect(await storedDemoEvent(calendars[other]!, id), other).to.equal(undefined);
    // Handed on at most once, and never left needing a new time with a host.
    expect(eventsOf(id, 'booking.reassigned').length).to.be.at.most(1);
    expect(end.needs_new_time_at).to.equal(null);
    expect(eventsOf(id, 'booking.rescheduled')).to.have.length(1);
  });
});
