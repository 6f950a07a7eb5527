import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { bookingToken } from '../server-shared/booking-link.js';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { TEST_LINK_SECRET } from '../test/stack.js';

const NOW = new Date('2026-11-23T09:30:00.000Z');
const TOKEN = 'an-operations-token-of-at-least-32-characters';

describe('reads while PostgreSQL is unreachable', () => {
  let app: AppUnderTest;
  before(async () => {
    // The API's database is a closed port; the test's own database (app.db) is reachable.
    app = await startAppUnderTest({ now: () => NOW, adminToken: TOKEN, databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
  });
  after(async () => {
    await app.close();
  });

  it('answer 503 with the body a write gets: the same error, a message for a person, no stack', async () => {
    const write = await app.post('/api/demo-request', { name: 'Ada Lovelace', email: 'ada@analytical-engines.com', company: 'Analytical Engines', timeSlot: '2026-11-24T08:00:00.000Z' });
    expect(write.status).to.equal(503);
    const token = bookingToken(randomUUID(), TEST_LINK_SECRET);
    const reads: [string, RequestInit?][] = [
      [`/api/bookings/${token}`],
      [`/api/bookings/${token}/invite.ics`],
      ['/api/slots?date=2026-11-24'],
      ['/api/demo-requests', { headers: { Authorization: `Bearer ${TOKEN}` } }],
    ];
    for (const [path, init] of reads) {
      const response = await fetch(`${app.url}${path}`, init);
      expect(response.status, path).to.equal(503);
      expect(response.headers.get('content-type'), path).to.match(/^application\/json/);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort(), path).to.deep.equal(Object.keys(write.body).sort());
      expect(body.error, path).to.equal(write.body.error);
      expect(body.details, path).to.equal('We could not reach our records right now. Nothing was changed; please try again in a few minutes.');
    }
  });
});
