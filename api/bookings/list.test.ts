import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';

const NOW = new Date('2026-11-23T09:30:00.000Z');
const TOKEN = 'ops-secret-token-of-at-least-32-characters';
const booking = {
  name: 'Ada',
  email: 'ada@analytical-engines.com',
  company: 'Analytical Engines',
  timeSlot: '2026-11-24T08:00:00.000Z',
};

describe('GET /api/demo-requests (operations)', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ now: () => NOW, adminToken: TOKEN });
  });
  after(async () => {
    await app.close();
  });

  const list = (authorization?: string) =>
    fetch(`${app.url}/api/demo-requests`, { headers: authorization ? { Authorization: authorization } : {} });

  it('refuses a missing or wrong token', async () => {
    for (const authorization of [undefined, 'Bearer nope', TOKEN, `Bearer ${TOKEN}2`]) {
      const response = await list(authorization);
      expect(response.status, String(authorization)).to.equal(401);
      expect(response.headers.get('www-authenticate')).to.equal('Bearer');
      expect(await response.json()).to.deep.equal({
        error: 'Unauthorized',
        details: 'This endpoint needs the operations token.',
      });
    }
  });

  it('lists the latest requests, newest first, with where each confirmation stands', async () => {
    const first = await app.post('/api/demo-request', booking);
    const second = await app.post('/api/demo-request', {
      ...booking,
      name: 'Grace',
      email: 'grace@hopper-systems.com',
      company: 'Hopper Systems',
      timeSlot: '2026-11-24T09:00:00.000Z',
    });
    await app
      .db('deliveries')
      .where({ booking_id: first.body.id, kind: 'confirmation' })
      .update({ sent_at: NOW, attempts: 1 });
    const response = await list(`Bearer ${TOKEN}`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    const { demoRequests } = (await response.json()) as { demoRequests: Array<Record<string, unknown>> };
    expect(demoRequests.map((request) => request.id)).to.deep.equal([second.body.id, first.body.id]);
    expect(demoRequests[1]).to.deep.include({ name: 'Ada', company: 'Analytical Engines', timeSlot: booking.timeSlot });
    expect(demoRequests[1]?.confirmation).to.deep.equal({
      sentAt: NOW.toISOString(),
      failedAt: null,
      droppedAt: null,
      attempts: 1,
      lastError: null,
    });
    expect(demoRequests[0]?.confirmation).to.deep.equal({
      sentAt: null,
      failedAt: null,
      droppedAt: null,
      attempts: 0,
      lastError: null,
    });
    expect(demoRequests[1]?.attribution).to.equal(null);
  });

  it('shows a confirmation that a cancellation overtook before it went out as dropped, not pending', async () => {
    const booked = await app.post('/api/demo-request', { ...booking, timeSlot: '2026-11-24T11:00:00.000Z' });
    const cancelled = await app.post(
      `/api/bookings/${bookingToken(String(booked.body.id), TEST_LINK_SECRET)}/cancel`,
      {},
    );
    expect(cancelled.status).to.equal(200);
    const { demoRequests } = (await (await list(`Bearer ${TOKEN}`)).json()) as {
      demoRequests: Array<{ status: string; confirmation: Record<string, unknown> }>;
    };
    expect(demoRequests[0]?.status).to.equal('cancelled');
    expect(demoRequests[0]?.confirmation).to.include({ sentAt: null, failedAt: null });
    expect(Number.isNaN(Date.parse(String(demoRequests[0]?.confirmation.droppedAt))), 'droppedAt is a date').to.equal(
      false,
    );
  });

  it('shows where each booking came from: the UTM parameters and referrer the page sent, cleaned, empty ones left out', async () => {
    const sent = await app.post('/api/demo-request', {
      ...booking,
      name: 'Katherine',
      email: 'katherine@langley-research.com',
      company: 'Langley Research',
      timeSlot: '2026-11-24T10:00:00.000Z',
      attribution: {
        utm_source: ' newsletter ',
        utm_medium: 'email',
        utm_campaign: 'q4\u200b-launch\n',
        utm_term: '',
        referrer: 'https://news.example.org/post',
      },
    });
    expect(sent.status).to.equal(201);
    const response = await list(`Bearer ${TOKEN}`);
    const { demoRequests } = (await response.json()) as { demoRequests: Array<Record<string, unknown>> };
    expect(demoRequests.find((request) => request.id === sent.body.id)?.attribution).to.deep.equal({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'q4-launch',
      referrer: 'https://news.example.org/post',
    });
  });

  it('pages through every booking with the `next` cursor, each once, newest first, ties in one order, and refuses a made-up cursor', async () => {
    // 230 bookings more, many stored in the same microsecond (as one bulk insert stores them).
    await app.db.raw(
      `INSERT INTO bookings (name, email, company, time_slot, created_at)
         SELECT 'Bulk ' || n, 'bulk' || n || '@paging.example', 'Paging', '2026-11-24T08:00:00Z', '2026-11-20T10:00:00Z'::timestamptz + (n / 7) * interval '1 second'
         FROM generate_series(1, 230) AS n`,
    );
    const expected = (await app
      .db('bookings')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .pluck('id')) as string[];
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const response = await fetch(`${app.url}/api/demo-requests${cursor === null ? '' : `?cursor=${cursor}`}`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).to.equal(200);
      const page = (await response.json()) as { demoRequests: { id: string }[]; next: string | null };
      seen.push(...page.demoRequests.map((request) => request.id));
      sizes.push(page.demoRequests.length);
      cursor = page.next;
    } while (cursor !== null);
    expect(seen).to.deep.equal(expected);
    expect(
      sizes.slice(0, -1).every((size) => size === 100),
      String(sizes),
    ).to.equal(true);
    expect(sizes.length).to.equal(Math.ceil(expected.length / 100));

    for (const cursor of ['nonsense', Buffer.from("2026-11-20T10:00:00.000000Z' OR 1=1").toString('base64url')]) {
      const refused = await fetch(`${app.url}/api/demo-requests?cursor=${cursor}`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(refused.status).to.equal(400);
      expect(await refused.json()).to.deep.equal({
        error: 'Invalid cursor',
        details: 'The cursor must be the `next` value of an earlier page of this list.',
      });
    }
    await app.db('bookings').where('email', 'like', '%@paging.example').delete();
  });

  it('refuses attribution that is not short text, saying so, and stores nothing', async () => {
    const before = await app.db('bookings').count({ n: '*' }).first();
    for (const attribution of [{ utm_source: 'x'.repeat(301) }, { utm_source: 7 }, 'newsletter']) {
      const refused = await app.post('/api/demo-request', {
        ...booking,
        email: 'mary@jackson-aero.com',
        timeSlot: '2026-11-24T11:00:00.000Z',
        attribution,
      });
      expect(refused.status, JSON.stringify(attribution)).to.equal(400);
      expect(refused.body.fields).to.deep.equal({
        attribution: 'Attribution must be an object of texts of at most 300 characters.',
      });
    }
    expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal(before);
  });

  it("holds off a client's wrong tokens after ten, and says when to come back; the right token still passes", async () => {
    const guesser = await startAppUnderTest({ adminToken: TOKEN, trustProxy: 1 });
    try {
      const attempt = (token: string, client: string) =>
        fetch(`${guesser.url}/api/demo-requests`, {
          headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-For': client },
        });
      for (let i = 0; i < 10; i++) expect((await attempt(`guess-${i}`, '203.0.113.50')).status).to.equal(401);
      const held = await attempt('guess-10', '203.0.113.50');
      expect(held.status).to.equal(429);
      expect(Number(held.headers.get('retry-after'))).to.be.within(1, 900);
      expect(((await held.json()) as { details: string }).details).to.match(
        /^Too many wrong operations tokens from your network/,
      );
      // The right token is not held back, from that client or another.
      expect((await attempt(TOKEN, '203.0.113.50')).status).to.equal(200);
      expect((await attempt(TOKEN, '198.51.100.60')).status).to.equal(200);
    } finally {
      await guesser.close();
    }
  });

  it('does not exist when no token is configured', async () => {
    const closed = await startAppUnderTest();
    try {
      const response = await fetch(`${closed.url}/api/demo-requests`, {
        headers: { Authorization: 'Bearer anything' },
      });
      expect(response.status).to.equal(404);
    } finally {
      await closed.close();
    }
  });
});
