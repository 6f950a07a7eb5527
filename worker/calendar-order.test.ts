import { expect } from 'chai';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DELIVERY_QUEUE, jobIdOf } from '../server-shared/jobs.js';
import { settleEarlierProspectEmails } from '../server-shared/prospect-emails.js';
import { bookableSlots, icsProperties } from '../test/booking.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { insertBookings, jobOfRow, deliverRow } from '../test/outbox.js';
import { startSmtpSink } from '../test/smtp-sink.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, silentLogger, testQueuePrefix } from '../test/stack.js';
import { until } from '../test/until.js';
import { loadWorkerConfig } from './config.js';
import type { Composed } from './channels/email.js';
import type { DeliveryDeps } from './job.js';
import { startWorker } from './index.js';
import { composeEmail } from './channels/email.js';
import type { ComposeDeps } from './kind-writers.js';
import type { ChangeRow, Lead } from './delivery-row.js';
import type { OutgoingMail } from './send-mail.js';

const prospect = { name: 'Grace Hopper', email: 'grace@hopper-systems.com', company: 'Hopper Systems' };
const [firstSlot, secondSlot] = bookableSlots(2).map((slot) => new Date(slot.iso)) as [Date, Date];
const id = '6f1c1f0e-2c1a-4d8e-9a57-0b9f1c2d3e4f';
const composeDeps: ComposeDeps = {
  mailFrom: 'demos@converge.test',
  timeZone: 'Europe/Berlin',
  publicUrl: 'https://converge.test',
  linkSecret: TEST_LINK_SECRET,
  now: () => new Date('2026-11-28T10:00:00Z'),
};

/** The calendar a message carries: method, sequence, status, start. */
function calendarOf(mail: Pick<Composed, 'icalEvent'> | undefined): {
  method?: string;
  sequence?: string;
  status?: string;
  start?: string;
} {
  const content = mail?.icalEvent?.content;
  if (typeof content !== 'string') return {};
  const ics = icsProperties(content);
  return { method: ics.METHOD, sequence: ics.SEQUENCE, status: ics.STATUS, start: ics.DTSTART };
}
const compact = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace('.000Z', 'Z');

describe('composing the messages of one booking', () => {
  const lead = (overrides: Partial<Lead> = {}): Lead => ({
    id,
    ...prospect,
    phone: null,
    message: null,
    attribution: null,
    timeSlot: secondSlot,
    status: 'booked',
    sequence: 1,
    ...overrides,
  });
  const emailRow = (overrides: Partial<ChangeRow>): ChangeRow => ({
    id: '0c0e7a2b-5d4f-4f7e-8b1a-2c3d4e5f6a7b',
    booking_id: id,
    kind: 'update',
    time_slot: secondSlot,
    sequence: 1,
    recipient: null,
    change: null,
    ...overrides,
  });

  it('composes the confirmation of a booking as made: REQUEST, SEQUENCE 0, its slot', () => {
    const confirmation = emailRow({ kind: 'confirmation', time_slot: firstSlot, sequence: 0 });
    expect(
      calendarOf(composeEmail(composeDeps, confirmation, lead({ timeSlot: firstSlot, sequence: 0 })) ?? undefined),
    ).to.deep.equal({
      method: 'REQUEST',
      sequence: '0',
      status: 'CONFIRMED',
      start: compact(firstSlot),
    });
  });

  it('composes no confirmation for a booking cancelled, moved, or moved and cancelled since: the change tells it', () => {
    const confirmation = emailRow({ kind: 'confirmation', time_slot: firstSlot, sequence: 0 });
    expect(
      composeEmail(composeDeps, confirmation, lead({ timeSlot: firstSlot, status: 'cancelled', sequence: 1 })),
    ).to.equal(null);
    expect(composeEmail(composeDeps, confirmation, lead({ timeSlot: secondSlot, sequence: 1 }))).to.equal(null);
    expect(
      composeEmail(composeDeps, confirmation, lead({ timeSlot: secondSlot, status: 'cancelled', sequence: 2 })),
    ).to.equal(null);
  });

  it('stamps an update and a cancellation with the sequence of their own change', () => {
    const update = composeEmail(composeDeps, emailRow({ kind: 'update', sequence: 1 }), lead({ sequence: 1 }));
    expect(calendarOf(update ?? undefined)).to.deep.equal({
      method: 'REQUEST',
      sequence: '1',
      status: 'CONFIRMED',
      start: compact(secondSlot),
    });
    const cancellation = composeEmail(
      composeDeps,
      emailRow({ kind: 'cancellation', sequence: 2 }),
      lead({ status: 'cancelled', sequence: 2 }),
    );
    expect(calendarOf(cancellation ?? undefined)).to.deep.equal({
      method: 'CANCEL',
      sequence: '2',
      status: 'CANCELLED',
      start: compact(secondSlot),
    });
  });

  it('tells the sales desk the truth of its own change, even once the booking has moved on', () => {
    const notice = composeEmail(
      composeDeps,
      emailRow({ kind: 'sales-notice', sequence: 1, recipient: 'sales@converge.test', change: 'rescheduled' }),
      lead({ status: 'cancelled', sequence: 2 }),
    );
    const attachment = notice?.attachments?.[0];
    const ics = icsProperties(typeof attachment?.content === 'string' ? attachment.content : '');
    expect(ics).to.include({ METHOD: 'PUBLISH', SEQUENCE: '1', STATUS: 'CONFIRMED', DTSTART: compact(secondSlot) });
    expect(notice?.subject).to.match(/^Demo moved: /);
  });
});

describe('the messages of one booking go out in the order of its changes', () => {
  let database: TestDatabase;
  let sent: OutgoingMail[];
  let deps: DeliveryDeps;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });
  beforeEach(() => {
    sent = [];
    deps = {
      db: database.db,
      sendMail: async (mail) => (sent.push(mail), {}),
      mailFrom: 'demos@converge.test',
      replyTo: 'demos@converge.test',
      timeZone: 'Europe/Berlin',
      publicUrl: 'https://converge.test',
      linkSecret: TEST_LINK_SECRET,
      logger: silentLogger,
    };
  });

  /** A booking with its confirmation in the outbox, as `book` stores them. */
  async function book(): Promise<{ bookingId: string; confirmation: string }> {
    const [row] = await insertBookings(database.db, [{ ...prospect, time_slot: firstSlot }]);
    return { bookingId: row!.id, confirmation: row!.emailId };
  }
  const emailState = async (emailId: string) => database.db('deliveries').where({ id: emailId }).first();

  /** Cancels the booking as the API does (api/bookings/changes.ts): in one transaction, earlier e-mails settled. */
  async function cancel(bookingId: string): Promise<string> {
    return database.db.transaction(async (trx) => {
      const [booking] = await trx('bookings')
        .where({ id: bookingId })
        .update({ status: 'cancelled', cancelled_at: trx.fn.now(), sequence: trx.raw('sequence + 1') })
        .returning(['sequence', 'time_slot']);
      await settleEarlierProspectEmails(trx, bookingId, booking.sequence);
      const [email] = await trx('deliveries')
        .insert({
          channel: 'email',
          booking_id: bookingId,
          kind: 'cancellation',
          time_slot: booking.time_slot,
          sequence: booking.sequence,
        })
        .returning('id');
      return String(email.id);
    });
  }

  const methods = () => sent.map((mail) => `${calendarOf(mail).method}/${calendarOf(mail).sequence}`);

  it("drops the unsent confirmation in the cancel's own transaction: only the CANCEL goes out", async () => {
    const { bookingId, confirmation } = await book();
    const cancellation = await cancel(bookingId);
    expect((await emailState(confirmation)).dropped_at).to.be.instanceOf(Date);
    expect(await deliverRow(deps, confirmation)).to.equal('dropped');
    expect(await deliverRow(deps, cancellation)).to.equal('sent');
    expect(methods()).to.deep.equal(['CANCEL/1']);
  });

  it('holds the CANCEL while the confirmation claimed before the cancel is still being sent, then sends it after', async () => {
    const { bookingId, confirmation } = await book();
    let release!: () => void;
    const confirmationSending = new Promise<void>((resolve) => (release = resolve));
    const confirming = deliverRow(
      { ...deps, sendMail: async (mail) => (await confirmationSending, sent.push(mail), {}) },
      confirmation,
    );
    await until(async () => ((await emailState(confirmation)).claimed_until ? true : undefined), 'the claim');

    const cancellation = await cancel(bookingId);
    expect(await deliverRow(deps, cancellation)).to.equal('waiting');
    expect(sent).to.deep.equal([]);
    release();
    expect(await confirming).to.equal('sent');
    expect(await deliverRow(deps, cancellation)).to.equal('sent');
    expect(methods()).to.deep.equal(['REQUEST/0', 'CANCEL/1']);
  });

  it('drops a confirmation whose send failed after the cancel, and the CANCEL need not wait for its retry', async () => {
    const { bookingId, confirmation } = await book();
    let fail!: (err: Error) => void;
    const confirmationSending = new Promise<never>((_resolve, reject) => (fail = reject));
    const confirming = deliverRow({ ...deps, sendMail: () => confirmationSending }, confirmation).catch(
      (err: unknown) => err,
    );
    await until(async () => ((await emailState(confirmation)).claimed_until ? true : undefined), 'the claim');

    const cancellation = await cancel(bookingId);
    fail(new Error('connect ECONNREFUSED 127.0.0.1:25'));
    expect(await confirming).to.be.instanceOf(Error);
    expect(await deliverRow(deps, cancellation)).to.equal('sent');
    expect(await deliverRow(deps, confirmation), "the confirmation's retry").to.equal('dropped');
    expect(methods()).to.deep.equal(['CANCEL/1']);
  });
});

describe('a job whose booking has an earlier e-mail in flight, in the queue', () => {
  it('waits in the queue without using a try, and is sent once the earlier one has gone', async () => {
    const database = await createTestDatabase();
    const smtp = await startSmtpSink();
    const prefix = testQueuePrefix();
    const worker = await startWorker(
      loadWorkerConfig({
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        SMTP_URL: smtp.url,
        BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      }),
      silentLogger,
      { sweepEveryMs: 60_000 },
    );
    const redis = new Redis(TEST_REDIS_URL);
    const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix });
    try {
      const { db } = database;
      // Another worker claimed the confirmation before the booking was cancelled, and is sending it.
      const [booking] = await insertBookings(
        db,
        [{ ...prospect, time_slot: firstSlot, status: 'cancelled', sequence: 1 }],
        {
          claimed_until: db.raw("now() + interval '1 minute'"),
        },
      );
      const [email] = await db('deliveries')
        .insert({ channel: 'email', booking_id: booking!.id, kind: 'cancellation', time_slot: firstSlot, sequence: 1 })
        .returning('id');
      const job = await jobOfRow(db, email.id);
      await queue.add(job.name, job.payload, {
        jobId: jobIdOf(job),
        attempts: 6,
        backoff: { type: 'exponential', delay: 5000 },
      });

      const waiting = await until(async () => {
        const current = await queue.getJob(jobIdOf(job));
        return (await current?.getState()) === 'delayed' ? current : undefined;
      }, 'the job to wait');
      expect(waiting?.attemptsMade, 'no try used').to.equal(0);
      expect(smtp.messages).to.have.length(0);

      await db('deliveries').where({ id: booking!.emailId }).update({ sent_at: db.fn.now(), claimed_until: null });
      const [mail] = await smtp.waitForMessages(1, 10_000);
      expect(mail!.parsed.messageId).to.equal(`<cancellation-${email.id}@converge.localhost>`);
      const row = await until(async () => {
        const current = await db('deliveries').where({ id: email.id }).first();
        return current?.sent_at ? current : undefined;
      }, 'the cancellation marked sent');
      expect(row.attempts).to.equal(1);
    } finally {
      await queue.close();
      redis.disconnect();
      await worker.close();
      await smtp.close();
      await database.drop();
      await clearQueuePrefix(prefix);
    }
  });
});
