import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from './test/app-under-test.js';

const NOW = new Date('2026-11-23T09:30:00.000Z');
const booking = { name: 'Ada', email: 'ada@analytical-engines.com', company: 'Analytical Engines', timeSlot: '2026-11-24T08:00:00.000Z' };

describe('per-client limits', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ now: () => NOW, limits: { demoRequestsPerHour: 2, emailChecksPerMinute: 3 }, trustProxy: true });
  });
  after(async () => {
    await app.close();
  });

  it('answers 429 with Retry-After once a client has booked its share this hour, and stores nothing more', async () => {
    const client = { 'X-Forwarded-For': '203.0.113.7' };
    expect((await app.post('/api/demo-request', booking, client)).status).to.equal(201);
    expect((await app.post('/api/demo-request', booking, client)).status).to.equal(201);
    const third = await app.post('/api/demo-request', booking, client);
    expect(third.status).to.equal(429);
    expect(third.body.error).to.equal('Too many requests');
    expect(third.body.details).to.match(/^Several demo requests came from your network in the last hour\. Please try again in about (60|59) minutes\.$/);
    expect(Number(third.headers.get('retry-after'))).to.be.within(3500, 3600);
    const stored = await app.db('demo_requests').count({ n: '*' }).first();
    expect(stored).to.deep.equal({ n: '2' });
    // Another client is not held back by the first.
    expect((await app.post('/api/demo-request', booking, { 'X-Forwarded-For': '198.51.100.9' })).status).to.equal(201);
  });

  it('limits e-mail checks per minute', async () => {
    const client = { 'X-Forwarded-For': '203.0.113.8' };
    for (let i = 0; i < 3; i++) expect((await app.post('/api/validate-email', { email: 'ada@acme.com' }, client)).status).to.equal(200);
    const fourth = await app.post('/api/validate-email', { email: 'ada@acme.com' }, client);
    expect(fourth.status).to.equal(429);
    expect(fourth.body.details).to.equal('Too many e-mail checks from your network. Please wait a minute and try again.');
  });
});

describe('client address without a trusted proxy', () => {
  it('ignores X-Forwarded-For, so a client cannot dodge the limit by sending it', async () => {
    const app = await startAppUnderTest({ now: () => NOW, limits: { demoRequestsPerHour: 1, emailChecksPerMinute: 0 } });
    try {
      expect((await app.post('/api/demo-request', booking, { 'X-Forwarded-For': '192.0.2.1' })).status).to.equal(201);
      expect((await app.post('/api/demo-request', booking, { 'X-Forwarded-For': '192.0.2.2' })).status).to.equal(429);
      // 0 turns a limit off.
      for (let i = 0; i < 5; i++) expect((await app.post('/api/validate-email', { email: 'ada@acme.com' })).status).to.equal(200);
    } finally {
      await app.close();
    }
  });

  it('lets requests through when Redis is away rather than turning prospects down', async () => {
    const app = await startAppUnderTest({ now: () => NOW, redisUrl: 'redis://127.0.0.1:1', limits: { demoRequestsPerHour: 1, emailChecksPerMinute: 1 } });
    try {
      expect((await app.post('/api/demo-request', booking)).status).to.equal(201);
      expect((await app.post('/api/demo-request', booking)).status).to.equal(201);
    } finally {
      await app.close();
    }
  });
});
