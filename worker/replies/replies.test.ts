import { expect } from 'chai';
import { startImapServer, type ImapServer } from '../../test/imap-server.js';
import { testDns, type ReplyOptions } from '../../test/itip-replies.js';
import { bookableSlots, icsOrganizer } from '../../test/booking.js';
import type { ReceivedMail } from '../../test/smtp-sink.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../../test/stack.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { until } from '../../test/until.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { newWebhookSecret, webhookEventSchema } from '../../server-shared/webhooks.js';
import { READ_KEYWORD } from './reader.js';
import { taggedReplyAddress } from './organizer.js';

const REPLY_ADDRESS = 'demo-replies@converge.localhost';
const SALES = 'sales-desk@converge.test';
const ADMIN_TOKEN = 'ops-secret-token-of-at-least-32-characters';
/** Where each prospect's mail server sends from, as their SPF says (documentation addresses). */
const GOOGLE_IP = '192.0.2.41';
const OUTLOOK_IP = '198.51.100.7';
const ELSEWHERE_IP = '203.0.113.66';

const dns = testDns();
// Google Workspace and Microsoft 365 sign and publish SPF; the small firm publishes neither.
dns.publish('hopper-systems.com', [GOOGLE_IP]);
dns.publish('lovelace-engines.com', [OUTLOOK_IP], false);
dns.publish('mallory-tools.com', [ELSEWHERE_IP]);

const calendarOf = (mail: ReceivedMail) => {
  const part = mail.parsed.attachments.find((attachment) => attachment.mimeType === 'text/calendar');
  if (!part) throw new Error('no calendar part');
  return typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
};

describe("the prospect's answers from their calendar (iTIP REPLY read over IMAP)", function () {
  this.timeout(120_000);
  let imap: ImapServer;
  let stack: Stack;
  let receiver: Receiver;
  const slots = bookableSlots(12);
  let nextSlot = 0;

  before(async () => {
    imap = await startImapServer();
    receiver = await startReceiver(newWebhookSecret());
    stack = await startStack({
      env: {
        REPLY_MAILBOX_URL: imap.url,
        REPLY_MAILBOX_ADDRESS: REPLY_ADDRESS,
        REPLY_MAILBOX_POLL_SECONDS: '0.5',
        SALES_NOTIFY_EMAIL: SALES,
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: receiver.secret,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ADMIN_TOKEN: ADMIN_TOKEN,
      },
      workerOptions: { sweepEveryMs: 200, replyResolver: dns.resolver },
    });
  });
  after(async () => {
    await stack?.close();
    await receiver?.close();
    await imap?.stop();
  });

  /** Books a demo for this prospect and waits for its confirmation; gives the booking and its invitation. */
  async function book(name: string, email: string) {
    const slot = slots[nextSlot++]!;
    const response = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, email, company: `${name} Ltd`, timeSlot: slot.iso }),
    });
    expect(response.status).to.equal(201);
    const id = String(((await response.json()) as { id: string }).id);
    const confirmation = await until(
      async () =>
        stack.smtp.messages.find(
          (mail) => mail.envelopeTo.includes(email) && /is booked/i.test(mail.parsed.subject ?? ''),
        ),
      'the confirmation',
    );
    const uid = /^UID:(.*)$/m.exec(calendarOf(confirmation).replace(/\r?\n[ \t]/g, ''))![1]!.trim();
    return {
      id,
      slot: slot.iso,
      uid,
      organizer: taggedReplyAddress(REPLY_ADDRESS, id, TEST_LINK_SECRET),
      confirmation,
    };
  }

  const booking = (id: string) =>
    stack.db('bookings').where({ id }).first('status', 'prospect_reply', 'sequence', 'time_slot');
  /** The sales page's read of the booking: its calendar answer. */
  const adminRead = async (id: string) =>
    (await (
      await fetch(`${stack.url}/api/admin/bookings/${id}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).json()) as { prospectReply: { answer: string; at: string } | null; status: string };
  const eventsOf = (id: string) => receiver.taken().filter((event) => event.data.booking.id === id);
  const slotAvailable = async (iso: string) => {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(iso));
    const day = (await (await fetch(`${stack.url}/api/slots?date=${date}`)).json()) as {
      slots: { start: string; available: boolean }[];
    };
    return day.slots.find((slot) => slot.start === iso)?.available;
  };
  const deliver = async (options: ReplyOptions) => (await imap.append([await dns.reply(options)]))[0]!;
  const flagsOf = async (uid: number) => [...((await imap.flags()).get(uid) ?? [])];
  /** Waits until the reader has read past `uid` (its mark in the database). */
  const readPast = (uid: number) =>
    until(async () => {
      const mark = await stack.db('reply_mailbox_marks').first('last_uid');
      return mark && Number(mark.last_uid) >= uid ? true : undefined;
    }, `the reader past message ${uid}`);

  it("names the reply mailbox as ORGANIZER, with the booking's tag in the prospect's invitation", async () => {
    const { id, confirmation } = await book('Grace Hopper', 'grace@hopper-systems.com');
    const organizer = icsOrganizer(calendarOf(confirmation));
    expect(organizer).to.equal(
      `ORGANIZER;CN=Converge:mailto:${taggedReplyAddress(REPLY_ADDRESS, id, TEST_LINK_SECRET)}`,
    );
    expect(organizer).to.match(/^ORGANIZER;CN=Converge:mailto:demo-replies\+[0-9a-f]{20}@converge\.localhost$/);
  });

  it("records a Google Calendar Accept (DKIM of the prospect's domain), raises booking.accepted once, marks it read", async () => {
    const b = await book('Grace Hopper', 'grace.h@hopper-systems.com');
    const accept: ReplyOptions = {
      shape: 'google',
      uid: b.uid,
      organizer: b.organizer,
      attendee: { name: 'Grace Hopper', email: 'grace.h@hopper-systems.com' },
      partstat: 'ACCEPTED',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
      stamp: new Date('2026-11-28T10:00:00Z'),
    };
    const uid = await deliver(accept);
    await until(async () => ((await booking(b.id))?.prospect_reply === 'ACCEPTED' ? true : undefined), 'accepted');
    await until(async () => (eventsOf(b.id).some((e) => e.type === 'booking.accepted') ? true : undefined), 'webhook');
    const accepted = eventsOf(b.id).find((event) => event.type === 'booking.accepted')!;
    expect(accepted.data.partstat).to.equal('ACCEPTED');
    // As the OpenAPI document's webhooks section publishes it.
    const valid = addFormats.default(new Ajv2020({ strict: false })).compile(webhookEventSchema('booking.accepted'));
    expect(valid(accepted), JSON.stringify(valid.errors)).to.equal(true);
    expect(accepted.data.booking.status).to.equal('booked');
    expect(await flagsOf(uid)).to.include.members(['\\Seen', READ_KEYWORD]);
    expect((await adminRead(b.id)).prospectReply?.answer).to.equal('ACCEPTED');

    // The same reply again (a calendar sending twice) changes nothing and raises nothing.
    const again = await deliver(accept);
    await readPast(again);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(eventsOf(b.id).filter((event) => event.type === 'booking.accepted')).to.have.length(1);
    expect(await flagsOf(again)).to.include('\\Seen');
  });

  it("cancels on an Outlook Decline (SPF of the prospect's domain): slot offered again, booking.cancelled declined, the cancellation e-mail", async () => {
    const b = await book('Ada Lovelace', 'ada@lovelace-engines.com');
    expect(await slotAvailable(b.slot)).to.equal(false);
    await deliver({
      shape: 'outlook',
      uid: b.uid,
      organizer: b.organizer,
      attendee: { name: 'Ada Lovelace', email: 'ada@lovelace-engines.com' },
      partstat: 'DECLINED',
      clientIp: OUTLOOK_IP,
    });
    await until(async () => ((await booking(b.id))?.status === 'cancelled' ? true : undefined), 'cancelled');
    expect((await booking(b.id))?.prospect_reply).to.equal('DECLINED');
    expect(await adminRead(b.id)).to.deep.include({ status: 'cancelled' });
    expect((await adminRead(b.id)).prospectReply?.answer).to.equal('DECLINED');
    // Offered again (another process's change shows in the slot list within its counts' second).
    await until(async () => ((await slotAvailable(b.slot)) ? true : undefined), 'the slot offered again');
    const cancelled = await until(
      async () => eventsOf(b.id).find((event) => event.type === 'booking.cancelled'),
      'booking.cancelled',
    );
    expect(cancelled.data.reason).to.equal('declined');
    const valid = addFormats.default(new Ajv2020({ strict: false })).compile(webhookEventSchema('booking.cancelled'));
    expect(valid(cancelled), JSON.stringify(valid.errors)).to.equal(true);
    const mail = await until(
      async () =>
        stack.smtp.messages.find(
          (m) => m.envelopeTo.includes('ada@lovelace-engines.com') && /cancelled/i.test(m.parsed.subject ?? ''),
        ),
      'the cancellation',
    );
    expect(mail.parsed.text).to.include('Book a new demo');
    expect(calendarOf(mail)).to.match(/METHOD:CANCEL/);
    await until(
      async () =>
        stack.smtp.messages.some((m) => m.envelopeTo.includes(SALES) && /cancel/i.test(m.parsed.subject ?? ''))
          ? true
          : undefined,
      "the sales desk's notice",
    );
  });

  it('records an Apple Calendar Tentative from a domain without DKIM or SPF by the tag its ORGANIZER echoes, and not without it', async () => {
    const b = await book('Edsger Dijkstra', 'edsger@dijkstra-works.com');
    const tentative = (organizer: string, stamp: string): ReplyOptions => ({
      shape: 'apple',
      uid: b.uid,
      organizer,
      attendee: { name: 'Edsger Dijkstra', email: 'edsger@dijkstra-works.com' },
      partstat: 'TENTATIVE',
      clientIp: ELSEWHERE_IP,
      stamp: new Date(stamp),
    });
    const untagged = await deliver(tentative(REPLY_ADDRESS, '2026-11-28T09:00:00Z'));
    await readPast(untagged);
    expect((await booking(b.id))?.prospect_reply).to.equal(null);
    expect(await flagsOf(untagged)).to.not.include('\\Seen');

    await deliver(tentative(b.organizer, '2026-11-28T09:05:00Z'));
    await until(async () => ((await booking(b.id))?.prospect_reply === 'TENTATIVE' ? true : undefined), 'tentative');
    const event = await until(async () => eventsOf(b.id).find((e) => e.type === 'booking.accepted'), 'webhook');
    expect(event.data.partstat).to.equal('TENTATIVE');
  });

  it('leaves untouched an unknown UID, another attendee, a forged From, a COUNTER and a REQUEST', async () => {
    const b = await book('Barbara Liskov', 'barbara@hopper-systems.com');
    const base: ReplyOptions = {
      shape: 'google',
      uid: b.uid,
      organizer: b.organizer,
      attendee: { name: 'Barbara Liskov', email: 'barbara@hopper-systems.com' },
      partstat: 'DECLINED',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
    };
    const others: ReplyOptions[] = [
      { ...base, uid: 'demo-00000000-0000-7000-8000-000000000000@converge.localhost' },
      { ...base, uid: 'some-other-event@example.com' },
      { ...base, attendee: { name: 'Grace Hopper', email: 'grace@hopper-systems.com' } },
      { ...base, extraAttendee: 'colleague@hopper-systems.com' },
      // From the prospect's address, but sent and signed elsewhere: SPF fails, the DKIM is another domain's.
      { ...base, signedBy: 'mallory-tools.com', clientIp: ELSEWHERE_IP },
      { ...base, signedBy: undefined, clientIp: ELSEWHERE_IP },
      { ...base, method: 'COUNTER' },
      { ...base, method: 'REQUEST' },
      { ...base, shape: 'outlook', partstat: 'DELEGATED' },
    ];
    const uids = await imap.append(await Promise.all(others.map((options) => dns.reply(options))));
    await readPast(uids.at(-1)!);
    expect((await booking(b.id))?.status).to.equal('booked');
    expect((await booking(b.id))?.prospect_reply).to.equal(null);
    expect((await adminRead(b.id)).prospectReply).to.equal(null);
    expect(await stack.db('webhook_events').where({ booking_id: b.id }).pluck('type')).to.deep.equal([
      'booking.created',
    ]);
    const flags = await imap.flags();
    for (const uid of uids) expect([...(flags.get(uid) ?? [])], `message ${uid}`).to.not.include('\\Seen');
  });

  it('ends consistent when a Decline races a reschedule: cancelled and the move refused, or moved and the Decline stale', async () => {
    const b = await book('Alan Turing', 'alan@hopper-systems.com');
    const target = slots[nextSlot++]!.iso;
    const decline = dns.reply({
      shape: 'google',
      uid: b.uid,
      organizer: b.organizer,
      attendee: { name: 'Alan Turing', email: 'alan@hopper-systems.com' },
      partstat: 'DECLINED',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
    });
    const [moved, [uid]] = await Promise.all([
      fetch(`${stack.url}/api/bookings/${bookingToken(b.id, TEST_LINK_SECRET)}/reschedule`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ timeSlot: target }),
      }),
      decline.then((raw) => imap.append([raw])),
    ]);
    await readPast(uid!);
    const after = (await booking(b.id))!;
    const types = eventsOf(b.id).map((event) => event.type);
    if (moved.status === 200) {
      // The Decline answered the invitation the move replaced (SEQUENCE 0 < 1): stale, the demo stands at its new time.
      expect(after.status).to.equal('booked');
      expect(new Date(after.time_slot).toISOString()).to.equal(target);
      expect(types).to.not.include('booking.cancelled');
    } else {
      expect(moved.status).to.equal(409);
      expect(after.status).to.equal('cancelled');
      expect(new Date(after.time_slot).toISOString()).to.equal(b.slot);
    }
    // Either way the first slot is free again.
    await until(async () => ((await slotAvailable(b.slot)) ? true : undefined), 'the first slot offered again');
  });

  it('leaves a Decline of an invitation a move replaced (a lower SEQUENCE), and acts on one of the update', async () => {
    const b = await book('Katherine Johnson', 'katherine@hopper-systems.com');
    const target = slots[nextSlot++]!.iso;
    const moved = await fetch(`${stack.url}/api/bookings/${bookingToken(b.id, TEST_LINK_SECRET)}/reschedule`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ timeSlot: target }),
    });
    expect(moved.status).to.equal(200);
    const decline = (sequence: number, stamp: string): ReplyOptions => ({
      shape: 'outlook',
      uid: b.uid,
      organizer: b.organizer,
      attendee: { name: 'Katherine Johnson', email: 'katherine@hopper-systems.com' },
      partstat: 'DECLINED',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
      sequence,
      stamp: new Date(stamp),
    });
    const stale = await deliver(decline(0, '2026-11-28T11:00:00Z'));
    await readPast(stale);
    expect(await booking(b.id)).to.deep.include({ status: 'booked', sequence: 1 });
    await deliver(decline(1, '2026-11-28T11:01:00Z'));
    await until(async () => ((await booking(b.id))?.status === 'cancelled' ? true : undefined), 'cancelled');
    const cancelled = await until(
      async () => eventsOf(b.id).find((event) => event.type === 'booking.cancelled'),
      'booking.cancelled',
    );
    expect(cancelled.data.reason).to.equal('declined');
  });

  it('reads a mailbox of ten thousand unrelated messages without acting on them, then acts on the reply after them', async () => {
    const b = await book('Grace Hopper', 'grace.m@hopper-systems.com');
    const unrelated = Array.from(
      { length: 10_000 },
      (_, n) =>
        `From: newsletter${n % 7}@example.com\r\nTo: ${REPLY_ADDRESS}\r\nSubject: Unrelated ${n}\r\nMessage-ID: <u${n}@example.com>\r\n\r\nNothing to do with any demo.\r\n`,
    );
    const uids = await imap.append(unrelated);
    // Timed from the reply's arrival behind them: appending ten thousand messages is the test's own cost.
    const started = Date.now();
    const reply = await deliver({
      shape: 'google',
      uid: b.uid,
      organizer: b.organizer,
      attendee: { name: 'Grace Hopper', email: 'grace.m@hopper-systems.com' },
      partstat: 'ACCEPTED',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
    });
    await until(
      async () => ((await booking(b.id))?.prospect_reply === 'ACCEPTED' ? true : undefined),
      'accepted',
      60_000,
    );
    expect(Date.now() - started).to.be.below(60_000);
    const flags = await imap.flags();
    expect(uids.filter((uid) => flags.get(uid)?.has('\\Seen'))).to.deep.equal([]);
    expect([...(flags.get(reply) ?? [])]).to.include(READ_KEYWORD);
  });
});
