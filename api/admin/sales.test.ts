import { expect } from 'chai';
import { Redis } from 'ioredis';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL } from '../../test/stack.js';
import { listBookings, SEARCH_MATCHES_READ, SearchTooBroad } from './bookings-list.js';
import { CSRF_HEADER, SESSION_COOKIE } from './sessions.js';

const TOKEN = 'ops-secret-token-of-at-least-32-characters';
const BOOKED_AT = new Date('2026-11-23T09:30:00.000Z');
const SLOT = '2026-11-24T08:00:00.000Z';
const booking = {
  name: 'Ada Lovelace',
  email: 'ada@analytical-engines.com',
  company: 'Analytical Engines',
  timeSlot: SLOT,
};

interface Session {
  cookie: string;
  csrfToken: string;
}

describe('the sales page API: sessions, the list, the export, a booking and its marks', () => {
  let app: AppUnderTest;
  let clock = BOOKED_AT;
  let network = 0;
  /** Each test its own client network (TRUST_PROXY=1): the count of wrong tokens is per network. */
  const client = () => ({ 'X-Forwarded-For': `198.51.100.${++network}` });

  before(async () => {
    // The count of wrong tokens in Redis, as deployed (the request limits themselves off).
    app = await startAppUnderTest({
      now: () => clock,
      adminToken: TOKEN,
      trustProxy: 1,
      limits: { demoRequestsPerHour: 0, emailChecksPerMinute: 0 },
    });
  });
  after(async () => {
    await app.close();
  });
  beforeEach(() => {
    clock = BOOKED_AT;
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, { ...init, headers: { ...client(), ...(init.headers as Record<string, string>) } });

  async function signIn(headers: Record<string, string> = {}): Promise<Session & { setCookie: string }> {
    const response = await call('/api/admin/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(response.status, await response.clone().text()).to.equal(201);
    const setCookie = response.headers.get('set-cookie') ?? '';
    const { csrfToken } = (await response.json()) as { csrfToken: string };
    return { cookie: setCookie.split(';')[0]!, csrfToken, setCookie };
  }

  const withSession = (session: Session, extra: Record<string, string> = {}) => ({ Cookie: session.cookie, ...extra });
  const mark = (id: string, attendance: string, headers: Record<string, string>) =>
    call(`/api/admin/bookings/${id}/attendance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ attendance }),
    });

  async function insertBooking(fields: Record<string, unknown>): Promise<string> {
    const [row] = (await app
      .db('bookings')
      .insert({
        name: 'Someone',
        email: 'someone@example-corp.com',
        company: 'Example Corp',
        time_slot: new Date(SLOT),
        ...fields,
      })
      .returning('id')) as { id: string }[];
    return row!.id;
  }

  describe('signing in', () => {
    it('exchanges the token for an HttpOnly, SameSite=Strict session cookie with an expiry, Secure when the request came over HTTPS', async () => {
      const plain = await signIn();
      expect(plain.setCookie).to.match(
        new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; path=/api; expires=[^;]+; samesite=strict; httponly$`),
      );
      expect(Date.parse(/expires=([^;]+)/.exec(plain.setCookie)![1]!) - BOOKED_AT.getTime()).to.equal(8 * 3_600_000);
      const secure = await signIn({ 'X-Forwarded-Proto': 'https' });
      expect(secure.setCookie).to.contain('; secure;');
      // Only a digest of the session token is stored.
      const stored = (await app.db('admin_sessions').pluck('id')) as string[];
      expect(stored).to.not.include(plain.cookie.split('=')[1]);
      const session = await call('/api/admin/session', { headers: withSession(plain) });
      expect(await session.json()).to.deep.include({ csrfToken: plain.csrfToken });
    });

    it('refuses wrong tokens, and 429 after 10 from a network (the same count as the Bearer header), yet signs in with the right one, which resets nothing', async () => {
      const network = { 'X-Forwarded-For': '203.0.113.7' };
      const attempt = (token: string) =>
        fetch(`${app.url}/api/admin/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...network },
          body: JSON.stringify({ token }),
        });
      const bearer = (token: string) =>
        fetch(`${app.url}/api/demo-requests`, { headers: { ...network, Authorization: `Bearer ${token}` } });
      const wrong = await attempt(`${TOKEN}x`);
      expect(wrong.status).to.equal(401);
      expect(wrong.headers.get('set-cookie')).to.equal(null);
      for (let i = 0; i < 8; i += 1) expect((await attempt('nope')).status).to.equal(401);
      expect((await bearer('nope')).status).to.equal(401);
      // Ten wrong ones from an office's shared address: its operator still signs in, and scripts still work.
      const right = await attempt(TOKEN);
      expect(right.status, await right.clone().text()).to.equal(201);
      expect(right.headers.get('set-cookie')).to.match(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
      expect((await bearer(TOKEN)).status).to.equal(200);
      // The right token reset nothing: the next wrong one, either way, is held off until the window ends.
      for (const held of [await attempt('nope'), await bearer('nope')]) {
        expect(held.status).to.equal(429);
        expect(Number(held.headers.get('retry-after'))).to.be.within(1, 900);
        expect(((await held.json()) as { details: string }).details).to.match(
          /^Too many wrong operations tokens from your network/,
        );
      }
      expect((await attempt(TOKEN)).status).to.equal(201);
      // Counted in Redis: the ten wrong ones and the two held off, none of the right ones.
      const redis = new Redis(TEST_REDIS_URL);
      try {
        expect(await redis.get(`${app.queuePrefix}:rate:admin-failures:203.0.113.7`)).to.equal('12');
      } finally {
        redis.disconnect();
      }
    });

    it('refuses a change made with the cookie but without the CSRF token, or with a forged one (403), and signs out', async () => {
      const session = await signIn();
      const id = await insertBooking({ time_slot: new Date('2026-11-20T08:00:00Z') });
      for (const headers of [
        withSession(session),
        withSession(session, {
          [CSRF_HEADER]: `${session.csrfToken.slice(0, -1)}${session.csrfToken.endsWith('A') ? 'B' : 'A'}`,
        }),
        withSession(session, { [CSRF_HEADER]: (await signIn()).csrfToken }),
      ]) {
        const refused = await mark(id, 'attended', headers);
        expect(refused.status).to.equal(403);
        expect(await refused.json()).to.deep.include({ error: 'Forbidden' });
      }
      expect((await app.db('bookings').where({ id }).first('attendance')).attendance).to.equal(null);
      expect((await mark(id, 'attended', withSession(session, { [CSRF_HEADER]: session.csrfToken }))).status).to.equal(
        200,
      );
      expect((await call('/api/admin/session', { method: 'DELETE', headers: withSession(session) })).status).to.equal(
        403,
      );
      const out = await call('/api/admin/session', {
        method: 'DELETE',
        headers: withSession(session, { [CSRF_HEADER]: session.csrfToken }),
      });
      expect(out.status).to.equal(204);
      expect(out.headers.get('set-cookie')).to.match(new RegExp(`^${SESSION_COOKIE}=;`));
      expect((await call('/api/demo-requests', { headers: withSession(session) })).status).to.equal(401);
    });

    it('keeps the Bearer token working for operators, with no CSRF token', async () => {
      const id = await insertBooking({ time_slot: new Date('2026-11-19T08:00:00Z') });
      expect((await call('/api/demo-requests', { headers: { Authorization: `Bearer ${TOKEN}` } })).status).to.equal(
        200,
      );
      expect((await mark(id, 'no_show', { Authorization: `Bearer ${TOKEN}` })).status).to.equal(200);
      expect((await call('/api/demo-requests')).status).to.equal(401);
      expect((await call('/api/demo-requests', { headers: { Cookie: `${SESSION_COOKIE}=forged` } })).status).to.equal(
        401,
      );
    });
  });

  describe('from another site', () => {
    const OTHER_SITES: Record<string, string>[] = [
      { Origin: 'https://attacker.example' },
      { Origin: 'null' },
      // Neither a longer name nor another port of the same host is the site's own origin.
      { Origin: `${'http://127.0.0.1'}.attacker.example` },
      { Origin: 'http://127.0.0.1:1' },
      { 'Sec-Fetch-Site': 'cross-site' },
      // Another subdomain of the site's domain: refused as well.
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: 'https://converge.test', 'Sec-Fetch-Site': 'cross-site' },
    ];
    const REFUSAL = {
      error: 'Forbidden',
      details:
        'This request came from another site, so it was refused. Open the sales page at its own address and try again.',
    };

    it('refuses a change made with the cookie and the right CSRF token from another site (Origin, Sec-Fetch-Site), and allows it from the site itself', async () => {
      const session = await signIn();
      const id = await insertBooking({ time_slot: new Date('2026-11-18T08:00:00Z') });
      const right = withSession(session, { [CSRF_HEADER]: session.csrfToken });
      for (const from of OTHER_SITES) {
        const refused = await mark(id, 'attended', { ...right, ...from });
        expect(refused.status, JSON.stringify(from)).to.equal(403);
        expect(await refused.json(), JSON.stringify(from)).to.deep.equal(REFUSAL);
      }
      expect((await app.db('bookings').where({ id }).first('attendance')).attendance).to.equal(null);
      // Signing out from another site is refused too: the session lives on.
      const out = await call('/api/admin/session', {
        method: 'DELETE',
        headers: { ...right, Origin: 'https://attacker.example' },
      });
      expect(out.status).to.equal(403);
      expect(out.headers.get('set-cookie')).to.equal(null);
      expect((await call('/api/admin/session', { headers: withSession(session) })).status).to.equal(200);
      // From the site itself: its address as the request names it, PUBLIC_URL's origin, the browser's own word for
      // it, a typed navigation, or a client that says nothing of where it is (curl).
      const ownSite: Record<string, string>[] = [
        { Origin: app.url, 'Sec-Fetch-Site': 'same-origin' },
        { Origin: 'https://converge.test' },
        { 'Sec-Fetch-Site': 'none' },
        {},
      ];
      for (const from of ownSite) {
        const marked = await mark(id, 'attended', { ...right, ...from });
        expect(marked.status, JSON.stringify(from)).to.equal(200);
      }
      expect((await app.db('bookings').where({ id }).first('attendance')).attendance).to.equal('attended');
      expect(
        (
          await call('/api/admin/session', {
            method: 'DELETE',
            headers: { ...right, Origin: app.url, 'Sec-Fetch-Site': 'same-origin' },
          })
        ).status,
      ).to.equal(204);
    });

    it('refuses signing in from another site, the right token included, and counts no wrong token for it', async () => {
      const network = { 'X-Forwarded-For': '203.0.113.9' };
      const attempt = (token: string, from: Record<string, string>) =>
        fetch(`${app.url}/api/admin/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...network, ...from },
          body: JSON.stringify({ token }),
        });
      for (const from of OTHER_SITES) {
        const refused = await attempt(TOKEN, from);
        expect(refused.status, JSON.stringify(from)).to.equal(403);
        expect(refused.headers.get('set-cookie'), JSON.stringify(from)).to.equal(null);
        expect(await refused.json(), JSON.stringify(from)).to.deep.equal(REFUSAL);
        expect((await attempt('nope', from)).status, JSON.stringify(from)).to.equal(403);
      }
      expect((await attempt(TOKEN, { Origin: app.url, 'Sec-Fetch-Site': 'same-origin' })).status).to.equal(201);
      // None of the refused ones counted as a wrong token.
      for (let i = 0; i < 10; i += 1) expect((await attempt('nope', {})).status).to.equal(401);
    });

    it('leaves the Bearer token alone: a browser cannot send it from another site, so where a request says it came from does not matter', async () => {
      const id = await insertBooking({ time_slot: new Date('2026-11-17T08:00:00Z') });
      const marked = await mark(id, 'no_show', {
        Authorization: `Bearer ${TOKEN}`,
        Origin: 'https://attacker.example',
        'Sec-Fetch-Site': 'cross-site',
      });
      expect(marked.status).to.equal(200);
    });
  });

  describe('the list and its export', () => {
    const ids: Record<string, string> = {};
    before(async () => {
      await app.db('bookings').delete();
      const day = (d: string) => new Date(`2026-12-${d}T09:00:00Z`);
      ids.grace = await insertBooking({
        name: 'Grace Hopper',
        email: 'grace@navy-systems.com',
        company: 'Navy Systems',
        time_slot: day('01'),
        attribution: { utm_source: 'newsletter' },
        host_email: 'maya@converge.test',
        host_name: 'Maya',
      });
      ids.katherine = await insertBooking({
        name: 'Katherine Johnson',
        email: 'kj@langley.org',
        company: '=HYPERLINK("http://x")',
        time_slot: day('02'),
        attribution: { utm_source: 'linkedin' },
        status: 'cancelled',
        cancelled_at: BOOKED_AT,
      });
      ids.dorothy = await insertBooking({
        name: 'Dorothy "Dot" Vaughan',
        email: 'dorothy@langley.org',
        company: 'Langley, Research',
        phone: '+1 757 555 0142',
        message: 'Two questions:\nSMS in the US, and "fallback" to e-mail?',
        time_slot: day('03'),
        attribution: { utm_source: 'newsletter' },
      });
      ids.percent = await insertBooking({
        name: '100% Real',
        email: 'x@percent.com',
        company: '@risk',
        time_slot: day('04'),
      });
    });
    const list = async (query: string) => {
      const response = await call(`/api/demo-requests?${query}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(response.status, await response.clone().text()).to.equal(200);
      const body = (await response.json()) as { demoRequests: { id: string; name: string }[]; next: string | null };
      return { names: body.demoRequests.map((row) => row.name), next: body.next, rows: body.demoRequests };
    };

    it('searches a prefix of the name, the company, the e-mail address or its domain, in any case; % is no wildcard', async () => {
      expect((await list('q=grace')).names).to.deep.equal(['Grace Hopper']);
      expect((await list('q=LANGLEY')).names).to.deep.equal(['Dorothy "Dot" Vaughan', 'Katherine Johnson']);
      expect((await list('q=kj@')).names).to.deep.equal(['Katherine Johnson']);
      expect((await list('q=navy-systems.com')).names).to.deep.equal(['Grace Hopper']);
      expect((await list('q=Hopper')).names, 'a prefix, not any part').to.deep.equal([]);
      expect((await list('q=%25')).names).to.deep.equal([]);
      expect((await list('q=100%25')).names).to.deep.equal(['100% Real']);
    });

    it('filters by status, slot days (in the booking zone, both ends included), host and source, all together', async () => {
      expect((await list('status=cancelled')).names).to.deep.equal(['Katherine Johnson']);
      expect((await list('status=booked')).names).to.deep.equal(['100% Real', 'Dorothy "Dot" Vaughan', 'Grace Hopper']);
      expect((await list('from=2026-12-02&to=2026-12-03')).names).to.deep.equal([
        'Dorothy "Dot" Vaughan',
        'Katherine Johnson',
      ]);
      expect((await list('host=maya@converge.test')).names).to.deep.equal(['Grace Hopper']);
      expect((await list('source=newsletter')).names).to.deep.equal(['Dorothy "Dot" Vaughan', 'Grace Hopper']);
      expect((await list('source=newsletter&from=2026-12-02')).names).to.deep.equal(['Dorothy "Dot" Vaughan']);
      const refused = await call('/api/demo-requests?status=maybe&from=12/01/2026', {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(refused.status).to.equal(400);
      expect(((await refused.json()) as { fields: Record<string, string> }).fields).to.have.keys('status');
    });

    it('pages a filtered list by keyset: every match once, in order, across pages', async () => {
      const rows = Array.from({ length: 150 }, (_, i) => ({
        name: `Page Person ${i}`,
        email: `p${i}@paging.com`,
        company: 'Paging Inc',
        time_slot: new Date('2026-12-07T09:00:00Z'),
        created_at: new Date(BOOKED_AT.getTime() - (i % 7) * 1000),
        attribution: { utm_source: 'paging' },
      }));
      await app.db('bookings').insert(rows);
      const first = await list('q=paging&source=paging');
      expect(first.names).to.have.length(100);
      expect(first.next).to.be.a('string');
      const second = await list(`q=paging&source=paging&cursor=${first.next}`);
      expect(second.names).to.have.length(50);
      expect(second.next).to.equal(null);
      expect(new Set([...first.names, ...second.names]).size).to.equal(150);
      await app.db('bookings').where('email', 'like', '%@paging.com').delete();
    });

    it('reads a search of more bookings than it reads through the prefix indexes as one of fewer: the newest first, each once, across pages', async () => {
      const many = SEARCH_MATCHES_READ + 50;
      // "Broad 0001" to "Broad 5050", the last made last: the newest are the last in the name's index.
      await app.db.raw(
        `INSERT INTO bookings (name, email, company, time_slot, created_at)
           SELECT 'Broad ' || lpad(n::text, 4, '0'), 'p' || n || '@wide.example', 'Wide', ?, ?::timestamptz - (? - n) * interval '1 second'
           FROM generate_series(1, ?::int) AS n`,
        [new Date('2026-12-08T09:00:00Z'), BOOKED_AT, many, many],
      );
      const newestFirst = (from: number, to: number) =>
        Array.from({ length: to - from + 1 }, (_, i) => `Broad ${String(to - i).padStart(4, '0')}`);
      const twoPages = async (query: string) => {
        const first = await list(query);
        const second = await list(`${query}&cursor=${first.next}`);
        return [...first.names, ...second.names];
      };
      // More matches than the bound: read newest first through the list's index.
      expect(await twoPages('q=broad')).to.deep.equal(newestFirst(many - 199, many));
      // "Broad 1000" to "Broad 1999": fewer than the bound, read from their ids.
      expect(await twoPages('q=BROAD%201')).to.deep.equal(newestFirst(1800, 1999));
      expect((await list('q=wide.example&status=cancelled')).names).to.deep.equal([]);
      await app.db('bookings').where('email', 'like', '%@wide.example').delete();
    });

    it('stops a search read newest first at its time limit, so that one whose matches are all old cannot hold a connection', async () => {
      // 5,050 old matches under 30,000 newer bookings that do not match: read newest first, the scan passes them all.
      await app.db.raw(
        `INSERT INTO bookings (name, email, company, time_slot, created_at)
           SELECT 'Bygone ' || n, 'b' || n || '@old.example', 'Old', ?::timestamptz, ?::timestamptz - interval '1 day' - n * interval '1 second'
           FROM generate_series(1, ?::int) AS n
         UNION ALL
         SELECT 'Recent ' || n, 'r' || n || '@new.example', 'New', ?::timestamptz, ?::timestamptz - n * interval '1 millisecond'
           FROM generate_series(1, 30000) AS n`,
        [
          new Date('2026-12-08T09:00:00Z'),
          BOOKED_AT,
          SEARCH_MATCHES_READ + 50,
          new Date('2026-12-08T09:00:00Z'),
          BOOKED_AT,
        ],
      );
      try {
        await listBookings(app.db, 100, undefined, { search: 'bygone' }, 1).then(
          () => expect.fail('read within 1 ms'),
          (err: unknown) => expect(err).to.be.instanceOf(SearchTooBroad),
        );
        // Within the time limit it is read as any other.
        const page = await listBookings(app.db, 100, undefined, { search: 'bygone' });
        expect(page.bookings.map((booking) => booking.name)).to.deep.equal(
          Array.from({ length: 100 }, (_, i) => `Bygone ${i + 1}`),
        );
        // A search of fewer matches is read from their ids, with no time limit to reach.
        expect((await listBookings(app.db, 200, undefined, { search: 'bygone 12' }, 1)).bookings).to.have.length(
          1 + 10 + 100,
        );
      } finally {
        await app.db('bookings').whereIn('company', ['Old', 'New']).delete();
      }
    });

    it('exports exactly what the filters select as CSV, quoted, with formulas defused', async () => {
      const session = await signIn();
      const response = await call('/api/demo-requests.csv?q=langley', { headers: withSession(session) });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).to.equal('attachment; filename="bookings-2026-11-23.csv"');
      const text = await response.text();
      const lines = text.split(/\r\n(?=")|\r\n$/);
      expect(lines[0]).to.equal(
        '"id","created_at","time_slot","status","attendance","name","email","company","phone","message","host_name","host_email",' +
          '"utm_source","utm_medium","utm_campaign","utm_term","utm_content","referrer","confirmation_sent_at"',
      );
      expect(lines).to.have.length(4);
      expect(lines[3]).to.equal('');
      // Times in the booking zone (Europe/Berlin: +01:00 in December), as the sales page shows them, PostgreSQL's
      // reading of the booking's creation the yardstick; the phone and the message as the prospect typed them, a line
      // break kept inside its cell.
      const { rows } = (await app.db.raw(
        `SELECT to_char(created_at AT TIME ZONE 'Europe/Berlin', 'YYYY-MM-DD"T"HH24:MI:SS') AS wall,
                extract(epoch FROM (created_at AT TIME ZONE 'Europe/Berlin') - (created_at AT TIME ZONE 'UTC')) / 3600 AS hours
           FROM bookings WHERE id = ?`,
        [ids.dorothy!],
      )) as { rows: { wall: string; hours: string }[] };
      const createdAt = `${rows[0]!.wall}+0${Number(rows[0]!.hours)}:00`;
      expect(lines[1]).to.equal(
        `"${ids.dorothy}","${createdAt}","2026-12-03T10:00:00+01:00","booked","","Dorothy ""Dot"" Vaughan","dorothy@langley.org",` +
          '"Langley, Research","\'+1 757 555 0142","Two questions:\nSMS in the US, and ""fallback"" to e-mail?","","","newsletter","","","","","",""',
      );
      expect(lines[2]).to.contain('"cancelled"').and.to.contain(`"'=HYPERLINK(""http://x"")"`);
      const all = await (await call('/api/demo-requests.csv', { headers: withSession(session) })).text();
      expect(all).to.contain(`"'@risk"`);
      expect(all.split('\r\n')).to.have.length(6);
    });

    it('answers at /api/admin/bookings and its .csv as at /api/demo-requests, kept as an alias, and asks the same token', async () => {
      const headers = { Authorization: `Bearer ${TOKEN}` };
      for (const [path, alias] of [
        ['/api/admin/bookings?q=langley', '/api/demo-requests?q=langley'],
        ['/api/admin/bookings.csv?q=langley', '/api/demo-requests.csv?q=langley'],
      ] as const) {
        const [one, other] = await Promise.all([call(path, { headers }), call(alias, { headers })]);
        expect(one.status, path).to.equal(200);
        const text = await one.text();
        expect(text, path).to.contain('dorothy@langley.org');
        expect(text, path).to.equal(await other.text());
      }
      expect((await call('/api/admin/bookings')).status).to.equal(401);
      expect((await call('/api/admin/bookings.csv')).status).to.equal(401);
    });
  });

  describe('a booking and its marks', () => {
    it('shows its history: booked, moved (from, to), cancelled, the e-mails and the webhook deliveries', async () => {
      await app
        .db('webhook_endpoints')
        .insert({ url: 'https://crm.example.com/hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
      const booked = await app.post('/api/demo-request', booking);
      expect(booked.status).to.equal(201);
      const id = String(booked.body.id);
      const token = bookingToken(id, TEST_LINK_SECRET);
      clock = new Date('2026-11-23T10:00:00Z');
      expect(
        (await app.post(`/api/bookings/${token}/reschedule`, { timeSlot: '2026-11-24T09:00:00.000Z' })).status,
      ).to.equal(200);
      expect((await app.post(`/api/bookings/${token}/cancel`, {})).status).to.equal(200);
      const response = await call(`/api/admin/bookings/${id}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(response.status).to.equal(200);
      const detail = (await response.json()) as {
        history: { what: string; from?: string; to?: string; timeSlot?: string }[];
        emails: { kind: string }[];
        webhookDeliveries: { eventType: string }[];
      };
      expect(detail.history.map((entry) => entry.what)).to.deep.equal(['booked', 'moved', 'cancelled']);
      expect(detail.history[0]).to.include({ timeSlot: SLOT });
      expect(detail.history[1]).to.include({ from: SLOT, to: '2026-11-24T09:00:00.000Z' });
      expect(detail.emails.map((email) => email.kind)).to.include.members(['confirmation', 'update', 'cancellation']);
      expect(detail.webhookDeliveries.map((delivery) => delivery.eventType).sort()).to.deep.equal([
        'booking.cancelled',
        'booking.created',
        'booking.rescheduled',
      ]);
      // A cancelled booking can be neither attended nor a no-show, even after its time.
      clock = new Date('2026-11-25T10:00:00Z');
      const refused = await mark(id, 'attended', { Authorization: `Bearer ${TOKEN}` });
      expect(refused.status).to.equal(409);
      expect(await refused.json()).to.deep.equal({
        error: 'Booking cancelled',
        details: 'This demo was cancelled, so it can be marked neither attended nor no-show.',
      });
      expect(
        (
          await call('/api/admin/bookings/00000000-0000-4000-8000-000000000000', {
            headers: { Authorization: `Bearer ${TOKEN}` },
          })
        ).status,
      ).to.equal(404);
    });

    it("marks after the demo's time only, each new mark one webhook event stored with it; concurrent marks take turns", async () => {
      const booked = await app.post('/api/demo-request', {
        ...booking,
        email: 'ada@second-engines.com',
        timeSlot: '2026-11-24T10:00:00.000Z',
      });
      const id = String(booked.body.id);
      const bearer = { Authorization: `Bearer ${TOKEN}` };
      const early = await mark(id, 'attended', bearer);
      expect(early.status).to.equal(409);
      expect(((await early.json()) as { error: string }).error).to.equal('Demo not held yet');
      clock = new Date('2026-11-24T10:05:00Z');
      const answers = await Promise.all(Array.from({ length: 6 }, () => mark(id, 'attended', bearer)));
      expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
      const events = () =>
        app
          .db('webhook_events')
          .where({ booking_id: id })
          .whereIn('type', ['booking.attended', 'booking.no_show'])
          .orderBy('position')
          .select('type', 'payload');
      const attended = await events();
      expect(attended.map((event) => event.type)).to.deep.equal(['booking.attended']);
      expect(attended[0].payload.data.booking).to.include({ attendance: 'attended', status: 'booked' });
      // Each endpoint has its delivery of the event, queued.
      expect(
        await app
          .db('deliveries as d')
          .join('webhook_events as e', 'e.id', 'd.event_id')
          .where('e.type', 'booking.attended')
          .where('e.booking_id', id)
          .count({ n: '*' }),
      ).to.deep.equal([{ n: '1' }]);
      const corrected = await mark(id, 'no_show', bearer);
      const detail = (await corrected.json()) as {
        attendance: string;
        attendanceMarkedAt: string;
        history: { what: string }[];
      };
      expect(detail).to.include({ attendance: 'no_show', attendanceMarkedAt: clock.toISOString() });
      expect(detail.history.map((entry) => entry.what)).to.deep.equal(['booked', 'attended', 'no_show']);
      expect((await events()).map((event) => event.type)).to.deep.equal(['booking.attended', 'booking.no_show']);
      expect((await mark(id, 'maybe', bearer)).status).to.equal(400);
    });
  });
});
