import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { DELIVERY_QUEUE, DELIVER_JOB, deliveryJob, jobIdOf } from '../../server-shared/jobs.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { timeOfTimeOrderedId } from '../../test/time-ordered-id.js';

// Monday 23 November 2026, 10:30 in Berlin.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const SLOT = '2026-11-24T08:00:00.000Z'; // Tuesday 09:00 Berlin

const valid = {
  name: 'Ada Lovelace',
  email: 'ada@analytical-engines.com',
  company: 'Analytical Engines Ltd',
  timeSlot: SLOT,
  phone: '+1 (555) 123-4567',
  message: 'We send 2M SMS a month and want to add WhatsApp.',
};

describe('POST /api/demo-request', () => {
  let app: AppUnderTest;

  before(async () => {
    app = await startAppUnderTest({ now: () => NOW });
    // Redis connected (a job that finds it still connecting is left to the sweep, and this file looks for the job).
    await until(async () => ((await fetch(`${app.url}/readyz`)).ok ? true : undefined), 'the API ready');
  });
  after(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.db('bookings').del();
  });

  async function expectRefused(body: unknown, field: string, details: string): Promise<void> {
    const response = await app.post('/api/demo-request', body);
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body.error).to.equal('Invalid demo request');
    expect(response.body.details).to.equal(details);
    expect(response.body.fields).to.deep.equal({ [field]: details });
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
  }

  it('stores a valid request, answers 201 and queues its confirmation under the id of its outbox row', async () => {
    // An extra key (an id of the sender's choosing, say) is refused: api/extra-keys.test.ts.
    const response = await app.post('/api/demo-request', { ...valid, name: '  Ada Lovelace ' });
    expect(response.status).to.equal(201);
    expect(Object.keys(response.body).sort()).to.deep.equal([
      'createdAt',
      'id',
      'invitePath',
      'meetingUrl',
      'timeSlot',
    ]);
    expect(response.body.meetingUrl).to.match(/^https:\/\/meet\.jit\.si\/ConvergeDemo-[a-z2-7]{20}$/);
    expect(response.body.timeSlot).to.equal(SLOT);
    expect(response.body.invitePath).to.equal(
      `/api/bookings/${bookingToken(String(response.body.id), TEST_LINK_SECRET)}/invite.ics`,
    );
    const row = await app.db('bookings').where({ id: response.body.id }).first();
    expect(row).to.include({
      name: 'Ada Lovelace',
      email: valid.email,
      company: valid.company,
      phone: valid.phone,
      message: valid.message,
    });
    expect(row.time_slot.toISOString()).to.equal(SLOT);
    const confirmation = await app
      .db('deliveries')
      .where({ booking_id: response.body.id, kind: 'confirmation' })
      .first();
    expect(confirmation).to.include({ sent_at: null, attempts: 0, sequence: 0, recipient: null });
    // Both ids time-ordered (UUID version 7), their first 48 bits the milliseconds of the booking.
    for (const id of [String(response.body.id), String(confirmation.id)]) {
      expect(Math.abs(timeOfTimeOrderedId(id) - row.created_at.getTime())).to.be.below(1000);
    }

    const redis = new Redis(TEST_REDIS_URL);
    const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix: app.queuePrefix });
    try {
      // Queued behind the answer, not before it.
      const dueAt = (confirmation.due_at as Date).getTime();
      const queued = deliveryJob(confirmation.id, dueAt);
      const job = await until(async () => (await queue.getJob(jobIdOf(queued))) ?? undefined, 'the confirmation job');
      expect({ name: job.name, data: job.data }).to.deep.equal({
        name: DELIVER_JOB,
        data: { deliveryId: confirmation.id, dueAt },
      });
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });

  it('stores empty optional fields as null', async () => {
    const response = await app.post('/api/demo-request', { ...valid, phone: '   ', message: '' });
    expect(response.status).to.equal(201);
    const row = await app.db('bookings').where({ id: response.body.id }).first();
    expect(row.phone).to.equal(null);
    expect(row.message).to.equal(null);
  });

  it('requires name, email, company and time slot, white space counting as empty', async () => {
    await expectRefused({ ...valid, name: '   ' }, 'name', 'Name is required.');
    await expectRefused({ ...valid, company: '' }, 'company', 'Company is required.');
    await expectRefused({ ...valid, email: ' ' }, 'email', 'Email is required.');
    const { timeSlot: _omitted, ...withoutSlot } = valid;
    await expectRefused(withoutSlot, 'timeSlot', 'Please select a date and time.');
  });

  it('lists every failing field at once', async () => {
    const response = await app.post('/api/demo-request', {});
    expect(response.status).to.equal(400);
    expect(response.body.fields).to.deep.equal({
      name: 'Name is required.',
      email: 'Email is required.',
      company: 'Company is required.',
      timeSlot: 'Please select a date and time.',
    });
  });

  it('caps field lengths', async () => {
    await expectRefused({ ...valid, name: 'x'.repeat(201) }, 'name', 'Name must be at most 200 characters.');
    await expectRefused({ ...valid, company: 'x'.repeat(201) }, 'company', 'Company must be at most 200 characters.');
    await expectRefused(
      { ...valid, email: `${'a'.repeat(250)}@acme.com` },
      'email',
      'Email must be at most 254 characters.',
    );
    await expectRefused({ ...valid, phone: '1'.repeat(41) }, 'phone', 'Phone must be at most 40 characters.');
    await expectRefused({ ...valid, message: 'x'.repeat(5001) }, 'message', 'Message must be at most 5000 characters.');
    const longest = await app.post('/api/demo-request', { ...valid, name: 'x'.repeat(200), message: 'y'.repeat(5000) });
    expect(longest.status).to.equal(201);
  });

  it('refuses values that are not text', async () => {
    await expectRefused({ ...valid, name: 42 }, 'name', 'Name must be text.');
    await expectRefused({ ...valid, phone: ['555'] }, 'phone', 'Phone must be text.');
  });

  it('refuses malformed addresses, personal providers and disposable domains', async () => {
    await expectRefused(
      { ...valid, email: 'ada.analytical-engines.com' },
      'email',
      'Please enter a valid email address.',
    );
    await expectRefused(
      { ...valid, email: ' Ada@GMail.COM ' },
      'email',
      'Please use your company email address. Personal email addresses are not accepted.',
    );
    await expectRefused(
      { ...valid, email: 'ada@mail.ru' },
      'email',
      'Please use your company email address. Personal email addresses are not accepted.',
    );
    await expectRefused(
      { ...valid, email: 'ada@mailinator.com' },
      'email',
      'Disposable email addresses are not accepted. Please use your company email address.',
    );
  });

  it('accepts only bookable slots inside the next month', async () => {
    const window = 'Please select a date and time within the next month.';
    await expectRefused({ ...valid, timeSlot: 'next tuesday' }, 'timeSlot', window);
    await expectRefused({ ...valid, timeSlot: '2026-11-23T09:00:00.000Z' }, 'timeSlot', window);
    await expectRefused({ ...valid, timeSlot: NOW.toISOString() }, 'timeSlot', window);
    await expectRefused({ ...valid, timeSlot: '2026-12-24T08:00:00.000Z' }, 'timeSlot', window);
    await expectRefused(
      { ...valid, timeSlot: '2026-11-28T09:00:00.000Z' },
      'timeSlot',
      'Demos run Monday to Friday. Please choose a weekday.',
    );
    const hours = 'Please choose a whole-hour slot between 07:00 and 23:00 Europe Time.';
    await expectRefused({ ...valid, timeSlot: '2026-11-24T08:15:00.000Z' }, 'timeSlot', hours);
    await expectRefused({ ...valid, timeSlot: '2026-11-24T05:00:00.000Z' }, 'timeSlot', hours);
    const lastSlotOfWindow = await app.post('/api/demo-request', { ...valid, timeSlot: '2026-12-23T09:00:00.000Z' });
    expect(lastSlotOfWindow.status).to.equal(201);
  });

  it('refuses a slot sooner than the notice allows (MIN_NOTICE_MINUTES) with the window message, as GET /api/slots greys it', async () => {
    const window = 'Please select a date and time within the next month.';
    // 10:30 in Berlin: 12:00 is 90 minutes away, 13:00 two and a half hours.
    await expectRefused({ ...valid, timeSlot: '2026-11-23T11:00:00.000Z' }, 'timeSlot', window);
    const today = (await (await fetch(`${app.url}/api/slots?date=2026-11-23`)).json()) as {
      slots: { start: string; available: boolean }[];
    };
    const open = today.slots.filter((slot) => slot.available).map((slot) => slot.start);
    expect(open[0]).to.equal('2026-11-23T12:00:00.000Z');
    const soon = await startAppUnderTest({ now: () => NOW, minNoticeMinutes: 30 });
    try {
      expect(
        (await soon.post('/api/demo-request', { ...valid, timeSlot: '2026-11-23T10:00:00.000Z' })).status,
      ).to.equal(201);
    } finally {
      await soon.close();
    }
  });

  it('answers 400 to malformed JSON, 415 to other media types and 413 above 16 KB', async () => {
    const malformed = await app.post('/api/demo-request', '{"name": "Ada",');
    expect(malformed.status).to.equal(400);
    expect(malformed.body).to.deep.equal({ error: 'Malformed JSON', details: 'The request body is not valid JSON.' });

    const form = await fetch(`${app.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada',
    });
    expect(form.status).to.equal(415);
    expect(await form.json()).to.deep.include({ error: 'Unsupported media type' });

    const huge = await app.post('/api/demo-request', { ...valid, message: 'x'.repeat(17 * 1024) });
    expect(huge.status).to.equal(413);
    expect(huge.body).to.deep.equal({ error: 'Payload too large', details: 'The request body is larger than 16 KB.' });

    const array = await app.post('/api/demo-request', [valid]);
    expect(array.status).to.equal(400);
    expect(array.body.details).to.equal('The request body must be a JSON object.');
  });

  it('answers unknown API paths and methods with JSON', async () => {
    const missing = await app.post('/api/nothing-here', {});
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({
      error: 'Not found',
      details: 'There is no API endpoint at POST /api/nothing-here.',
    });
    const wrongMethod = await fetch(`${app.url}/api/demo-request`);
    expect(wrongMethod.status).to.equal(405);
    expect(await wrongMethod.json()).to.deep.equal({
      error: 'Method not allowed',
      details: 'GET is not allowed on /api/demo-request.',
    });
  });

  it('sends back the caller request id, or makes one', async () => {
    const given = await app.post('/api/validate-email', { email: 'ada@acme.com' }, { 'X-Request-Id': 'trace-123' });
    expect(given.headers.get('x-request-id')).to.equal('trace-123');
    const made = await app.post(
      '/api/validate-email',
      { email: 'ada@acme.com' },
      { 'X-Request-Id': 'bad id\twith spaces' },
    );
    expect(made.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('books at POST /api/bookings too, the same route: a key used at one path answers again at the other, one row stored', async () => {
    const key = { 'Idempotency-Key': 'alias-7d1c0b52-one-route' };
    const first = await app.post('/api/bookings', valid, key);
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const again = await app.post('/api/demo-request', valid, key);
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '1' });
    const refused = await app.post('/api/bookings', { ...valid, email: 'ada@gmail.com' });
    expect(refused.status).to.equal(400);
    expect(refused.body.fields).to.have.property('email');
  });
});

describe('POST /api/demo-request when a service is down', () => {
  it('still stores the request when Redis is unreachable: the confirmation stays pending', async () => {
    const app = await startAppUnderTest({ now: () => NOW, redisUrl: 'redis://127.0.0.1:1' });
    try {
      const started = Date.now();
      const response = await app.post('/api/demo-request', valid);
      expect(response.status).to.equal(201);
      expect(Date.now() - started, 'fails fast rather than waiting for Redis').to.be.below(5000);
      const confirmation = await app
        .db('deliveries')
        .where({ booking_id: response.body.id, kind: 'confirmation' })
        .first();
      expect(confirmation.sent_at).to.equal(null);
    } finally {
      await app.close();
    }
  });

  it('answers within seconds when PostgreSQL accepts connections but never answers', async function () {
    this.timeout(30_000);
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const app = await startAppUnderTest({ now: () => NOW, databaseUrl: `postgres://postgres@127.0.0.1:${port}/none` });
    try {
      let started = Date.now();
      const ready = await fetch(`${app.url}/readyz`);
      expect(ready.status).to.equal(503);
      expect(((await ready.json()) as { details: string }).details).to.equal('PostgreSQL is not answering.');
      expect(Date.now() - started, 'readiness is bounded').to.be.below(3500);
      started = Date.now();
      const response = await app.post('/api/demo-request', valid);
      expect(response.status).to.equal(503);
      expect(Date.now() - started, 'a request is not held').to.be.below(8000);
    } finally {
      await app.close();
      silent.close();
    }
  });

  it('answers 503 with a clear message and stores nothing when PostgreSQL is unreachable', async () => {
    const app = await startAppUnderTest({ now: () => NOW, databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      const response = await app.post('/api/demo-request', valid);
      expect(response.status).to.equal(503);
      expect(response.body).to.deep.equal({
        error: 'Service unavailable',
        details: 'We could not save your request right now. Nothing was stored; please try again in a few minutes.',
      });
      expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '0' });
    } finally {
      await app.close();
    }
  });
});

describe('requests the API must answer clearly', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ now: () => NOW });
  });
  after(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.db('bookings').del();
  });

  it('stores control characters folded, never failing on them', async () => {
    const response = await app.post('/api/demo-request', {
      ...valid,
      name: 'Ada\u0000 Lovelace',
      message: 'one\u0000\r\ntwo',
    });
    expect(response.status).to.equal(201);
    const row = await app.db('bookings').where({ id: response.body.id }).first();
    expect(row).to.include({ name: 'Ada Lovelace', message: 'one\ntwo' });
  });

  it('explains bodies that are JSON but not an object, and prototype keys', async () => {
    for (const body of ['null', '"text"', '123']) {
      const response = await app.post('/api/demo-request', body);
      expect(response.status, body).to.equal(400);
      expect(response.body).to.deep.equal({
        error: 'Invalid request body',
        details: 'The request body must be a JSON object.',
      });
    }
    const proto = await app.post('/api/demo-request', '{"__proto__": {"admin": true}, "name": "Ada"}');
    expect(proto.status).to.equal(400);
    expect(proto.body.details).to.equal('The request body must not contain a "__proto__" key.');
  });

  it('refuses a body declared in another charset than UTF-8', async () => {
    const response = await app.post('/api/demo-request', valid, { 'Content-Type': 'application/json; charset=latin1' });
    expect(response.status).to.equal(415);
    expect(response.body.details).to.equal(
      'Send the request body as UTF-8 JSON (Content-Type: application/json; charset=utf-8).',
    );
    const utf8 = await app.post('/api/demo-request', valid, { 'Content-Type': 'application/json; charset=UTF-8' });
    expect(utf8.status).to.equal(201);
  });

  it('answers unknown API paths in any case with JSON, and wrong methods on known paths with 405', async () => {
    const upper = await fetch(`${app.url}/API/nothing`);
    expect(upper.status).to.equal(404);
    expect(upper.headers.get('content-type')).to.match(/^application\/json/);
    const health = await fetch(`${app.url}/healthz`, { method: 'PUT' });
    expect(health.status).to.equal(405);
    expect(health.headers.get('allow')).to.contain('GET');
    const page = await fetch(`${app.url}/`, { method: 'POST' });
    expect(page.status).to.equal(405);
    expect(await page.json()).to.deep.equal({
      error: 'Method not allowed',
      details: 'POST is not allowed on /: pages are only read.',
    });
  });

  it('shows the 404 page for paths the file server refuses', async () => {
    for (const path of ['//', '/%E2%82', '/%2e%2e/etc/passwd']) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status, path).to.equal(404);
      expect(response.headers.get('content-type'), path).to.match(/^text\/html/);
      expect(await response.text(), path).to.contain('404 Page Not Found');
    }
  });

  it('says how long an e-mail to check may be', async () => {
    const response = await app.post('/api/validate-email', { email: `${'a'.repeat(250)}@acme.com` });
    expect(response.status).to.equal(400);
    expect(response.body.details).to.equal('Email must be at most 254 characters.');
  });
});
