import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { Queue, UnrecoverableError } from 'bullmq';
import { Redis } from 'ioredis';
import { DELIVERY_QUEUE, DELIVER_JOB, jobIdOf, type QueuedJob } from '../server-shared/jobs.js';
import { nextBookableSlot } from '../test/booking.js';
import { pngSize } from '../test/png.js';
import { until } from '../test/until.js';
import {
  TEST_LINK_SECRET,
  TEST_REDIS_URL,
  clearQueuePrefix,
  silentLogger,
  startStack,
  testQueuePrefix,
  type Stack,
} from '../test/stack.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { insertBookings, jobOfRow, deliverRow } from '../test/outbox.js';
import { startSmtpSink, type SmtpSink } from '../test/smtp-sink.js';
import { loadWorkerConfig } from './config.js';
import { startWorker } from './index.js';
import { createSendMail } from './send-mail.js';
import type { DeliveryDeps } from './job.js';
import { findDue } from './outbox.js';
import { sweepOutbox } from './sweep.js';

const prospect = { name: 'Grace Hopper', email: 'grace@hopper-systems.com', company: 'Hopper Systems' };

async function book(stack: Stack, body: Record<string, string>): Promise<string> {
  const response = await fetch(`${stack.url}/api/demo-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).to.equal(201);
  return ((await response.json()) as { id: string }).id;
}

describe('confirmation e-mail, end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.close();
  });

  it('books through the API and e-mails the prospect an invitation, then marks the row sent', async () => {
    const slot = nextBookableSlot();
    const id = await book(stack, {
      ...prospect,
      timeSlot: slot.iso,
      phone: '+1 555 0100',
      message: 'Hello',
      visitorTimeZone: 'Asia/Tokyo',
    });
    const [mail] = await stack.smtp.waitForMessages(1);
    expect(mail?.envelopeTo).to.deep.equal([prospect.email]);
    const parsed = mail!.parsed;
    expect(parsed.subject).to.match(/^Your Converge demo is booked: /);
    expect(parsed.subject).to.contain(slot.label);
    expect(parsed.to?.[0]).to.deep.include({ name: 'Grace Hopper', address: prospect.email });
    expect(parsed.text).to.contain('Hi Grace,');
    expect(parsed.text).to.contain(`Europe Time: `);
    expect(parsed.text).to.match(/UTC: +\w+day, /);
    // And on the visitor's own clock, which the page sent with the booking.
    const tokyo = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(slot.iso));
    expect(parsed.text).to.match(new RegExp(`\\n  Your time: +\\w+day, .*, ${tokyo}–`));
    expect(parsed.html).to.contain('Hopper Systems');

    const ics = parsed.attachments.find((part) => part.mimeType === 'text/calendar');
    expect(ics, 'a text/calendar part').to.not.equal(undefined);
    const invite = typeof ics!.content === 'string' ? ics!.content : new TextDecoder().decode(ics!.content);
    const start = slot.iso.replace(/[-:]/g, '').replace('.000Z', 'Z');
    expect(invite).to.contain('METHOD:REQUEST');
    expect(invite).to.contain(`UID:demo-${id}@`);
    expect(invite).to.contain(`DTSTART:${start}`);
    expect(invite).to.contain(
      `DTEND:${new Date(new Date(slot.iso).getTime() + 3_600_000).toISOString().replace(/[-:]/g, '').replace('.000Z', 'Z')}`,
    );
    expect(invite).to.contain('mailto:grace@hopper-systems.com');
    expect(mail!.raw).to.match(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);

    // The e-mail's download link, signed by the worker, opens at the API: the same event, by its UID.
    const download = /Other calendars \(\.ics\): (\S+)/.exec(parsed.text ?? '')?.[1] ?? '';
    expect(download.startsWith(`${stack.url}/api/bookings/`), download).to.equal(true);
    const fetched = await fetch(download);
    expect(fetched.status).to.equal(200);
    const downloaded = await fetched.text();
    expect(downloaded).to.contain(`UID:demo-${id}@`).and.contain(`DTSTART:${start}`);
    expect(/UID:\S+/.exec(downloaded)?.[0]).to.equal(/UID:\S+/.exec(invite)?.[0]);
    expect(parsed.text).to.contain('Google Calendar: https://calendar.google.com/calendar/render?');

    // The logo is a PNG at the site's address (Gmail and Outlook drop inline SVG), sized and named in the HTML, and
    // the site answers it: a PNG twice the size it is shown, which another site's page may show.
    expect(parsed.html).to.not.contain('<svg');
    const logo = /<img src="([^"]+)" width="(\d+)" height="(\d+)" alt="([^"]+)"/.exec(String(parsed.html));
    expect(logo?.slice(1)).to.deep.equal([`${stack.url}/email/logo.png`, '28', '28', 'Converge logo']);
    const image = await fetch(logo![1]!);
    expect(image.status).to.equal(200);
    expect(image.headers.get('content-type')).to.equal('image/png');
    expect(image.headers.get('cross-origin-resource-policy')).to.equal('cross-origin');
    expect(pngSize(Buffer.from(await image.arrayBuffer()))).to.deep.equal({ width: 56, height: 56 });

    const row = await until(async () => {
      const current = await stack.db('deliveries').where({ booking_id: id, kind: 'confirmation' }).first();
      return current?.sent_at ? current : undefined;
    }, 'the row to be marked sent');
    expect(row.attempts).to.equal(1);
    expect(row.last_error).to.equal(null);
  });

  it('retries a refused send with backoff: one e-mail, every attempt recorded', async () => {
    const before = stack.smtp.messages.length;
    stack.smtp.failNext(2);
    const [row] = await insertBookings(stack.db, [{ ...prospect, time_slot: new Date(nextBookableSlot().iso) }]);
    // The production backoff is seconds long; the same options with a short delay keep the test quick.
    const redis = new Redis(TEST_REDIS_URL);
    const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix: stack.queuePrefix });
    try {
      const job = await jobOfRow(stack.db, row!.emailId);
      await queue.add(job.name, job.payload, {
        jobId: jobIdOf(job),
        attempts: 6,
        backoff: { type: 'exponential', delay: 100 },
      });
    } finally {
      await queue.close();
      redis.disconnect();
    }
    const sent = await until(async () => {
      const current = await stack.db('deliveries').where({ id: row!.emailId }).first();
      return current?.sent_at ? current : undefined;
    }, 'the third attempt to succeed');
    expect(stack.smtp.refused).to.equal(2);
    expect(stack.smtp.messages.length - before).to.equal(1);
    expect(sent.attempts).to.equal(3);
    expect(sent.last_error).to.equal(null);
  });
});

describe('confirmation when Redis was down at submit time', () => {
  it('is still sent after Redis comes back empty: the sweep lives in the workers, not in Redis', async () => {
    const stack = await startStack({
      apiRedisUrl: 'redis://127.0.0.1:1',
      workerOptions: { sweepGraceMs: 0, sweepEveryMs: 300 },
    });
    try {
      // As if Redis restarted without its data (no persistence, or a failover to a fresh replica).
      await clearQueuePrefix(stack.queuePrefix);
      const id = await book(stack, { ...prospect, timeSlot: nextBookableSlot().iso });
      const [mail] = await stack.smtp.waitForMessages(1);
      expect(mail?.parsed.messageId).to.match(new RegExp(`^<demo-${id}@`));
    } finally {
      await stack.close();
    }
  });

  it('stores the request, and the sweep sends the confirmation later', async () => {
    const stack = await startStack({
      apiRedisUrl: 'redis://127.0.0.1:1',
      workerOptions: { sweepGraceMs: 0, sweepEveryMs: 300 },
    });
    try {
      const id = await book(stack, { ...prospect, timeSlot: nextBookableSlot().iso });
      const [mail] = await stack.smtp.waitForMessages(1);
      expect(mail?.envelopeTo).to.deep.equal([prospect.email]);
      const row = await until(async () => {
        const current = await stack.db('deliveries').where({ booking_id: id, kind: 'confirmation' }).first();
        return current?.sent_at ? current : undefined;
      }, 'the swept row to be marked sent');
      expect(row.attempts).to.equal(1);
    } finally {
      await stack.close();
    }
  });
});

describe('one try of a confirmation (deliver)', () => {
  let database: TestDatabase;
  let smtp: SmtpSink;
  let mailer: ReturnType<typeof createSendMail>;
  let deps: DeliveryDeps;

  before(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpSink();
    mailer = createSendMail(smtp.url);
    deps = {
      db: database.db,
      sendMail: mailer.sendMail,
      mailFrom: 'Converge Demos <demos@converge.test>',
      replyTo: 'Converge Sales <sales@converge.test>',
      timeZone: 'Europe/Berlin',
      publicUrl: 'https://converge.test',
      linkSecret: TEST_LINK_SECRET,
      logger: silentLogger,
    };
  });
  after(async () => {
    mailer.close();
    await smtp.close();
    await database.drop();
  });
  beforeEach(() => {
    smtp.messages.length = 0;
  });

  /** A booking and its confirmation: the booking's id, and the row's to send. */
  const insert = async (overrides: Record<string, string> = {}): Promise<{ id: string; emailId: string }> => {
    const [stored] = await insertBookings(database.db, [
      { ...prospect, time_slot: new Date('2026-12-01T09:00:00Z'), ...overrides },
    ]);
    return stored!;
  };
  const emailRow = (emailId: string) => database.db('deliveries').where({ id: emailId }).first();
  const dueRow = async (emailId: string) => ({ id: emailId, due: (await emailRow(emailId)).due_at.getTime() });

  it('sends once when the same job is delivered twice, even at the same moment', async () => {
    const { emailId } = await insert();
    const outcomes = await Promise.all([deliverRow(deps, emailId), deliverRow(deps, emailId)]);
    expect(outcomes.sort()).to.deep.equal(['claimed-elsewhere', 'sent']);
    expect(await deliverRow(deps, emailId)).to.equal('already-sent');
    expect(smtp.messages).to.have.length(1);
    const row = await emailRow(emailId);
    expect(row.attempts).to.equal(1);
  });

  it("marks the confirmation as the booking's own automatic message", async () => {
    const { id, emailId } = await insert();
    await deliverRow(deps, emailId);
    const [mail] = smtp.messages;
    expect(mail!.parsed.messageId).to.equal(`<demo-${id}@converge.test>`);
    expect(mail!.parsed.replyTo).to.deep.equal([{ name: 'Converge Sales', address: 'sales@converge.test' }]);
    expect(mail!.parsed.from).to.deep.equal({ name: 'Converge Demos', address: 'demos@converge.test' });
    const autoSubmitted = mail!.parsed.headers.find((header) => header.key === 'auto-submitted');
    expect(autoSubmitted?.value).to.equal('auto-generated');
  });

  it('leaves a live claim alone, and takes over one whose lease ran out (its worker died mid-send)', async () => {
    const { emailId } = await insert();
    await database
      .db('deliveries')
      .where({ id: emailId })
      .update({ claimed_until: database.db.raw("now() + interval '1 minute'") });
    expect(await deliverRow(deps, emailId)).to.equal('claimed-elsewhere');
    expect(await findDue(database.db, 0)).to.not.deep.include(await dueRow(emailId));
    expect(smtp.messages).to.have.length(0);
    await database
      .db('deliveries')
      .where({ id: emailId })
      .update({ claimed_until: database.db.raw("now() - interval '1 second'") });
    expect(await findDue(database.db, 0)).to.deep.include(await dueRow(emailId));
    expect(await deliverRow(deps, emailId)).to.equal('sent');
    const row = await emailRow(emailId);
    expect(row.claimed_until).to.equal(null);
    expect(smtp.messages).to.have.length(1);
  });

  it('sweeps in one process at a time', async () => {
    const { emailId } = await insert();
    const holder = await database.db.transaction();
    try {
      await holder.raw("SELECT pg_advisory_xact_lock(hashtextextended('converge:outbox-sweep', 0))");
      expect(await sweepOutbox(database.db, async () => {}, 0)).to.equal(null);
    } finally {
      await holder.rollback();
    }
    const swept: QueuedJob[] = [];
    const job = await jobOfRow(database.db, emailId);
    expect(await sweepOutbox(database.db, async (pending) => void swept.push(pending), 0)).to.deep.include(job);
    expect(swept).to.deep.include(job);
  });

  it('does nothing for a row that no longer exists', async () => {
    expect(await deliverRow(deps, '00000000-0000-4000-8000-000000000000')).to.equal('missing');
    expect(smtp.messages).to.have.length(0);
  });

  it('records a failed send on the row and throws so the queue retries', async () => {
    const { emailId } = await insert();
    smtp.failNext(1);
    let thrown: unknown;
    await deliverRow(deps, emailId).catch((err: unknown) => (thrown = err));
    expect(thrown).to.be.instanceOf(Error);
    const row = await emailRow(emailId);
    expect(row).to.include({ sent_at: null, attempts: 1 });
    expect(row.last_error).to.contain('451');
  });

  it('gives up on a permanent refusal, records it without the address, and the sweep leaves the row alone', async () => {
    const { emailId } = await insert({ email: 'nobody.here@hopper-systems.com' });
    smtp.failNext(1, { code: 550, message: '5.1.1 <nobody.here@hopper-systems.com>: Recipient address rejected' });
    let thrown: unknown;
    await deliverRow(deps, emailId).catch((err: unknown) => (thrown = err));
    expect(thrown).to.be.instanceOf(UnrecoverableError);
    expect((thrown as Error).message).to.not.contain('nobody.here');
    const row = await emailRow(emailId);
    expect(row.failed_at).to.be.instanceOf(Date);
    expect(row.last_error).to.contain('550').and.contain('[address]').and.not.contain('nobody.here');
    const swept: string[] = [];
    await sweepOutbox(database.db, async (pending) => void swept.push(jobIdOf(pending)), 0);
    expect(swept).to.not.include(jobIdOf(await jobOfRow(database.db, emailId)));
  });

  it('escapes what the prospect typed: no markup, no extra headers or recipients', async () => {
    const { emailId } = await insert({
      // The greeting takes the first word, so the markup sits in it.
      name: 'Eve<script>alert(1)</script>\r\nBcc: victim@example.com',
      company: 'Evil & Co "<b>"\nX-Injected: yes',
    });
    await deliverRow(deps, emailId);
    const [mail] = smtp.messages;
    expect(mail?.envelopeTo).to.deep.equal([prospect.email]);
    const headerBlock = mail!.raw.slice(0, mail!.raw.indexOf('\r\n\r\n'));
    expect(headerBlock).to.not.match(/^Bcc:/im);
    expect(headerBlock).to.not.match(/^X-Injected:/im);
    expect(mail!.parsed.html).to.not.contain('<script>');
    expect(mail!.parsed.html).to.contain('<p>Hi Eve&lt;script&gt;alert(1)&lt;/script&gt;,</p>');
    expect(mail!.parsed.to?.[0]?.name).to.equal('Eve<script>alert(1)</script> Bcc: victim@example.com');
    expect(mail!.parsed.html).to.contain('Evil &amp; Co &quot;&lt;b&gt;&quot; X-Injected: yes').and.not.contain('<b>');
    expect(mail!.parsed.text).to.contain('Hi Eve<script>alert(1)</script>,');
    const invite = mail!.parsed.attachments.find((part) => part.mimeType === 'text/calendar');
    const content = typeof invite!.content === 'string' ? invite!.content : new TextDecoder().decode(invite!.content);
    expect(content.split('\r\n').some((line) => line.startsWith('X-Injected'))).to.equal(false);
  });
});

/** A worker with a database, an SMTP sink and a queue of its own, and a handle on that queue to add jobs by hand. */
async function withLoneWorker(
  logger: pino.Logger,
  body: (parts: { queue: Queue; smtp: SmtpSink; database: TestDatabase }) => Promise<void>,
): Promise<void> {
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
    logger,
    { sweepEveryMs: 60_000 },
  );
  const redis = new Redis(TEST_REDIS_URL);
  const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix });
  try {
    await body({ queue, smtp, database });
  } finally {
    await queue.close();
    redis.disconnect();
    await worker.close();
    await smtp.close();
    await database.drop();
    await clearQueuePrefix(prefix);
  }
}

describe('a job for a row this database does not hold (another deployment on the same Redis)', () => {
  it('is said once and handed back through its retries rather than consumed at once', async () => {
    const lines: { msg: string; deliveryId?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as { msg: string });
        done();
      },
    });
    await withLoneWorker(pino({ level: 'info' }, sink), async ({ queue, smtp }) => {
      const id = '00000000-0000-4000-8000-000000000001';
      await queue.add(
        DELIVER_JOB,
        { deliveryId: id, dueAt: Date.now() },
        { jobId: id, attempts: 3, backoff: { type: 'fixed', delay: 100 } },
      );
      const job = await until(async () => {
        // Read again once finished: a job read before it finished does not hold its result.
        const current = await queue.getJob(id);
        return (await current?.getState()) === 'completed' ? queue.getJob(id) : undefined;
      }, 'the job to run out of tries');
      expect(job.returnvalue).to.equal('missing');
      expect(job.attemptsMade).to.equal(3);
      expect(lines.filter((line) => line.deliveryId === id && /does not hold/.test(line.msg))).to.have.length(1);
      expect(lines.filter((line) => line.msg === 'job failed')).to.have.length(0);
      expect(smtp.messages).to.have.length(0);
    });
  });
});

describe('a job whose name the worker does not know', () => {
  it('fails for good, naming it, and sends nothing', async () => {
    await withLoneWorker(silentLogger, async ({ queue, smtp }) => {
      await queue.add(
        'send-postcard',
        { emailId: '00000000-0000-4000-8000-000000000002' },
        { jobId: 'postcard-1', attempts: 3 },
      );
      const job = await until(async () => {
        const current = await queue.getJob('postcard-1');
        return (await current?.getState()) === 'failed' ? queue.getJob('postcard-1') : undefined;
      }, 'the job to fail');
      expect(job.failedReason).to.equal('unknown job name "send-postcard"');
      expect(job.attemptsMade, 'not retried').to.equal(1);
      expect(smtp.messages).to.have.length(0);
    });
  });

  it("of an earlier release (a rolling upgrade): fails for good, naming it, and the sweep enqueues its row as a 'deliver'", async () => {
    await withLoneWorker(silentLogger, async ({ queue, smtp, database }) => {
      const [row] = await insertBookings(database.db, [{ ...prospect, time_slot: new Date(nextBookableSlot().iso) }]);
      await queue.add('send-email', { emailId: row!.emailId }, { jobId: 'earlier-1', attempts: 3 });
      const job = await until(async () => {
        const current = await queue.getJob('earlier-1');
        return (await current?.getState()) === 'failed' ? queue.getJob('earlier-1') : undefined;
      }, 'the job to fail');
      expect(job.failedReason).to.include('"send-email" job of an earlier release');
      expect(job.attemptsMade, 'not retried').to.equal(1);
      expect(smtp.messages).to.have.length(0);
      // Null while the worker's own sweep holds the lock.
      const swept = await until(
        async () => (await sweepOutbox(database.db, async () => {}, 0)) ?? undefined,
        'a sweep of its own',
      );
      expect(swept).to.deep.include(await jobOfRow(database.db, row!.emailId));
    });
  });
});
