/**
 * The booking pages without script, over HTTP against the real database and queue: the form's page, its post (the
 * same idempotency and honeypot as POST /api/bookings), a post from another site refused with nothing stored, and a
 * booking's move and cancel by plain forms. Needs the web build (`npm run build:web`): the pages are its render.
 * What a person sees of them in a browser with scripts off is web/e2e/no-script.test.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';
import { bookingIdOf } from '../../server-shared/booking-link.js';
import { HONEYPOT_FIELD } from '../../domain/demo-request.js';
import { SLOT_TAKEN_MESSAGE } from '../../domain/booking.js';

const WEB_ROOT = path.resolve('dist/web');
const SITE = 'https://converge.test';
// Monday 23 November 2026, 10:30 in Berlin.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const slot = (day: number, hourUtc: number) => new Date(Date.UTC(2026, 10, day, hourUtc)).toISOString();

let made = 0;
function visitor(timeSlot: string): Record<string, string> {
  made += 1;
  return {
    name: 'Grace Hopper',
    email: `grace${made}@compilers-${made}.com`,
    company: 'Compilers Inc',
    timeSlot,
    phone: '',
    message: '',
    [HONEYPOT_FIELD]: '',
    idempotencyKey: `form-key-${made}-${Date.now()}`,
  };
}

/** A page's markup without the empty comments React writes between texts, which a browser never shows. */
const markup = (html: string) => html.replaceAll('<!-- -->', '');

/** The start tag of the element with this id. */
const startTag = (html: string, id: string) => new RegExp(`<[a-z]+ id="${id}"[^>]*>`).exec(html)?.[0] ?? '';

const fromSite = { Origin: SITE, 'Sec-Fetch-Site': 'same-origin' };

describe('the booking pages without script', function () {
  this.timeout(30_000);
  let app: AppUnderTest;
  before(async function () {
    if (!existsSync(path.join(WEB_ROOT, 'no-script.html')))
      throw new Error('No production build (no-script.html): run `npm run build:web` first.');
    app = await startAppUnderTest({ now: () => NOW, webRoot: WEB_ROOT, publicUrl: SITE });
  });
  after(async () => {
    await app.close();
  });

  const count = async (table: string) => Number(((await app.db(table).count({ n: '*' }).first()) as { n: string }).n);
  const post = (pathname: string, fields: Record<string, string>, headers: Record<string, string> = fromSite) =>
    fetch(`${app.url}${pathname}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const page = async (pathname: string) => {
    const answer = await fetch(`${app.url}${pathname}`);
    return { status: answer.status, headers: answer.headers, html: markup(await answer.text()) };
  };
  const tokenOf = (location: string | null) => /^\/booking\/([^/]+)\/confirmation$/.exec(location ?? '')?.[1] ?? '';

  it('serves the form with the free slots of the next five working days, a one-time key and no script', async () => {
    const { status, headers, html } = await page('/book');
    expect(status).to.equal(200);
    expect(headers.get('cache-control')).to.equal('no-store');
    expect(html).not.to.match(/<script/);
    expect(headers.get('content-security-policy')).not.to.include('unsafe-inline');
    expect(html).to.match(/<form [^>]*action="\/book" method="post"/);
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
    expect(key).to.match(/^[0-9a-f-]{36}$/);
    // A new key for every form shown.
    expect((await page('/book')).html).not.to.include(key);
    // Monday's first slot after the notice is 13:00 in Berlin; the week's other four days open at 07:00.
    const days = [...html.matchAll(/<fieldset class="[^"]*"><legend>([^<]+)<\/legend>/g)].map((match) => match[1]);
    expect(days).to.deep.equal([
      'Monday, 23 November 2026',
      'Tuesday, 24 November 2026',
      'Wednesday, 25 November 2026',
      'Thursday, 26 November 2026',
      'Friday, 27 November 2026',
    ]);
    const firstSlot = /<input type="radio" id="slot-0" name="timeSlot" value="([^"]+)"/.exec(html)?.[1];
    expect(firstSlot).to.equal(slot(23, 12));
    expect(html).to.include('Times are in Europe Time (Europe/Berlin)');
    expect(html).to.match(new RegExp(`name="${HONEYPOT_FIELD}"`));
  });

  it('refuses a post from another site with a 403 page, and stores nothing', async () => {
    for (const headers of <Record<string, string>[]>[
      { Origin: 'https://attacker.example' },
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: SITE, 'Sec-Fetch-Site': 'same-site' },
    ]) {
      const answer = await post('/book', visitor(slot(24, 8)), headers);
      expect(answer.status, JSON.stringify(headers)).to.equal(403);
      expect(await answer.text()).to.include('This form came from another site');
    }
    expect(await count('bookings')).to.equal(0);
    expect(await count('trapped_bookings')).to.equal(0);
    expect(await count('idempotency_keys')).to.equal(0);
  });

  it('books once for one key posted twice, and sends both posts to the same confirmation', async () => {
    const fields = visitor(slot(24, 9));
    const first = await post('/book', fields);
    const again = await post('/book', fields);
    expect(first.status).to.equal(303);
    expect(again.status).to.equal(303);
    expect(again.headers.get('location')).to.equal(first.headers.get('location'));
    const token = tokenOf(first.headers.get('location'));
    const id = bookingIdOf(token, TEST_LINK_SECRET);
    const rows = await app.db('bookings').where({ email: fields['email'] });
    expect(rows.map((row: { id: string }) => row.id)).to.deep.equal([id]);
    const confirmation = await page(`/booking/${token}/confirmation`);
    expect(confirmation.status).to.equal(200);
    expect(confirmation.headers.get('referrer-policy')).to.equal('same-origin');
    expect(confirmation.html).to.include('Your demo is booked');
    expect(confirmation.html).to.include('Tuesday, 24 November 2026 at 10:00 Europe Time');
    expect(confirmation.html).to.include(`href="/booking/${token}"`);
    expect(confirmation.html).to.include(`href="/api/bookings/${token}/invite.ics"`);
  });

  it('traps a post whose honeypot is filled as the API does: a booking-like answer, nothing booked', async () => {
    const before = await count('bookings');
    const answer = await post('/book', { ...visitor(slot(24, 10)), [HONEYPOT_FIELD]: 'http://spam.example' });
    expect(answer.status).to.equal(303);
    const token = tokenOf(answer.headers.get('location'));
    expect(await count('bookings')).to.equal(before);
    expect(await count('trapped_bookings')).to.equal(1);
    // Its confirmation opens like a booking's, so the trap is not given away.
    const confirmation = await page(`/booking/${token}/confirmation`);
    expect(confirmation.status).to.equal(200);
    expect(confirmation.html).to.include('Your demo is booked');
  });

  it('answers an invalid form with the form again: each error beside its field, linked from a summary, values kept', async () => {
    const fields = { ...visitor(''), name: '', email: 'grace@', company: 'Kept & Co', message: 'Hello <there>' };
    const answer = await post('/book', fields);
    expect(answer.status).to.equal(400);
    const html = markup(await answer.text());
    expect(html).to.include('<title>Error: Book a demo | Converge</title>');
    expect(html).to.match(/<a href="#book-name">Name is required.<\/a>/);
    expect(html).to.match(/<a href="#slot-0">Please select a date and time.<\/a>/);
    const name = startTag(html, 'book-name');
    expect(name).to.include('aria-invalid="true"').and.to.include('aria-describedby="book-name-error"');
    expect(html).to.match(/<p id="book-name-error"[^>]*>.*?Name is required.<\/p>/);
    expect(startTag(html, 'book-email')).to.include('value="grace@"');
    expect(startTag(html, 'book-company')).to.include('value="Kept &amp; Co"').and.not.to.include('aria-invalid');
    expect(html).to.match(/<textarea id="book-message"[^>]*>Hello &lt;there&gt;<\/textarea>/);
    expect(await count('bookings')).to.equal(1);
  });

  it('answers a body that is no form, or a form past its size, with the form again and nothing stored', async () => {
    const before = await count('bookings');
    const json = await fetch(`${app.url}/book`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...fromSite },
      body: JSON.stringify(visitor(slot(24, 11))),
    });
    expect(json.status).to.equal(415);
    expect(markup(await json.text())).to.match(/<form [^>]*action="\/book" method="post"/);
    const long = await post('/book', { ...visitor(slot(24, 11)), message: 'é'.repeat(20_000) });
    expect(long.status).to.equal(413);
    expect(await long.text()).to.include('The form is longer than we take.');
    expect(await count('bookings')).to.equal(before);
  });

  it('shows the fresh choices when the slot was taken meanwhile', async () => {
    const taken = slot(25, 8);
    expect((await post('/book', visitor(taken))).status).to.equal(303);
    const answer = await post('/book', visitor(taken));
    expect(answer.status).to.equal(409);
    const html = markup(await answer.text());
    expect(html).to.include(SLOT_TAKEN_MESSAGE);
    expect(html).not.to.include(`value="${taken}"`);
    expect(html).to.include(`value="${slot(25, 9)}"`);
  });

  it('moves and cancels a booking by plain forms from its own pages, and refuses them from another site', async () => {
    const booked = await post('/book', visitor(slot(26, 8)));
    const token = tokenOf(booked.headers.get('location'));
    const id = bookingIdOf(token, TEST_LINK_SECRET);
    // The manage page's Reschedule and Cancel ask it for their step, which is a page of its own.
    for (const step of ['move', 'cancel']) {
      const asked = await fetch(`${app.url}/booking/${token}?step=${step}`, { redirect: 'manual' });
      expect(asked.status).to.equal(303);
      expect(asked.headers.get('location')).to.equal(`/booking/${token}/${step}`);
    }
    const moveForm = await page(`/booking/${token}/move`);
    expect(moveForm.status).to.equal(200);
    expect(moveForm.html).to.match(new RegExp(`<form [^>]*action="/booking/${token}/move" method="post"`));
    const to = slot(26, 10);
    expect(
      (await post(`/booking/${token}/move`, { timeSlot: to }, { Origin: 'https://attacker.example' })).status,
    ).to.equal(403);
    expect(((await app.db('bookings').where({ id }).first()) as { time_slot: Date }).time_slot.toISOString()).to.equal(
      slot(26, 8),
    );
    const moved = await post(`/booking/${token}/move`, { timeSlot: to });
    expect(moved.status).to.equal(200);
    expect(markup(await moved.text())).to.include(
      'Your demo is moved to Thursday, 26 November 2026 at 11:00 Europe Time',
    );
    expect(((await app.db('bookings').where({ id }).first()) as { time_slot: Date }).time_slot.toISOString()).to.equal(
      to,
    );

    const noSlot = await post(`/booking/${token}/move`, {});
    expect(noSlot.status).to.equal(400);
    expect(await noSlot.text()).to.include('Please select a date and time.');

    const confirm = await page(`/booking/${token}/cancel`);
    expect(confirm.html).to.include('Cancel this demo?');
    expect((await post(`/booking/${token}/cancel`, {}, { 'Sec-Fetch-Site': 'cross-site' })).status).to.equal(403);
    expect(((await app.db('bookings').where({ id }).first()) as { status: string }).status).to.equal('booked');
    const cancelled = await post(`/booking/${token}/cancel`, {});
    expect(cancelled.status).to.equal(200);
    expect(await cancelled.text()).to.include('Your demo is cancelled');
    expect(((await app.db('bookings').where({ id }).first()) as { status: string }).status).to.equal('cancelled');
  });

  it('answers a link that opens no booking with its 404 page', async () => {
    const answer = await post('/booking/not-a-token/cancel', {});
    expect(answer.status).to.equal(404);
    expect(await answer.text()).to.include('This link does not open a booking');
    expect((await page('/booking/not-a-token/move')).status).to.equal(404);
  });

  it('offers the dialog’s month a week at a time, in the zone chosen, and keeps the visit’s source and zone', async () => {
    const days = (html: string) =>
      [...html.matchAll(/<fieldset class="[^"]*"><legend>([^<]+)<\/legend>/g)].map((match) => match[1]);
    const weeks = (html: string) => [...html.matchAll(/<option value="(\d{4}-\d{2}-\d{2})"/g)].map((match) => match[1]);
    const first = await page('/book');
    // To a month from now (23 December, 10:30 in Berlin), as the dialog's calendar offers.
    expect(weeks(first.html)).to.deep.equal(['2026-11-23', '2026-11-30', '2026-12-07', '2026-12-14', '2026-12-21']);
    expect(first.html).not.to.include('name="smsConsent"');
    const last = await page('/book?from=2026-12-21');
    expect(days(last.html)).to.deep.equal([
      'Monday, 21 December 2026',
      'Tuesday, 22 December 2026',
      'Wednesday, 23 December 2026',
    ]);
    expect(last.html).to.include('<option value="2026-12-21" selected="">');
    // A week outside the window, or no day at all, is the first week.
    for (const from of ['2027-01-04', '2026-11-16', 'soon'])
      expect(days((await page(`/book?from=${from}`)).html)[0], from).to.equal('Monday, 23 November 2026');

    // A zone it does not know is the booking zone; a known one is shown beside each time and posted as the visitor's.
    expect((await page('/book?zone=Mars%2FOlympus')).html).to.include('name="visitorTimeZone" value="Europe/Berlin"');
    const newYork = await page('/book?zone=America%2FNew_York&utm_source=partner&utm_campaign=q4');
    expect(newYork.html).to.include('name="visitorTimeZone" value="America/New_York"');
    expect(newYork.html).to.include('with yours (America/New_York) beside them');
    expect(newYork.html).to.match(/<label for="slot-0">13:00<span class="[^"]*">07:00 your time<\/span><\/label>/);
    expect(newYork.html).to.include('name="attribution.utm_source" value="partner"');
    const fields: Record<string, string> = {
      ...visitor(slot(27, 15)),
      visitorTimeZone: 'America/New_York',
      'attribution.utm_source': 'partner',
      'attribution.utm_campaign': 'q4',
    };
    const booked = await post('/book', fields);
    expect(booked.status).to.equal(303);
    const row = (await app
      .db('bookings')
      .where({ email: fields['email'] })
      .first('attribution', 'visitor_time_zone')) as {
      attribution: unknown;
      visitor_time_zone: string;
    };
    expect(row).to.deep.equal({
      attribution: { utm_source: 'partner', utm_campaign: 'q4' },
      visitor_time_zone: 'America/New_York',
    });
    // Refused, the form comes back with the visit's source and zone still in it.
    const refused = await post('/book', {
      ...fields,
      ...visitor(slot(27, 16)),
      name: '',
      visitorTimeZone: 'Asia/Tokyo',
    });
    expect(refused.status).to.equal(400);
    const again = markup(await refused.text());
    expect(again).to.include('name="attribution.utm_source" value="partner"');
    expect(again).to.include('name="visitorTimeZone" value="Asia/Tokyo"');
  });
});

describe("the booking form without script shares the API's rate limit", function () {
  this.timeout(30_000);
  let app: AppUnderTest;
  before(async () => {
    app = await startAppUnderTest({
      now: () => NOW,
      webRoot: WEB_ROOT,
      publicUrl: SITE,
      limits: { demoRequestsPerHour: 1, emailChecksPerMinute: 0 },
    });
  });
  after(async () => {
    await app.close();
  });

  it('refuses a form post past the hour allowance the JSON booking used, with the form again and Retry-After', async () => {
    const { idempotencyKey: _key, website: _trap, phone: _phone, message: _message, ...json } = visitor(slot(24, 8));
    expect((await app.post('/api/bookings', json)).status).to.equal(201);
    const answer = await fetch(`${app.url}/book`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...fromSite },
      body: new URLSearchParams(visitor(slot(24, 9))).toString(),
    });
    expect(answer.status).to.equal(429);
    expect(Number(answer.headers.get('retry-after'))).to.be.greaterThan(0);
    const html = markup(await answer.text());
    expect(html).to.include('Several demo requests came from your network in the last hour.');
    expect(html).to.match(/<form [^>]*action="\/book" method="post"/);
    expect(Number(((await app.db('bookings').count({ n: '*' }).first()) as { n: string }).n)).to.equal(1);
  });
});
