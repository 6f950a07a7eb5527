/**
 * The texts' short link (issue 40, api/bookings/sms-link.ts), through the programs: a booking with consent is texted a link under PUBLIC_URL
 * that leads to its own manage page, still once it is cancelled; a code that opens nothing is the booking page's 404;
 * wrong codes are counted per network, the right one passes; the database keeps a digest, never the code, and
 * retention erases it. Needs the built site (npm run build:web), as npm test makes it.
 */
import { expect } from 'chai';
import { bookingToken, smsLinkCode, smsLinkDigest } from '../../server-shared/booking-link.js';
import { bookableSlots, bookWithTexts } from '../../test/booking.js';
import { startSmsc, type Smsc } from '../../test/smsc.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { expectPrivatePageHeaders } from '../../test/web-root.js';
import { anonymiseBatch } from '../retention.js';

const NOT_FOUND_TITLE = 'This link does not open a booking';

describe('the texts’ short link', function () {
  this.timeout(60_000);
  let smsc: Smsc;
  let stack: Stack;
  const slots = bookableSlots(7);

  before(async () => {
    smsc = await startSmsc();
    // Each test's wrong codes come from a network of its own (X-Forwarded-For, one proxy trusted).
    stack = await startStack({ env: { SMPP_URL: smsc.url, SMS_FROM: 'Converge', TRUST_PROXY: '1' } });
  });
  after(async () => {
    await stack?.close();
    await smsc?.stop();
  });

  const book = (slot: number, email: string, phone: string) => bookWithTexts(stack.url, slots[slot]!.iso, email, phone);
  /** The link at the end of the text the number received. */
  const linkTextedTo = async (number: string, count = 1) => {
    const texts = await until(
      async () => {
        const received = smsc.received.filter((text) => text.to === number);
        return received.length >= count ? received : undefined;
      },
      `${count} texts to ${number}`,
      20_000,
    );
    return /\S+$/.exec(texts[count - 1]!.text)?.[0] ?? '';
  };
  const open = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });
  const pageOf = async (location: string) => {
    const page = await fetch(new URL(location, stack.url));
    return { status: page.status, html: await page.text() };
  };

  it('leads from the text to the booking’s own manage page, and stays a digest in the database', async () => {
    const id = await book(0, 'ada@analytical-engines.com', '+33 6 12 34 56 78');
    const link = await linkTextedTo('+33612345678');
    const code = smsLinkCode(id, TEST_LINK_SECRET);
    expect(link).to.equal(`${stack.url}/m/${code}`);
    const answer = await open(link);
    expect(answer.status).to.equal(303);
    expect(answer.headers.get('location')).to.equal(`/booking/${bookingToken(id, TEST_LINK_SECRET)}`);
    expect(answer.headers.get('cache-control')).to.equal('no-store');
    expect(answer.headers.get('referrer-policy')).to.equal('no-referrer');
    const page = await pageOf(answer.headers.get('location')!);
    expect(page.status).to.equal(200);
    expect(page.html)
      .to.include('Ada Lovelace')
      .and.match(/>Booked<\/span>/)
      .and.not.include(NOT_FOUND_TITLE);
    // The table holds what opens nothing by itself.
    const rows = (await stack.db('sms_links').where({ booking_id: id })) as { digest: string }[];
    expect(rows.map((row) => row.digest)).to.deep.equal([smsLinkDigest(code)]);
    expect(JSON.stringify(await stack.db('bookings').where({ id }))).to.not.include(code);
  });

  it('answers a code that opens nothing with the booking page’s 404, and leads another booking’s code to that one', async () => {
    const first = await book(1, 'grace@analytical-engines.com', '+33 6 12 34 56 79');
    const second = await book(2, 'alan@analytical-engines.com', '+33 6 12 34 56 80');
    const code = smsLinkCode(first, TEST_LINK_SECRET);
    // One character changed, a code made with another secret, one of the wrong shape: none opens anything.
    const altered = `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [altered, smsLinkCode(first, 'another-secret-of-32-characters-at-least'), 'short']) {
      const answer = await open(`${stack.url}/m/${wrong}`, { 'X-Forwarded-For': '203.0.113.7' });
      expect(answer.status, wrong).to.equal(404);
      expectPrivatePageHeaders(answer.headers);
      const html = await answer.text();
      expect(html).to.match(new RegExp(`<h1[^>]*>${NOT_FOUND_TITLE}</h1>`));
      expect(html).to.include('Open it again from your confirmation e-mail');
    }
    const other = await open(`${stack.url}/m/${smsLinkCode(second, TEST_LINK_SECRET)}`);
    expect(other.headers.get('location')).to.equal(`/booking/${bookingToken(second, TEST_LINK_SECRET)}`);
  });

  it('holds off a network that keeps sending wrong codes, while the right code still passes', async () => {
    const id = await book(3, 'mary@analytical-engines.com', '+33 6 12 34 56 81');
    const wrongs = await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        open(`${stack.url}/m/${'w'.repeat(21)}${String.fromCharCode(65 + i)}`, { 'X-Forwarded-For': '192.0.2.1' }),
      ),
    );
    const statuses = wrongs.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 404)).to.have.length(10);
    expect(statuses.filter((status) => status === 429)).to.have.length(1);
    const held = wrongs.find((answer) => answer.status === 429)!;
    expect(Number(held.headers.get('retry-after'))).to.be.greaterThan(0);
    const right = await open(`${stack.url}/m/${smsLinkCode(id, TEST_LINK_SECRET)}`, { 'X-Forwarded-For': '192.0.2.1' });
    expect(right.status).to.equal(303);
  });

  it('keeps the code each text carries, for a booking whose code was not stored with it (older, or a rotation since)', async () => {
    const id = await book(5, 'augusta@analytical-engines.com', '+33 6 12 34 56 83');
    const link = await linkTextedTo('+33612345683');
    // As a booking of before the short links, or of another secret, has none of this code.
    await stack.db('sms_links').where({ booking_id: id }).delete();
    expect((await open(link, { 'X-Forwarded-For': '198.51.100.20' })).status).to.equal(404);
    const token = bookingToken(id, TEST_LINK_SECRET);
    const moved = await fetch(`${stack.url}/api/bookings/${token}/reschedule`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ timeSlot: slots[6]!.iso }),
    });
    expect(moved.status).to.equal(200);
    expect(await linkTextedTo('+33612345683', 2)).to.equal(link);
    const answer = await open(link);
    expect(answer.status).to.equal(303);
    expect(answer.headers.get('location')).to.equal(`/booking/${token}`);
  });

  it('still leads to a cancelled booking’s page, which says so, until retention erases it', async () => {
    const id = await book(4, 'charles@analytical-engines.com', '+33 6 12 34 56 82');
    const link = await linkTextedTo('+33612345682');
    const token = bookingToken(id, TEST_LINK_SECRET);
    const cancelled = await fetch(`${stack.url}/api/bookings/${token}/cancel`, { method: 'POST' });
    expect(cancelled.status).to.equal(200);
    const note = await linkTextedTo('+33612345682', 2);
    expect(note, 'the cancellation’s text carries the same link').to.equal(link);
    const answer = await open(link);
    expect(answer.status).to.equal(303);
    expect(answer.headers.get('location')).to.equal(`/booking/${token}`);
    const page = await pageOf(answer.headers.get('location')!);
    expect(page.status).to.equal(200);
    expect(page.html)
      .to.match(/>Cancelled<\/span>/)
      .and.include('This demo is cancelled.');

    // Retention, as if the slot were long past: every booking of this test's database loses its personal data.
    await stack.db.transaction((trx) => anonymiseBatch(trx, -60));
    expect(await stack.db('sms_links').where({ booking_id: id })).to.deep.equal([]);
    const erased = await open(link, { 'X-Forwarded-For': '198.51.100.9' });
    expect(erased.status).to.equal(404);
  });
});
