/** The guards on a booking, tried the way a double click, a retry, a crowd and a bot would. */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { SLOT_ALREADY_BOOKED_MESSAGE, SLOT_TAKEN_MESSAGE, type DaySlots } from '../../domain/booking.js';
import { INVISIBLE_EMAIL_MESSAGE } from '../../domain/email-messages.js';
import { DELIVERY_QUEUE } from '../../server-shared/jobs.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { TEST_REDIS_URL } from '../../test/stack.js';
import { until } from '../../test/until.js';

// Monday 23 November 2026, 10:30 in Berlin.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const TUESDAY_9 = '2026-11-24T08:00:00.000Z';
const TUESDAY_10 = '2026-11-24T09:00:00.000Z';
const TUESDAY_11 = '2026-11-24T10:00:00.000Z';

let people = 0;
/** A booking by a new person at a company of their own, so no ceiling is near unless a test wants it. */
function newPerson(timeSlot = TUESDAY_9, overrides: Record<string, string> = {}) {
  people += 1;
  return {
    name: `Person ${people}`,
    email: `person${people}@company-${people}.com`,
    company: `Company ${people}`,
    timeSlot,
    ...overrides,
  };
}

async function queuedJobs(app: AppUnderTest): Promise<number> {
  const redis = new Redis(TEST_REDIS_URL);
  const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix: app.queuePrefix });
  try {
    return await queue.count();
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

const rows = async (app: AppUnderTest) => Number((await app.db('bookings').count({ n: '*' }).first())?.n);

describe('booking guards', () => {
  let app: AppUnderTest;
  const logLines: Record<string, unknown>[] = [];
  before(async () => {
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    app = await startAppUnderTest({
      now: () => NOW,
      logger,
      bookingLimits: { slotCapacity: 1, perEmailPerDay: 3, perDomainPerDay: 4 },
    });
  });
  after(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.db('bookings').del();
    await app.db('idempotency_keys').del();
    logLines.length = 0;
  });

  describe('slot capacity', () => {
    it('gives one slot to exactly one of twenty people asking at the same moment; the others are told it was just taken', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => app.post('/api/demo-request', newPerson(TUESDAY_10))),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(
        statuses.filter((status) => status === 201),
        statuses.join(' '),
      ).to.have.length(1);
      expect(
        statuses.filter((status) => status === 409),
        statuses.join(' '),
      ).to.have.length(19);
      for (const refused of answers.filter((answer) => answer.status === 409)) {
        expect(refused.body).to.deep.equal({
          error: 'Slot taken',
          details: SLOT_TAKEN_MESSAGE,
          fields: { timeSlot: SLOT_TAKEN_MESSAGE },
        });
      }
      expect(
        await app
          .db('bookings')
          .where({ time_slot: new Date(TUESDAY_10) })
          .count({ n: '*' })
          .first(),
      ).to.deep.equal({ n: '1' });
    });

    it('takes as many bookings as SLOT_CAPACITY allows, under the same race', async () => {
      const roomy = await startAppUnderTest({
        now: () => NOW,
        bookingLimits: { slotCapacity: 3, perEmailPerDay: 3, perDomainPerDay: 20 },
      });
      try {
        const answers = await Promise.all(
          Array.from({ length: 12 }, () => roomy.post('/api/demo-request', newPerson(TUESDAY_10))),
        );
        expect(answers.filter((answer) => answer.status === 201)).to.have.length(3);
        expect(answers.filter((answer) => answer.status === 409)).to.have.length(9);
        expect(await rows(roomy)).to.equal(3);
      } finally {
        await roomy.close();
      }
    });

    it('does not let one person hold the same slot twice, whatever the case of the address', async () => {
      const roomy = await startAppUnderTest({
        now: () => NOW,
        bookingLimits: { slotCapacity: 5, perEmailPerDay: 3, perDomainPerDay: 20 },
      });
      try {
        const first = newPerson(TUESDAY_11);
        expect((await roomy.post('/api/demo-request', first)).status).to.equal(201);
        const again = await roomy.post('/api/demo-request', {
          ...first,
          email: first.email.toUpperCase(),
          name: 'Someone Else',
        });
        expect(again.status).to.equal(409);
        expect(again.body).to.deep.equal({
          error: 'Already booked',
          details: SLOT_ALREADY_BOOKED_MESSAGE,
          fields: { timeSlot: SLOT_ALREADY_BOOKED_MESSAGE },
        });
        expect(await rows(roomy)).to.equal(1);
      } finally {
        await roomy.close();
      }
    });
  });

  describe('GET /api/slots', () => {
    it("answers a day's 17 slots, with the past, the full and the weekend ones unavailable", async () => {
      expect((await app.post('/api/demo-request', newPerson(TUESDAY_10))).status).to.equal(201);
      const response = await fetch(`${app.url}/api/slots?date=2026-11-24`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('cache-control')).to.equal('no-store');
      const day = (await response.json()) as DaySlots;
      expect(day.date).to.equal('2026-11-24');
      expect(day.timeZone).to.equal('Europe/Berlin');
      expect(day.slots).to.have.length(17);
      expect(day.slots[0]).to.deep.equal({ start: '2026-11-24T06:00:00.000Z', available: true });
      expect(day.slots.filter((slot) => !slot.available).map((slot) => slot.start)).to.deep.equal([TUESDAY_10]);

      // Today, Monday 10:30 in Berlin: 07:00 to 10:00 have passed, and 11:00 and 12:00 are sooner than two hours' notice.
      const today = (await (await fetch(`${app.url}/api/slots?date=2026-11-23`)).json()) as DaySlots;
      expect(today.slots.filter((slot) => !slot.available)).to.have.length(6);
      const saturday = (await (await fetch(`${app.url}/api/slots?date=2026-11-28`)).json()) as DaySlots;
      expect(saturday.slots.every((slot) => !slot.available)).to.equal(true);
      const beyondWindow = (await (await fetch(`${app.url}/api/slots?date=2027-01-05`)).json()) as DaySlots;
      expect(beyondWindow.slots.every((slot) => !slot.available)).to.equal(true);
    });

    it('refuses a date that is not a real YYYY-MM-DD day with the error body', async () => {
      for (const date of ['', 'tomorrow', '2026-02-30', '2026-11-24T00:00:00Z', '24.11.2026']) {
        const response = await fetch(`${app.url}/api/slots?date=${encodeURIComponent(date)}`);
        expect(response.status, date).to.equal(400);
        expect(await response.json(), date).to.deep.equal({
          error: 'Invalid date',
          details: 'Give the day as date=YYYY-MM-DD, for example date=2026-11-24.',
        });
      }
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeated submission with the first answer: no second row, no second e-mail job', async () => {
      const body = newPerson(TUESDAY_9);
      const key = { 'Idempotency-Key': 'submit-3f6c2a1e-double-click' };
      const jobsBefore = await queuedJobs(app);
      const first = await app.post('/api/demo-request', body, key);
      expect(first.status).to.equal(201);
      const again = await app.post('/api/demo-request', body, key);
      expect(again.status).to.equal(201);
      expect(again.body).to.deep.equal(first.body);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(await rows(app)).to.equal(1);
      // The job is queued behind the first answer, not before it: wait for it, then count.
      await until(
        async () => ((await queuedJobs(app)) >= jobsBefore + 1 ? true : undefined),
        "the first booking's job",
      );
      expect(await queuedJobs(app)).to.equal(jobsBefore + 1);
    });

    it('gives ten concurrent copies of one submission one booking', async () => {
      const body = newPerson(TUESDAY_11);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          app.post('/api/demo-request', body, { 'Idempotency-Key': 'retry-storm-0001' }),
        ),
      );
      expect(answers.map((answer) => answer.status)).to.deep.equal(Array(10).fill(201));
      expect(new Set(answers.map((answer) => answer.body.id)).size).to.equal(1);
      expect(await rows(app)).to.equal(1);
    });

    it('refuses the same key with another body (422), and a malformed key (400)', async () => {
      const key = { 'Idempotency-Key': 'submit-reused-key-42' };
      expect((await app.post('/api/demo-request', newPerson(TUESDAY_9), key)).status).to.equal(201);
      const other = await app.post('/api/demo-request', newPerson(TUESDAY_10), key);
      expect(other.status).to.equal(422);
      expect(other.body).to.deep.equal({
        error: 'Idempotency key reused',
        details: 'This Idempotency-Key was already used for a different request. Send a new key with each new request.',
      });
      const malformed = await app.post('/api/demo-request', newPerson(TUESDAY_10), { 'Idempotency-Key': 'short' });
      expect(malformed.status).to.equal(400);
      expect(malformed.body.error).to.equal('Invalid idempotency key');
      expect(await rows(app)).to.equal(1);
    });

    it('keeps nothing for a submission that failed, so its retry with the same key is answered afresh', async () => {
      expect((await app.post('/api/demo-request', newPerson(TUESDAY_9))).status).to.equal(201);
      const key = { 'Idempotency-Key': 'retry-after-conflict' };
      const body = newPerson(TUESDAY_9);
      expect((await app.post('/api/demo-request', body, key)).status).to.equal(409);
      await app.db('bookings').del();
      expect((await app.post('/api/demo-request', body, key)).status).to.equal(201);
    });

    it('forgets a key after 24 hours', async () => {
      const key = { 'Idempotency-Key': 'yesterdays-key-0001' };
      expect((await app.post('/api/demo-request', newPerson(TUESDAY_9), key)).status).to.equal(201);
      await app.db('idempotency_keys').update({ created_at: app.db.raw("now() - interval '25 hours'") });
      expect((await app.post('/api/demo-request', newPerson(TUESDAY_10), key)).status).to.equal(201);
    });
  });

  describe('the form cannot be used to mail strangers', () => {
    it('answers a filled honeypot like a booking, stores and queues nothing, and logs it', async () => {
      const body = { ...newPerson(TUESDAY_9), website: 'http://spam.example' };
      const jobsBefore = await queuedJobs(app);
      const response = await app.post('/api/demo-request', body);
      expect(response.status).to.equal(201);
      expect(Object.keys(response.body).sort()).to.deep.equal([
        'createdAt',
        'id',
        'invitePath',
        'meetingUrl',
        'timeSlot',
      ]);
      expect(response.body.id).to.match(/^[0-9a-f-]{36}$/);
      // Its invitation link looks like a real one and opens like one (honeypot.test.ts compares them in full).
      expect(response.body.invitePath).to.match(/^\/api\/bookings\/[A-Za-z0-9_-]{43}\/invite\.ics$/);
      expect((await fetch(`${app.url}${String(response.body.invitePath)}`)).status).to.equal(200);
      expect(response.body.timeSlot).to.equal(TUESDAY_9);
      expect(await rows(app)).to.equal(0);
      expect(await queuedJobs(app)).to.equal(jobsBefore);
      expect(
        logLines.some((line) => line.msg === 'honeypot filled: answered as a booking, nothing booked or sent'),
      ).to.equal(true);
      // Left empty, as the form sends it, the field changes nothing.
      expect((await app.post('/api/demo-request', { ...newPerson(TUESDAY_9), website: '' })).status).to.equal(201);
      expect(await rows(app)).to.equal(1);
    });

    it('confirms at most 3 bookings to one address in 24 hours, then answers 429 saying why', async () => {
      const email = 'ada@analytical-engines.com';
      for (const slot of [TUESDAY_9, TUESDAY_10, TUESDAY_11]) {
        expect((await app.post('/api/demo-request', newPerson(slot, { email }))).status, slot).to.equal(201);
      }
      const fourth = await app.post(
        '/api/demo-request',
        newPerson('2026-11-24T11:00:00.000Z', { email: 'ADA@analytical-engines.com' }),
      );
      expect(fourth.status).to.equal(429);
      expect(fourth.body.details).to.equal(
        'This email address has already booked 3 demos in the last 24 hours, the most we confirm to one address in a day. Please try again later.',
      );
      expect(fourth.body.fields).to.deep.equal({ email: fourth.body.details });
      expect(Number(fourth.headers.get('retry-after'))).to.be.within(86_000, 86_400);
      expect(await rows(app)).to.equal(3);
      // A day later the address may book again.
      await app.db('bookings').update({ created_at: app.db.raw("now() - interval '25 hours'") });
      expect((await app.post('/api/demo-request', newPerson('2026-11-24T11:00:00.000Z', { email }))).status).to.equal(
        201,
      );
    });

    it('holds a per-domain ceiling, even against a crowd of addresses at one domain', async () => {
      // This app's ceiling is 4 a domain.
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          app.post(
            '/api/demo-request',
            newPerson(`2026-11-25T${String(7 + i).padStart(2, '0')}:00:00.000Z`, { email: `user${i}@Spam-Target.com` }),
          ),
        ),
      );
      expect(answers.filter((answer) => answer.status === 201)).to.have.length(4);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).to.have.length(6);
      expect(refused[0]?.body.details).to.match(
        /^Your company's email domain has reached the most demo bookings we take from one domain in 24 hours\./,
      );
    });
  });

  describe('text hygiene', () => {
    it('removes zero-width and bidirectional control characters from what is stored', async () => {
      const response = await app.post(
        '/api/demo-request',
        newPerson(TUESDAY_9, {
          name: 'Ada\u200b Love\u202elace\u2066',
          company: '\ufeffAcme\u200d Corp\u061c',
          message: 'Hi\u2067 there\u200f\nsecond line',
        }),
      );
      expect(response.status).to.equal(201);
      const row = await app.db('bookings').where({ id: response.body.id }).first();
      expect(row).to.include({ name: 'Ada Lovelace', company: 'Acme Corp', message: 'Hi there\nsecond line' });
    });

    it('refuses an e-mail address that holds one, in the booking and in the e-mail check', async () => {
      for (const email of [
        'ada\u200b@acme-industries.com',
        'ada@acme\u200b-industries.com',
        'ada@\u202emoc.lieve.com',
      ]) {
        const booking = await app.post('/api/demo-request', newPerson(TUESDAY_9, { email }));
        expect(booking.status, JSON.stringify(email)).to.equal(400);
        expect(booking.body.fields).to.deep.equal({ email: INVISIBLE_EMAIL_MESSAGE });
        const check = await app.post('/api/validate-email', { email });
        expect(check.body).to.deep.include({ isValid: false, reason: INVISIBLE_EMAIL_MESSAGE });
      }
      expect(await rows(app)).to.equal(0);
    });
  });
});
