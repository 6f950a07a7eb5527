import { expect } from 'chai';
import { parseProxyHops } from '../server-shared/settings.js';
import type { Context } from 'koa';
import pino from 'pino';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { createMemoryLimiter, createRateLimiter, rateLimit, type RateLimiter } from './rate-limit.js';
import { ApiError, TooManyRequestsError } from './errors.js';
import { adminTokenCheck } from './admin/auth.js';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, testQueuePrefix } from '../test/stack.js';
import { bookingToken } from '../server-shared/booking-link.js';

const NOW = new Date('2026-11-23T09:30:00.000Z');
// Tuesday 24 November 2026, hourly from 08:00 Berlin: a slot of its own for each booking, so none is full.
const slot = (i: number) => new Date(Date.UTC(2026, 10, 24, 7 + (i % 16))).toISOString();
let made = 0;
const booking = () => {
  made += 1;
  return {
    name: 'Ada',
    email: `ada${made}@analytical-engines-${made}.com`,
    company: 'Analytical Engines',
    timeSlot: slot(made),
  };
};

describe('per-client limits', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({
      now: () => NOW,
      limits: { demoRequestsPerHour: 2, emailChecksPerMinute: 3 },
      trustProxy: 1,
    });
  });
  after(async () => {
    await app.close();
  });

  it('answers 429 with Retry-After and the error body once a client has booked its share this hour, and stores nothing more', async () => {
    const client = { 'X-Forwarded-For': '203.0.113.7' };
    expect((await app.post('/api/demo-request', booking(), client)).status).to.equal(201);
    expect((await app.post('/api/demo-request', booking(), client)).status).to.equal(201);
    const third = await app.post('/api/demo-request', booking(), client);
    expect(third.status).to.equal(429);
    expect(third.body.error).to.equal('Too many requests');
    expect(third.body.details).to.match(
      /^Several demo requests came from your network in the last hour\. Please try again in about (60|59) minutes\.$/,
    );
    expect(Number(third.headers.get('retry-after'))).to.be.within(3500, 3600);
    const stored = await app.db('bookings').count({ n: '*' }).first();
    expect(stored).to.deep.equal({ n: '2' });
    // Another client is not held back by the first.
    expect((await app.post('/api/demo-request', booking(), { 'X-Forwarded-For': '198.51.100.9' })).status).to.equal(
      201,
    );
  });

  it('limits e-mail checks per minute', async () => {
    const client = { 'X-Forwarded-For': '203.0.113.8' };
    for (let i = 0; i < 3; i++)
      expect((await app.post('/api/validate-email', { email: 'ada@acme.com' }, client)).status).to.equal(200);
    const fourth = await app.post('/api/validate-email', { email: 'ada@acme.com' }, client);
    expect(fourth.status).to.equal(429);
    expect(fourth.body.details).to.equal(
      'Too many e-mail checks from your network. Please wait a minute and try again.',
    );
  });

  it('takes the address the trusted proxy appended, so a forged X-Forwarded-For entry does not dodge the limit', async () => {
    // The client writes anything it likes on the left; the one proxy appends the address it saw connect.
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await app.post(
            '/api/validate-email',
            { email: 'ada@acme.com' },
            { 'X-Forwarded-For': `10.0.0.${i}, 203.0.113.9` },
          )
        ).status,
      ).to.equal(200);
    }
    const forged = await app.post(
      '/api/validate-email',
      { email: 'ada@acme.com' },
      { 'X-Forwarded-For': '10.9.9.9, 203.0.113.9' },
    );
    expect(forged.status).to.equal(429);
  });
});

describe('client address behind two proxies (TRUST_PROXY=2)', () => {
  it('is the second address from the right of X-Forwarded-For', async () => {
    const app = await startAppUnderTest({
      now: () => NOW,
      limits: { demoRequestsPerHour: 0, emailChecksPerMinute: 1 },
      trustProxy: 2,
    });
    try {
      const check = (forwardedFor: string) =>
        app.post('/api/validate-email', { email: 'ada@acme.com' }, { 'X-Forwarded-For': forwardedFor });
      expect((await check('1.1.1.1, 203.0.113.20, 10.0.0.1')).status).to.equal(200);
      // Same client behind the same two proxies, another forged entry and another edge proxy: still that client.
      expect((await check('2.2.2.2, 203.0.113.20, 10.0.0.2')).status).to.equal(429);
      expect((await check('1.1.1.1, 203.0.113.21, 10.0.0.1')).status).to.equal(200);
    } finally {
      await app.close();
    }
  });
});

describe('client address without a trusted proxy', () => {
  it('ignores X-Forwarded-For, so a client cannot dodge the limit by sending it', async () => {
    const app = await startAppUnderTest({
      now: () => NOW,
      limits: { demoRequestsPerHour: 1, emailChecksPerMinute: 0 },
    });
    try {
      expect((await app.post('/api/demo-request', booking(), { 'X-Forwarded-For': '192.0.2.1' })).status).to.equal(201);
      expect((await app.post('/api/demo-request', booking(), { 'X-Forwarded-For': '192.0.2.2' })).status).to.equal(429);
      // 0 turns a limit off.
      for (let i = 0; i < 5; i++)
        expect((await app.post('/api/validate-email', { email: 'ada@acme.com' })).status).to.equal(200);
    } finally {
      await app.close();
    }
  });

  it('still holds the limits when Redis is away, counting in the process', async () => {
    const app = await startAppUnderTest({
      now: () => NOW,
      redisUrl: 'redis://127.0.0.1:1',
      limits: { demoRequestsPerHour: 1, emailChecksPerMinute: 1 },
    });
    try {
      expect((await app.post('/api/demo-request', booking())).status).to.equal(201);
      const second = await app.post('/api/demo-request', booking());
      expect(second.status).to.equal(429);
      expect(second.body.error).to.equal('Too many requests');
      expect(Number(second.headers.get('retry-after'))).to.be.within(3500, 3600);
      expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '1' });
    } finally {
      await app.close();
    }
  });
});

describe('TRUST_PROXY', () => {
  it('is a number of proxy hops; true means one, false none', () => {
    expect(parseProxyHops(undefined)).to.equal(0);
    expect(parseProxyHops('false')).to.equal(0);
    expect(parseProxyHops('true')).to.equal(1);
    expect(parseProxyHops('2')).to.equal(2);
    expect(() => parseProxyHops('-1')).to.throw('TRUST_PROXY must be the number of trusted proxies');
    expect(() => parseProxyHops('all')).to.throw('TRUST_PROXY must be the number of trusted proxies');
  });
});

describe('the limiter on Redis', () => {
  const rule = { name: 'checks', limit: 2, windowMs: 60_000 };

  it("counts in Redis under the checkout's prefix, so that every API process shares the counts, each key for its window", async () => {
    const prefix = testQueuePrefix();
    const redis = new Redis(TEST_REDIS_URL);
    const [one, other] = await Promise.all([
      createRateLimiter(TEST_REDIS_URL, prefix),
      createRateLimiter(TEST_REDIS_URL, prefix),
    ]);
    try {
      expect((await one.of(rule).consume('192.0.2.7')).consumedPoints).to.equal(1);
      expect((await other.of(rule).consume('192.0.2.7')).consumedPoints, 'another process').to.equal(2);
      const refused = await one
        .of(rule)
        .consume('192.0.2.7')
        .then(
          () => null,
          (res: unknown) => res,
        );
      expect(refused).to.include({ consumedPoints: 3 });
      expect(await redis.get(`${prefix}:rate:checks:192.0.2.7`)).to.equal('3');
      expect(await redis.pttl(`${prefix}:rate:checks:192.0.2.7`)).to.be.within(58_000, 60_000);
      expect(await one.of(rule).get('192.0.2.8'), 'another client').to.equal(null);
    } finally {
      await Promise.all([one.close(), other.close()]);
      redis.disconnect();
      await clearQueuePrefix(prefix);
    }
  });

  it('counts in the process at once when its connection to Redis is lost, leaving the counts in Redis be', async () => {
    const prefix = testQueuePrefix();
    const redisAddress = new URL(TEST_REDIS_URL);
    // A TCP relay to Redis, cut to lose the connection while Redis itself stays up.
    const sockets = new Set<Socket>();
    const relay = createServer((client) => {
      const upstream = createConnection(Number(redisAddress.port || 6379), redisAddress.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const limiter = await createRateLimiter(`redis://127.0.0.1:${(relay.address() as AddressInfo).port}`, prefix);
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await limiter.of(rule).consume('192.0.2.7');
      expect((await limiter.of(rule).consume('192.0.2.7')).consumedPoints).to.equal(2);
      relay.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      expect((await limiter.of(rule).consume('192.0.2.7')).consumedPoints, 'counted in memory').to.equal(1);
      expect(performance.now() - started, 'not waiting for Redis').to.be.below(100);
      expect(await redis.get(`${prefix}:rate:checks:192.0.2.7`)).to.equal('2');
    } finally {
      await limiter.close();
      redis.disconnect();
      await clearQueuePrefix(prefix);
    }
  });
});

describe('the rate-limit middleware', () => {
  const rule = (limit: number) => ({
    name: 'checks',
    limit,
    windowMs: 60_000,
    details: (minutes: number) => `Wait ${minutes} minute(s).`,
  });
  const ctx = { ip: '192.0.2.7' } as Context;

  it('counts nothing and lets every request through when the rule is off (0) or there is no limiter', async () => {
    const limiter = createMemoryLimiter();
    for (const middleware of [rateLimit(limiter, rule(0)), rateLimit(undefined, rule(5))]) {
      let passed = 0;
      for (let i = 0; i < 10; i++) await middleware(ctx, async () => void (passed += 1));
      expect(passed).to.equal(10);
    }
    expect(await limiter.of(rule(5)).get('192.0.2.7')).to.equal(null);
  });

  it('counts each request of the client and refuses the ones past the limit with a 429', async () => {
    const limiter = createMemoryLimiter();
    const middleware = rateLimit(limiter, rule(2));
    let passed = 0;
    for (let i = 0; i < 2; i++) await middleware(ctx, async () => void (passed += 1));
    const refused = await middleware(ctx, async () => void (passed += 1)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(passed).to.equal(2);
    expect(refused).to.be.instanceOf(TooManyRequestsError);
    expect((await limiter.of(rule(2)).get('192.0.2.7'))?.consumedPoints).to.equal(3);
  });
});

describe('the count of wrong operations tokens (admin/auth.ts)', () => {
  const TOKEN = 'an-operations-token-of-at-least-32-characters';
  /** A memory limiter that writes down each call made to its counters. */
  function countingLimiter(): { limiter: RateLimiter; calls: string[] } {
    const inner = createMemoryLimiter();
    const calls: string[] = [];
    return {
      calls,
      limiter: {
        of: (rule) => {
          const counter = inner.of(rule);
          return {
            consume: (key, ...rest) => (calls.push(`consume ${rule.name}:${key}`), counter.consume(key, ...rest)),
            get: (key, ...rest) => (calls.push(`get ${rule.name}:${key}`), counter.get(key, ...rest)),
          };
        },
        close: () => inner.close(),
      },
    };
  }
  const ctx = { ip: '192.0.2.9', state: { log: pino({ level: 'silent' }) } } as unknown as Context;
  const statusOf = (promise: Promise<void>) =>
    promise.then(
      () => 200,
      (err: unknown) => (err instanceof ApiError ? err.status : 500),
    );

  it('passes the right token without asking the limiter, even past ten wrong ones; a held-off guess costs one count', async () => {
    const { limiter, calls } = countingLimiter();
    const check = adminTokenCheck(TOKEN, limiter);
    for (let i = 0; i < 10; i++) expect(await statusOf(check(ctx, `guess-${i}`, 'no'))).to.equal(401);
    expect(calls).to.have.length(10);
    calls.length = 0;
    expect(await statusOf(check(ctx, TOKEN, 'no'))).to.equal(200);
    expect(calls, 'the right token reads and resets nothing').to.deep.equal([]);
    expect(await statusOf(check(ctx, 'guess-10', 'no'))).to.equal(429);
    expect(await statusOf(check(ctx, undefined, 'no'))).to.equal(429);
    expect(calls).to.deep.equal(['consume admin-failures:192.0.2.9', 'consume admin-failures:192.0.2.9']);
    const failures = limiter.of({ name: 'admin-failures', limit: 10, windowMs: 900_000 });
    expect((await failures.get('192.0.2.9'))?.consumedPoints).to.equal(12);
  });
});

describe('per-client limits count a network, not an address (TRUST_PROXY=1)', () => {
  // Eight addresses of one IPv6 /64: what one home or one cloud machine is given.
  const sameNetwork = Array.from({ length: 8 }, (_, i) => `2001:db8:1:2:${(i * 0x1111).toString(16)}::${i + 1}`);
  const otherNetwork = '2001:db8:1:3::1';
  const from = (address: string) => ({ 'X-Forwarded-For': address });

  it('makes five bookings, not eight, from eight addresses of one /64, and counts another /64 apart', async () => {
    const app = await startAppUnderTest({
      now: () => NOW,
      limits: { demoRequestsPerHour: 5, emailChecksPerMinute: 0 },
      trustProxy: 1,
    });
    try {
      const statuses: number[] = [];
      for (const address of sameNetwork)
        statuses.push((await app.post('/api/demo-request', booking(), from(address))).status);
      expect(statuses).to.deep.equal([201, 201, 201, 201, 201, 429, 429, 429]);
      expect(await app.db('bookings').count({ n: '*' }).first()).to.deep.equal({ n: '5' });
      expect((await app.post('/api/demo-request', booking(), from(otherNetwork))).status).to.equal(201);
    } finally {
      await app.close();
    }
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', async () => {
    const app = await startAppUnderTest({
      now: () => NOW,
      limits: { demoRequestsPerHour: 0, emailChecksPerMinute: 2 },
      trustProxy: 1,
    });
    try {
      const check = (address: string) => app.post('/api/validate-email', { email: 'ada@acme.com' }, from(address));
      expect((await check('203.0.113.60')).status).to.equal(200);
      expect((await check('::ffff:203.0.113.60')).status).to.equal(200);
      expect((await check('::FFFF:cb00:713c')).status, 'the same address in hexadecimal').to.equal(429);
      expect((await check('203.0.113.61')).status, 'the next IPv4 address is another client').to.equal(200);
    } finally {
      await app.close();
    }
  });

  it('holds the e-mail checks of one /64 to the limit', async () => {
    const app = await startAppUnderTest({
      now: () => NOW,
      limits: { demoRequestsPerHour: 0, emailChecksPerMinute: 5 },
      trustProxy: 1,
    });
    try {
      const statuses: number[] = [];
      for (const address of sameNetwork)
        statuses.push((await app.post('/api/validate-email', { email: 'ada@acme.com' }, from(address))).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429, 429]);
      expect((await app.post('/api/validate-email', { email: 'ada@acme.com' }, from(otherNetwork))).status).to.equal(
        200,
      );
    } finally {
      await app.close();
    }
  });

  it('holds the changes through booking links from one /64 to the hourly allowance', async () => {
    const app = await startAppUnderTest({
      now: () => NOW,
      limits: { demoRequestsPerHour: 5, emailChecksPerMinute: 0 },
      trustProxy: 1,
    });
    try {
      const made = await app.post('/api/demo-request', booking(), from('198.51.100.70'));
      expect(made.status).to.equal(201);
      const token = bookingToken(String(made.body.id), TEST_LINK_SECRET);
      const statuses: number[] = [];
      for (const address of sameNetwork)
        statuses.push((await app.post(`/api/bookings/${token}/cancel`, {}, from(address))).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429, 429]);
      expect((await app.post(`/api/bookings/${token}/cancel`, {}, from(otherNetwork))).status).to.equal(200);
    } finally {
      await app.close();
    }
  });

  it('holds off the operations token guesses of one /64 together, never the right token', async () => {
    const token = 'an-operations-token-of-at-least-32-characters';
    const app = await startAppUnderTest({ now: () => NOW, adminToken: token, trustProxy: 1 });
    try {
      const list = (address: string, bearer: string) =>
        fetch(`${app.url}/api/demo-requests`, { headers: { ...from(address), Authorization: `Bearer ${bearer}` } });
      // Ten wrong guesses, each from another address of the /64.
      for (let i = 0; i < 10; i++) expect((await list(`2001:db8:7:7::${i + 1}`, `guess-${i}`)).status).to.equal(401);
      expect(
        (await list('2001:db8:7:7:ffff:ffff:ffff:ffff', 'guess-10')).status,
        'a wrong token from the same /64',
      ).to.equal(429);
      expect(
        (await list('2001:db8:7:7:ffff:ffff:ffff:ffff', token)).status,
        'the right token from the same /64',
      ).to.equal(200);
      expect((await list('2001:db8:7:8::1', 'guess-11')).status, 'another /64').to.equal(401);
    } finally {
      await app.close();
    }
  });
});
