/**
 * The funnel over real HTTP with a real database: beacons as navigator.sendBeacon sends them become daily counts
 * and nothing else; bots, floods and junk are not counted; the admin read answers the counts of a range of days
 * with the attendance of the bookings per source.
 */
import { expect } from 'chai';
import pino from 'pino';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { COUNTED_STEPS, FUNNEL_PATH } from '../../domain/funnel.js';

const ADMIN_TOKEN = 'an-operations-token-of-32-characters-at-least';
/** 23:30 UTC on 3 December is 00:30 on the 4th in the booking zone (Europe/Berlin): the count's day is the zone's. */
const NOW = new Date('2026-12-03T23:30:00Z');
const TODAY = '2026-12-04';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BEACONS_PER_MINUTE = 12;

describe('the funnel', function () {
  this.timeout(20_000);
  let app: AppUnderTest;
  const logLines: string[] = [];
  let client = 0;

  before(async () => {
    app = await startAppUnderTest({
      now: () => NOW,
      adminToken: ADMIN_TOKEN,
      trustProxy: 1,
      // FUNNEL_SOURCES: the sources counted under their own name (beside those a stored booking carries).
      funnelSources: ['newsletter', 'x'.repeat(40)],
      limits: { demoRequestsPerHour: 5, emailChecksPerMinute: BEACONS_PER_MINUTE },
      logger: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }),
    });
  });
  after(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.db('funnel_daily_counts').delete();
    client += 1;
  });

  /** A beacon as Chromium sends one: a string body, text/plain; each test from its own address (X-Forwarded-For). */
  const beacon = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${FUNNEL_PATH}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'text/plain;charset=UTF-8',
        'User-Agent': BROWSER,
        'X-Forwarded-For': `198.51.100.${client}`,
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const counts = async () =>
    (await app
      .db('funnel_daily_counts')
      .select(app.db.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'source', 'step', 'count')
      .orderBy(['source', 'step'])) as {
      day: string;
      source: string;
      step: string;
      count: string;
    }[];
  const admin = (query: string, token = ADMIN_TOKEN) =>
    fetch(`${app.url}/api/admin/funnel${query}`, { headers: { Authorization: `Bearer ${token}` } });

  it("counts each beacon on the booking zone's day under its source, lower case, as text/plain or JSON", async () => {
    for (const body of [
      { step: 'dialogOpened', source: 'Newsletter ' },
      { step: 'emailAccepted', source: 'newsletter' },
      { step: 'dialogOpened' },
      { step: 'dialogOpened', source: '   ' },
    ]) {
      expect((await beacon(body)).status).to.equal(204);
    }
    const json = await beacon({ step: 'dialogOpened', source: 'NEWSLETTER' }, { 'Content-Type': 'application/json' });
    expect(json.status).to.equal(204);
    // The path as the router matches it, in another case and with a trailing slash: the beacon is read alike.
    const otherPath = await fetch(`${app.url}/API/Funnel/`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'User-Agent': BROWSER },
      body: JSON.stringify({ step: 'booked' }),
    });
    expect(otherPath.status).to.equal(204);
    expect(await counts()).to.deep.equal([
      { day: TODAY, source: '', step: 'booked', count: '1' },
      { day: TODAY, source: '', step: 'dialogOpened', count: '2' },
      { day: TODAY, source: 'newsletter', step: 'dialogOpened', count: '2' },
      { day: TODAY, source: 'newsletter', step: 'emailAccepted', count: '1' },
    ]);
  });

  it("counts a source that is not a short plain name as 'other', so the table cannot be flooded with made-up ones", async () => {
    for (const source of ['ada@example.com', 'x'.repeat(41), 'news letter', 'ünïcode', '<script>', 'a/b']) {
      expect((await beacon({ step: 'slotChosen', source })).status, source).to.equal(204);
    }
    expect((await beacon({ step: 'slotChosen', source: 'x'.repeat(40) })).status).to.equal(204);
    expect(await counts()).to.deep.equal([
      { day: TODAY, source: 'other', step: 'slotChosen', count: '6' },
      { day: TODAY, source: 'x'.repeat(40), step: 'slotChosen', count: '1' },
    ]);
  });

  it("counts 30 made-up sources, plain ones too, as 'other': no row beyond other's, however many come", async () => {
    const madeUp = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0 ? `john.smith${i}.acme-corp.com` : i % 3 === 1 ? `campaign-${i}` : `x${i}_y`,
    );
    // Each from an address of its own: the per-client limit is not what stops them.
    for (const [i, source] of madeUp.entries()) {
      expect(
        (await beacon({ step: 'dialogOpened', source }, { 'X-Forwarded-For': `203.0.113.${i + 1}` })).status,
        source,
      ).to.equal(204);
    }
    expect(await counts()).to.deep.equal([{ day: TODAY, source: 'other', step: 'dialogOpened', count: '30' }]);
  });

  it('answers bots 204 and counts none of them: a crawler, a headless browser, no User-Agent', async () => {
    const bots = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'curl/8.5.0',
      '',
    ];
    for (const userAgent of bots) {
      expect(
        (await beacon({ step: 'booked', source: 'newsletter' }, { 'User-Agent': userAgent })).status,
        userAgent,
      ).to.equal(204);
    }
    expect(await counts()).to.deep.equal([]);
    expect((await beacon({ step: 'booked', source: 'newsletter' })).status).to.equal(204);
    expect(await counts()).to.have.length(1);
  });

  it('refuses what is not a beacon, and counts none of it', async () => {
    const refusals: [string, unknown, Record<string, string>, number][] = [
      ['unknown step', { step: 'paid' }, {}, 400],
      ['no step', { source: 'newsletter' }, {}, 400],
      ['not JSON', 'step=booked', {}, 400],
      ['an array', [{ step: 'booked' }], {}, 400],
      ['a number as source', { step: 'booked', source: 42 }, {}, 400],
      ['a source over 100 characters', { step: 'booked', source: 'x'.repeat(101) }, {}, 400],
      ['a form', 'step=booked', { 'Content-Type': 'application/x-www-form-urlencoded' }, 415],
      ['over 1 KB', { step: 'booked', source: 'newsletter', padding: 'x'.repeat(2000) }, {}, 413],
      [
        'over 1 KB of JSON',
        { step: 'booked', source: 'newsletter', padding: 'x'.repeat(2000) },
        { 'Content-Type': 'application/json' },
        413,
      ],
    ];
    for (const [what, body, headers, status] of refusals) {
      const answer = await beacon(body, headers);
      expect(answer.status, what).to.equal(status);
      expect(await answer.json(), what).to.have.property('error');
    }
    expect(await counts()).to.deep.equal([]);
  });

  it('holds a client to the per-client limit (its address, whatever it claims in X-Forwarded-For beyond the proxy), and counts nothing past it', async () => {
    const address = `198.51.100.${client}`;
    const statuses: number[] = [];
    for (let i = 0; i < BEACONS_PER_MINUTE + 2; i += 1) {
      // A forged entry to the left of what the one trusted proxy appended changes nothing.
      statuses.push(
        (await beacon({ step: 'dialogOpened' }, { 'X-Forwarded-For': `203.0.113.${i}, ${address}` })).status,
      );
    }
    expect(statuses).to.deep.equal([...Array<number>(BEACONS_PER_MINUTE).fill(204), 429, 429]);
    expect(await counts()).to.deep.equal([
      { day: TODAY, source: '', step: 'dialogOpened', count: String(BEACONS_PER_MINUTE) },
    ]);
    // Another client is not held back.
    expect((await beacon({ step: 'dialogOpened' }, { 'X-Forwarded-For': '198.51.100.250' })).status).to.equal(204);
  });

  it('keeps nothing personal: the table is day, source, step and count, and the log says nothing of the beacon', async () => {
    logLines.length = 0;
    const forwarded = `198.51.100.${client}`;
    // A beacon with more than its two fields is refused, and counts nothing.
    const personal = await beacon({
      step: 'booked',
      source: 'newsletter',
      email: 'ada@analytical-engines.com',
      name: 'Ada',
    });
    expect(personal.status).to.equal(400);
    expect(await counts()).to.deep.equal([]);
    await beacon({ step: 'booked', source: 'newsletter' }, { Referer: 'https://news.example.org/post?user=ada' });
    const { rows: columns } = (await app.db.raw(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'funnel_daily_counts' ORDER BY ordinal_position",
    )) as { rows: { column_name: string; data_type: string }[] };
    expect(columns).to.deep.equal([
      { column_name: 'day', data_type: 'date' },
      { column_name: 'source', data_type: 'text' },
      { column_name: 'step', data_type: 'text' },
      { column_name: 'count', data_type: 'bigint' },
    ]);
    const [row] = (await app.db('funnel_daily_counts').select('*')) as Record<string, unknown>[];
    expect(Object.keys(row ?? {})).to.deep.equal(['day', 'source', 'step', 'count']);
    expect({ source: row?.source, step: row?.step, count: row?.count }).to.deep.equal({
      source: 'newsletter',
      step: 'booked',
      count: '1',
    });
    const logged = logLines.join('\n');
    expect(logged).to.include(FUNNEL_PATH);
    for (const personal of ['ada', forwarded, '127.0.0.1', 'Chrome', 'news.example.org', 'newsletter'])
      expect(logged, personal).to.not.include(personal);
  });

  describe('the sources kept: listed, or carried by a stored booking', () => {
    // Monday 23 November 2026, 10:30 in Berlin; the slot is Tuesday's.
    const BOOKING_NOW = new Date('2026-11-23T09:30:00.000Z');
    let own: AppUnderTest;
    before(async () => {
      own = await startAppUnderTest({ now: () => BOOKING_NOW, funnelSources: ['newsletter'] });
      // Stored before the API read its sources: a booking of last month, and one of five months ago (too old to count).
      const stored = (utmSource: string, createdAt: string) => ({
        name: 'Prospect',
        email: `p${Math.random().toString(36).slice(2)}@northwind-logistics.com`,
        company: 'Northwind',
        time_slot: new Date('2026-10-20T09:00:00Z'),
        created_at: new Date(createdAt),
        attribution: { utm_source: utmSource },
      });
      const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
      await own
        .db('bookings')
        .insert([
          stored('Partner-Blog', daysAgo(30)),
          stored('old-campaign', daysAgo(150)),
          stored('ada@example.com', daysAgo(3)),
        ]);
    });
    after(async () => {
      await own.close();
    });
    const send = (source: string) =>
      fetch(`${own.url}${FUNNEL_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', 'User-Agent': BROWSER },
        body: JSON.stringify({ step: 'slotChosen', source }),
      });
    const ownCounts = async () =>
      (await own.db('funnel_daily_counts').select('source', 'count').orderBy('source')) as {
        source: string;
        count: string;
      }[];

    it("keeps a listed source and one a stored booking carries (in its funnel form); counts the rest as 'other'", async () => {
      for (const source of ['Newsletter', 'partner-blog', 'old-campaign', 'ada@example.com', 'made-up'])
        expect((await send(source)).status, source).to.equal(204);
      expect(await ownCounts()).to.deep.equal([
        { source: 'newsletter', count: '1' },
        { source: 'other', count: '3' },
        { source: 'partner-blog', count: '1' },
      ]);
    });

    it('knows a source from the moment a booking through the API carries it', async () => {
      await own.db('funnel_daily_counts').delete();
      expect((await send('spring-webinar')).status).to.equal(204);
      const booked = await own.post('/api/demo-request', {
        name: 'Ada Lovelace',
        email: 'ada@analytical-engines.com',
        company: 'Analytical Engines',
        timeSlot: '2026-11-24T08:00:00.000Z',
        attribution: { utm_source: 'Spring-Webinar', utm_medium: 'email' },
      });
      expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
      expect((await send('spring-webinar')).status).to.equal(204);
      expect(await ownCounts()).to.deep.equal([
        { source: 'other', count: '1' },
        { source: 'spring-webinar', count: '1' },
      ]);
    });
  });

  describe('GET /api/admin/funnel', () => {
    it('answers the counts of the days in the range, a row per day and source, every step named', async () => {
      await app.db('funnel_daily_counts').insert([
        { day: '2026-11-30', source: 'newsletter', step: 'dialogOpened', count: 9 },
        { day: '2026-12-01', source: 'newsletter', step: 'dialogOpened', count: 5 },
        { day: '2026-12-01', source: 'newsletter', step: 'booked', count: 2 },
        { day: '2026-12-01', source: '', step: 'dialogOpened', count: 3 },
        { day: '2026-12-02', source: 'linkedin', step: 'emailAccepted', count: 1 },
        { day: '2026-12-03', source: 'linkedin', step: 'slotChosen', count: 4 },
      ]);
      const answer = await admin('?from=2026-12-01&to=2026-12-02');
      expect(answer.status).to.equal(200);
      expect(answer.headers.get('cache-control')).to.equal('no-store');
      const zero = { dialogOpened: 0, emailAccepted: 0, slotChosen: 0, booked: 0, disqualified: 0 };
      expect(await answer.json()).to.deep.equal({
        from: '2026-12-01',
        to: '2026-12-02',
        steps: [...COUNTED_STEPS],
        days: [
          { day: '2026-12-01', source: null, counts: { ...zero, dialogOpened: 3 } },
          { day: '2026-12-01', source: 'newsletter', counts: { ...zero, dialogOpened: 5, booked: 2 } },
          { day: '2026-12-02', source: 'linkedin', counts: { ...zero, emailAccepted: 1 } },
        ],
        attendance: [],
      });
      const oneDay = (await (await admin('?from=2026-12-03&to=2026-12-03')).json()) as { days: unknown[] };
      expect(oneDay.days).to.deep.equal([
        { day: '2026-12-03', source: 'linkedin', counts: { ...zero, slotChosen: 4 } },
      ]);
    });

    it("answers each source's bookings in the range (their slot's day in the booking zone), attended and no-show, and the rate once any is marked", async () => {
      await app.db('bookings').delete();
      const marked = new Date('2026-12-10T12:00:00Z');
      const booking = (slot: string, utmSource: string | null, extra: Record<string, unknown> = {}) => ({
        name: 'Prospect',
        email: `p${Math.random().toString(36).slice(2)}@northwind-logistics.com`,
        company: 'Northwind',
        time_slot: new Date(slot),
        attribution: utmSource === null ? null : { utm_source: utmSource, utm_medium: 'email' },
        ...extra,
      });
      const attended = { attendance: 'attended', attendance_marked_at: marked };
      const noShow = { attendance: 'no_show', attendance_marked_at: marked };
      await app.db('bookings').insert([
        booking('2026-12-07T08:00:00Z', 'newsletter', attended),
        booking('2026-12-07T09:00:00Z', 'Newsletter', attended),
        booking('2026-12-07T10:00:00Z', 'newsletter', noShow),
        booking('2026-12-07T11:00:00Z', 'newsletter'),
        booking('2026-12-07T12:00:00Z', 'newsletter', { status: 'cancelled' }),
        booking('2026-12-08T08:00:00Z', 'linkedin'),
        booking('2026-12-08T09:00:00Z', null, noShow),
        booking('2026-12-08T10:00:00Z', 'ada@example.com', attended),
        // 23:30 UTC on the 6th is 00:30 on the 7th in Berlin: inside. 23:30 UTC on the 8th is the 9th there: outside.
        booking('2026-12-06T23:30:00Z', 'linkedin', attended),
        booking('2026-12-08T23:30:00Z', 'newsletter', noShow),
        booking('2026-12-05T09:00:00Z', 'newsletter', attended),
      ]);
      const answer = await admin('?from=2026-12-07&to=2026-12-08');
      expect(answer.status).to.equal(200);
      const { attendance } = (await answer.json()) as { attendance: unknown[] };
      expect(attendance).to.deep.equal([
        { source: 'newsletter', booked: 4, attended: 2, noShow: 1, attendedRate: 2 / 3 },
        { source: 'linkedin', booked: 2, attended: 1, noShow: 0, attendedRate: 1 },
        { source: null, booked: 1, attended: 0, noShow: 1, attendedRate: 0 },
        { source: 'other', booked: 1, attended: 1, noShow: 0, attendedRate: 1 },
      ]);
      const unmarked = (await (await admin('?from=2026-12-08&to=2026-12-08')).json()) as {
        attendance: { source: string | null; attendedRate: number | null }[];
      };
      expect(unmarked.attendance.find((entry) => entry.source === 'linkedin')).to.deep.equal({
        source: 'linkedin',
        booked: 1,
        attended: 0,
        noShow: 0,
        attendedRate: null,
      });
    });

    it('refuses a range that is not one, and answers only to the operations token', async () => {
      for (const query of [
        '',
        '?from=2026-12-01',
        '?from=2026-12-01&to=tomorrow',
        '?from=2026-02-30&to=2026-03-01',
        '?from=2026-12-02&to=2026-12-01',
        '?from=2025-01-01&to=2026-01-02',
      ]) {
        const answer = await admin(query);
        expect(answer.status, query).to.equal(400);
        expect(await answer.json(), query)
          .to.have.property('details')
          .that.is.a('string');
      }
      expect((await admin('?from=2025-01-01&to=2026-01-01')).status, '366 days').to.equal(200);
      expect((await fetch(`${app.url}/api/admin/funnel?from=2026-12-01&to=2026-12-01`)).status).to.equal(401);
      expect(
        (await admin('?from=2026-12-01&to=2026-12-01', 'a-wrong-token-of-32-characters-or-more-xx')).status,
      ).to.equal(401);
    });
  });
});
