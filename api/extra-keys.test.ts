/**
 * A body carries the fields its endpoint documents and nothing else: an extra key, at the top or inside the
 * attribution, is refused with 400 and a field message naming it, on every route that reads a JSON body, and nothing
 * is stored. The form's honeypot (`website`) is not an extra key: it is taken off before validation.
 */
import { expect } from 'chai';
import { bookingToken } from '../server-shared/booking-link.js';
import { startAppUnderTest, type AppUnderTest } from '../test/app-under-test.js';
import { TEST_LINK_SECRET } from '../test/stack.js';
import { FUNNEL_PATH } from '../domain/funnel.js';

const ADMIN_TOKEN = 'an-operations-token-of-32-characters-at-least';
// Monday 23 November 2026, 10:30 in Berlin; the slots are Tuesday's.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const slot = (hourUtc: number) => new Date(Date.UTC(2026, 10, 24, hourUtc)).toISOString();
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const booking = (n: number, hourUtc: number) => ({
  name: 'Ada Lovelace',
  email: `ada${n}@analytical-engines.com`,
  company: 'Analytical Engines',
  timeSlot: slot(hourUtc),
});

describe('extra keys in a body', () => {
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({ now: () => NOW, adminToken: ADMIN_TOKEN });
  });
  after(async () => {
    await app.close();
  });

  const count = async (table: string) => Number(((await app.db(table).count({ n: '*' }).first()) as { n: string }).n);
  const expectRefused = (
    answer: { status: number; body: Record<string, unknown> },
    what: string,
    fields: Record<string, string>,
  ) => {
    expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).to.equal(400);
    expect(answer.body.fields, what).to.deep.equal(fields);
    expect(answer.body.details, what).to.equal(Object.values(fields).join(' '));
  };
  const unknown = (key: string) => `${JSON.stringify(key)} is not a field of this request.`;

  it('refuses a demo request with an extra key, at the top or in the attribution, naming each; nothing is stored', async () => {
    await app.db('bookings').delete();
    const cases: [string, unknown, Record<string, string>][] = [
      ['one extra key', { ...booking(1, 8), isAdmin: true }, { isAdmin: unknown('isAdmin') }],
      [
        'two extra keys',
        { ...booking(1, 8), id: 'mine', status: 'booked' },
        { id: unknown('id'), status: unknown('status') },
      ],
      ['a key differing in case', { ...booking(1, 8), NAME: 'Eve' }, { NAME: unknown('NAME') }],
      ['a key with a trailing space', { ...booking(1, 8), 'name ': 'Eve' }, { 'name ': unknown('name ') }],
      ['an empty key', { ...booking(1, 8), '': '' }, { '': unknown('') }],
      [
        'an extra key in the attribution',
        { ...booking(1, 8), attribution: { utm_source: 'newsletter', gclid: 'x' } },
        { 'attribution.gclid': unknown('attribution.gclid') },
      ],
      [
        'an extra key beside a field error',
        { ...booking(1, 8), name: '', isAdmin: true },
        { isAdmin: unknown('isAdmin'), name: 'Name is required.' },
      ],
    ];
    for (const [what, body, fields] of cases) {
      const answer = await app.post('/api/demo-request', body);
      expectRefused(answer, what, fields);
      expect(answer.body.error, what).to.equal('Invalid demo request');
    }
    expect(await count('bookings')).to.equal(0);
  });

  it('still takes the honeypot off first: empty, it books; filled, it is answered as a booking and nothing is booked', async () => {
    await app.db('bookings').delete();
    const person = await app.post('/api/demo-request', { ...booking(2, 9), website: '' });
    expect(person.status, JSON.stringify(person.body)).to.equal(201);
    expect(await count('bookings')).to.equal(1);
    const bot = await app.post('/api/demo-request', { ...booking(3, 10), website: 'http://spam.example' });
    expect(bot.status, JSON.stringify(bot.body)).to.equal(201);
    expect(await count('bookings')).to.equal(1);
    // A bot's extra key is refused as a person's is: the honeypot answers as a real booking would.
    const botExtra = await app.post('/api/demo-request', {
      ...booking(4, 11),
      website: 'http://spam.example',
      isAdmin: true,
    });
    expectRefused(botExtra, 'bot with an extra key', { isAdmin: unknown('isAdmin') });
  });

  it('refuses an extra key on every other route that reads a JSON body', async () => {
    const made = await app.post('/api/demo-request', booking(5, 12));
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const id = String(made.body.id);
    const link = `/api/bookings/${bookingToken(id, TEST_LINK_SECRET)}`;
    const bearer = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const routes: [string, string, unknown, Record<string, string>][] = [
      ['the e-mail check', '/api/validate-email', { email: 'ada@analytical-engines.com', name: 'Ada' }, {}],
      ['a move', `${link}/reschedule`, { timeSlot: slot(13), name: 'Eve' }, {}],
      ['the sign-in', '/api/admin/session', { token: ADMIN_TOKEN, remember: true }, {}],
      ['a mark', `/api/admin/bookings/${id}/attendance`, { attendance: 'attended', note: 'x' }, bearer],
      [
        'a webhook endpoint',
        '/api/admin/webhooks/endpoints',
        { url: 'https://crm.example.com/hook', events: ['booking.created'] },
        bearer,
      ],
      ['a replay', '/api/admin/webhooks/replay', { since: '2026-11-01T00:00:00Z', force: true }, bearer],
    ];
    for (const [what, path, body, headers] of routes) {
      const extra = Object.keys(body as object).at(-1) ?? '';
      expectRefused(await app.post(path, body, headers), what, { [extra]: unknown(extra) });
    }
    const row = (await app.db('bookings').where({ id }).first()) as { time_slot: Date; attendance: string | null };
    expect({ slot: row.time_slot.toISOString(), attendance: row.attendance }).to.deep.equal({
      slot: slot(12),
      attendance: null,
    });
    expect(await count('admin_sessions')).to.equal(0);
    expect(await count('webhook_endpoints')).to.equal(0);
  });

  it('refuses a funnel beacon with an extra key, as text/plain or JSON, and counts nothing', async () => {
    await app.db('funnel_daily_counts').delete();
    for (const contentType of ['text/plain;charset=UTF-8', 'application/json']) {
      const answer = await fetch(`${app.url}${FUNNEL_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': contentType, 'User-Agent': BROWSER },
        body: JSON.stringify({ step: 'dialogOpened', source: 'newsletter', email: 'ada@analytical-engines.com' }),
      });
      expectRefused({ status: answer.status, body: (await answer.json()) as Record<string, unknown> }, contentType, {
        email: unknown('email'),
      });
    }
    expect(await count('funnel_daily_counts')).to.equal(0);
  });
});
