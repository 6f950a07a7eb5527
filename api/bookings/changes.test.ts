import { expect } from 'chai';
import { bookingToken } from '../../server-shared/booking-link.js';
import { startAppUnderTest } from '../../test/app-under-test.js';
import { bookableSlots, icsProperties } from '../../test/booking.js';
import type { ReceivedMail } from '../../test/smtp-sink.js';
import { TEST_LINK_SECRET, clearQueuePrefix, startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';

const SALES = 'sales-desk@converge.test';
const prospect = { name: 'Grace Hopper', email: 'grace@hopper-systems.com', company: 'Hopper Systems' };
const compact = (iso: string) => iso.replace(/[-:]/g, '').replace('.000Z', 'Z');

function calendarPart(mail: ReceivedMail, filename?: string): string {
  const part = mail.parsed.attachments.find(
    (attachment) => attachment.mimeType === 'text/calendar' && (!filename || attachment.filename === filename),
  );
  if (!part) throw new Error(`no text/calendar part in "${mail.parsed.subject ?? ''}"`);
  return typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
}

describe('a booking moved and cancelled through its link, end to end', function () {
  this.timeout(60_000);
  let stack: Stack;
  let id: string;
  let token: string;
  let meetingUrl: string;
  const [first, second, third] = bookableSlots(3);
  const seen = { count: 0 };

  /** The e-mails that arrived since the last call, by recipient. */
  async function nextMails(
    count: number,
  ): Promise<{ prospect: ReceivedMail[]; sales: ReceivedMail[]; all: ReceivedMail[] }> {
    const all = (await stack.smtp.waitForMessages(seen.count + count)).slice(seen.count);
    seen.count += all.length;
    return {
      prospect: all.filter((mail) => mail.envelopeTo.includes(prospect.email)),
      sales: all.filter((mail) => mail.envelopeTo.includes(SALES)),
      all,
    };
  }
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const reminders = () => stack.db('deliveries').where({ booking_id: id, kind: 'reminder' }).orderBy('created_at');
  const slotAvailable = async (iso: string) => {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(iso));
    const day = (await (await fetch(`${stack.url}/api/slots?date=${date}`)).json()) as {
      slots: { start: string; available: boolean }[];
    };
    return day.slots.find((slot) => slot.start === iso)?.available;
  };

  before(async () => {
    stack = await startStack({
      env: { SALES_NOTIFY_EMAIL: SALES, REMINDER_MINUTES_BEFORE: '60' },
      workerOptions: { sweepEveryMs: 200 },
    });
  });
  after(async () => {
    await stack.close();
  });

  it('books: the confirmation carries the manage link, the sales desk hears of the lead, the reminder is stored', async () => {
    const attribution = {
      utm_source: 'newsletter',
      utm_campaign: 'q4-launch',
      referrer: 'https://news.example.com/issue-7',
    };
    const booked = await post('/api/demo-request', {
      ...prospect,
      timeSlot: first!.iso,
      phone: '+1 555 0100',
      message: 'We run 40 contact centres.',
      attribution,
    });
    expect(booked.status).to.equal(201);
    id = String(booked.body.id);
    token = bookingToken(id, TEST_LINK_SECRET);
    meetingUrl = String(booked.body.meetingUrl);
    expect(meetingUrl).to.match(/^https:\/\/meet\.jit\.si\/ConvergeDemo-[a-z2-7]{20}$/);

    const mails = await nextMails(2);
    const [confirmation] = mails.prospect;
    const manage = `${stack.url}/booking/${token}`;
    expect(confirmation!.parsed.text).to.contain(`Reschedule or cancel: ${manage}`);
    expect(confirmation!.parsed.html).to.contain(`href="${manage}"`);
    expect(icsProperties(calendarPart(confirmation!))).to.include({
      METHOD: 'REQUEST',
      UID: `demo-${id}@converge.localhost`,
      SEQUENCE: '0',
    });

    const [notice] = mails.sales;
    expect(notice!.parsed.subject)
      .to.match(/^New demo booking: Hopper Systems, /)
      .and.contain(first!.label);
    expect(notice!.parsed.replyTo?.[0]).to.deep.include({ address: prospect.email });
    const text = notice!.parsed.text ?? '';
    for (const expected of [
      'Name: Grace Hopper',
      'Company: Hopper Systems',
      `E-mail: ${prospect.email}`,
      'Phone: +1 555 0100',
      'We run 40 contact centres.',
      'utm_source: newsletter',
      'utm_campaign: q4-launch',
      'referrer: https://news.example.com/issue-7',
    ]) {
      expect(text).to.contain(expected);
    }
    expect(text)
      .to.match(/UTC: \w+day, .+ UTC/)
      .and.match(/Europe Time: \w+day, /);
    expect(icsProperties(calendarPart(notice!, 'demo.ics'))).to.include({
      METHOD: 'PUBLISH',
      UID: `demo-${id}@converge.localhost`,
      DTSTART: compact(first!.iso),
      STATUS: 'CONFIRMED',
    });

    const [reminder] = await reminders();
    expect(reminder.due_at.toISOString()).to.equal(new Date(new Date(first!.iso).getTime() - 3_600_000).toISOString());
  });

  it('reschedules: one event updated (same UID, SEQUENCE 1, new DTSTART), the reminder moved, the old slot free at once', async () => {
    const moved = await post(`/api/bookings/${token}/reschedule`, { timeSlot: second!.iso });
    // The same video room after the move.
    expect(moved).to.deep.equal({
      status: 200,
      body: { timeSlot: second!.iso, status: 'booked', name: prospect.name, company: prospect.company, meetingUrl },
    });

    const mails = await nextMails(2);
    const [update] = mails.prospect;
    expect(update!.parsed.subject).to.match(/^Your Converge demo has moved: /);
    expect(update!.parsed.text).to.contain(`Reschedule or cancel: ${stack.url}/booking/${token}`);
    expect(update!.raw).to.match(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
    expect(icsProperties(calendarPart(update!))).to.include({
      METHOD: 'REQUEST',
      UID: `demo-${id}@converge.localhost`,
      SEQUENCE: '1',
      DTSTART: compact(second!.iso),
      STATUS: 'CONFIRMED',
    });
    expect(mails.sales[0]!.parsed.subject).to.match(/^Demo moved: Hopper Systems, /);
    // Both say where the demo was: the update in a few words, the sales desk's notice as a line of its table.
    const berlin = (iso: string, options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', ...options }).format(new Date(iso));
    const words = (iso: string) =>
      `${berlin(iso, { weekday: 'long', day: 'numeric', month: 'long' })}, ${berlin(iso, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}`;
    expect(update!.parsed.text).to.contain(
      `has moved from ${words(first!.iso)} to ${words(second!.iso)} (Europe Time). It now takes place at this time:`,
    );
    expect(mails.sales[0]!.parsed.text).to.match(
      new RegExp(
        `  Moved from: ${berlin(first!.iso, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })}, ${words(first!.iso).split(', ')[1]}–`,
      ),
    );

    const [old, current] = await reminders();
    expect(old.dropped_at).to.be.instanceOf(Date);
    expect(current.dropped_at).to.equal(null);
    expect(current.due_at.toISOString()).to.equal(new Date(new Date(second!.iso).getTime() - 3_600_000).toISOString());

    expect(await slotAvailable(first!.iso)).to.equal(true);
    expect(await slotAvailable(second!.iso)).to.equal(false);
    const other = await post('/api/demo-request', {
      name: 'Alan Turing',
      email: 'alan@turing-labs.com',
      company: 'Turing Labs',
      timeSlot: first!.iso,
    });
    expect(other.status).to.equal(201);
    await nextMails(2);
  });

  it('holds a move to the rules of a booking: a full slot, a past slot, no slot, a bad token', async () => {
    const full = await post(`/api/bookings/${token}/reschedule`, { timeSlot: first!.iso });
    expect(full.status).to.equal(409);
    expect(full.body).to.include({ error: 'Slot taken' });
    const past = await post(`/api/bookings/${token}/reschedule`, { timeSlot: '2020-01-06T09:00:00.000Z' });
    expect(past.status).to.equal(400);
    expect(past.body.fields).to.have.property('timeSlot').that.is.a('string');
    expect((await post(`/api/bookings/${token}/reschedule`, {})).status).to.equal(400);
    const altered = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
    for (const path of [`/api/bookings/${altered}/reschedule`, `/api/bookings/${altered}/cancel`]) {
      expect(await post(path, { timeSlot: third!.iso }), path).to.deep.equal({
        status: 404,
        body: { error: 'Not found', details: 'There is no booking at this link.' },
      });
    }
    const row = await stack.db('bookings').where({ id }).first();
    expect(row).to.include({ sequence: 1, status: 'booked' });
    expect(row.time_slot.toISOString()).to.equal(second!.iso);
  });

  it('cancels: METHOD:CANCEL with STATUS:CANCELLED for the same event, the reminder dropped, the slot free, no way back', async () => {
    const cancelled = await post(`/api/bookings/${token}/cancel`, {});
    expect(cancelled).to.deep.equal({
      status: 200,
      body: { timeSlot: second!.iso, status: 'cancelled', name: prospect.name, company: prospect.company, meetingUrl },
    });

    const mails = await nextMails(2);
    const [cancellation] = mails.prospect;
    expect(cancellation!.parsed.subject).to.match(/^Your Converge demo is cancelled: /);
    expect(cancellation!.raw).to.match(/Content-Type: text\/calendar; charset=utf-8; method=CANCEL/i);
    expect(icsProperties(calendarPart(cancellation!))).to.include({
      METHOD: 'CANCEL',
      UID: `demo-${id}@converge.localhost`,
      SEQUENCE: '2',
      STATUS: 'CANCELLED',
      DTSTART: compact(second!.iso),
    });
    expect(mails.sales[0]!.parsed.subject).to.match(/^Demo cancelled: Hopper Systems, /);
    expect(icsProperties(calendarPart(mails.sales[0]!, 'demo.ics'))).to.include({ STATUS: 'CANCELLED', SEQUENCE: '2' });
    expect((await reminders()).every((row) => row.dropped_at !== null)).to.equal(true);

    const view = await (await fetch(`${stack.url}/api/bookings/${token}`)).json();
    expect(view).to.include({ status: 'cancelled' });
    const download = icsProperties(await (await fetch(`${stack.url}/api/bookings/${token}/invite.ics`)).text());
    expect(download).to.include({ STATUS: 'CANCELLED', SEQUENCE: '2' });

    const again = await post(`/api/bookings/${token}/reschedule`, { timeSlot: third!.iso });
    expect(again.status).to.equal(409);
    expect(again.body).to.include({ error: 'Booking cancelled' });
    expect(await post(`/api/bookings/${token}/cancel`, {})).to.include({ status: 200 });

    expect(await slotAvailable(second!.iso)).to.equal(true);
    const other = await post('/api/demo-request', {
      name: 'Ada Lovelace',
      email: 'ada@analytical-engines.com',
      company: 'Analytical Engines',
      timeSlot: second!.iso,
    });
    expect(other.status).to.equal(201);
    const next = await nextMails(2);
    // The second cancel sent nothing: only the new booking's confirmation and notice arrived.
    expect(next.all.map((mail) => mail.envelopeTo[0]).sort()).to.deep.equal(['ada@analytical-engines.com', SALES]);
  });

  it('reminds before the slot from PostgreSQL alone: Redis emptied, the reminder still goes out when due, naming the time', async () => {
    const booked = await post('/api/demo-request', {
      name: 'Katherine Johnson',
      email: 'katherine@orbital-math.com',
      company: 'Orbital Math',
      timeSlot: third!.iso,
    });
    expect(booked.status).to.equal(201);
    await nextMails(2);
    await clearQueuePrefix(stack.queuePrefix);
    // The clock reaches the reminder's time.
    await stack
      .db('deliveries')
      .where({ booking_id: booked.body.id, kind: 'reminder' })
      .update({ due_at: stack.db.fn.now() });
    const [reminder] = (await nextMails(1)).all;
    expect(reminder!.envelopeTo).to.deep.equal(['katherine@orbital-math.com']);
    expect(reminder!.parsed.subject)
      .to.match(/^Reminder: your Converge demo is on /)
      .and.contain(third!.label);
    expect(reminder!.parsed.text).to.contain(
      `Reschedule or cancel: ${stack.url}/booking/${bookingToken(String(booked.body.id), TEST_LINK_SECRET)}`,
    );
    expect(reminder!.parsed.attachments.filter((part) => part.mimeType === 'text/calendar')).to.have.length(0);
    const row = await until(async () => {
      const current = await stack.db('deliveries').where({ booking_id: booked.body.id, kind: 'reminder' }).first();
      return current?.sent_at ? current : undefined;
    }, 'the reminder to be marked sent');
    expect(row.attempts).to.equal(1);
  });
});

describe('a reminder', () => {
  it('is not stored for a booking made later than it would go out', async () => {
    const app = await startAppUnderTest({ followUps: { reminderMinutesBefore: 60 * 24 * 40 } });
    try {
      const booked = await app.post('/api/demo-request', { ...prospect, timeSlot: bookableSlots(1)[0]!.iso });
      expect(booked.status).to.equal(201);
      expect(await app.db('deliveries').where({ booking_id: booked.body.id, kind: 'reminder' })).to.deep.equal([]);
    } finally {
      await app.close();
    }
  });
});
