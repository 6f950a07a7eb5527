import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { bookingToken } from '../server-shared/booking-link.js';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { TEST_LINK_SECRET } from '../test/stack.js';
import { expectPrivatePageHeaders } from '../test/web-root.js';
import { DEFAULT_WEB_ROOT as BUILT_WEB_ROOT } from './config.js';
import { sourceHash } from './security-headers.js';

const NOW = new Date('2026-11-23T09:30:00.000Z');
const TOKEN = 'an-operations-token-of-at-least-32-characters';

describe('reads while PostgreSQL is unreachable', () => {
  let app: AppUnderTest;
  before(async () => {
    // The API's database is a closed port; the test's own database (app.db) is reachable.
    app = await startAppUnderTest({
      now: () => NOW,
      adminToken: TOKEN,
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
    });
  });
  after(async () => {
    await app.close();
  });

  it('answer 503 with the body a write gets: the same error, a message for a person, no stack', async () => {
    const write = await app.post('/api/demo-request', {
      name: 'Ada Lovelace',
      email: 'ada@analytical-engines.com',
      company: 'Analytical Engines',
      timeSlot: '2026-11-24T08:00:00.000Z',
    });
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
      expect(body.details, path).to.equal(
        'We could not reach our records right now. Nothing was changed; please try again in a few minutes.',
      );
    }
  });
});

describe("a booking's page while PostgreSQL is unreachable (needs `npm run build:web`)", () => {
  let app: AppUnderTest;
  before(async function () {
    if (!existsSync(path.join(BUILT_WEB_ROOT, 'index.html')))
      throw new Error('No production build: run `npm run build:web` first.');
    app = await startAppUnderTest({
      now: () => NOW,
      webRoot: BUILT_WEB_ROOT,
      databaseUrl: 'postgres://postgres@127.0.0.1:1/none',
    });
  });
  after(async () => {
    await app.close();
  });

  it('answers 503 and a page of the site that says to try again shortly, with Retry-After, no script and no token; never 200 and "Loading…"', async () => {
    const token = bookingToken(randomUUID(), TEST_LINK_SECRET);
    const response = await fetch(`${app.url}/booking/${token}`);
    expect(response.status).to.equal(503);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('retry-after')).to.equal('30');
    expectPrivatePageHeaders(response.headers);
    const html = await response.text();
    expect(html).to.contain('Please try again shortly').and.not.contain('Loading your booking');
    // Nothing to run: the page reads as it is, and its reload is a plain link.
    expect(html)
      .to.not.match(/<script/i)
      .and.not.contain(token);
    // The site's look: the booking page's top bar and footer, its critical CSS inline and allowed by its hash.
    expect(html).to.contain('<footer').and.contain('<title>Please try again shortly | Converge</title>');
    const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
    expect(styles).to.have.length.above(0);
    const csp = response.headers.get('content-security-policy') ?? '';
    for (const css of styles) expect(csp).to.contain(sourceHash(css));
    expect((await fetch(`${app.url}/booking/${token}`, { method: 'HEAD' })).status).to.equal(503);
    // What the page's script would ask says the same: 503, not 200.
    expect((await fetch(`${app.url}/api/bookings/${token}`)).status).to.equal(503);
  });
});
