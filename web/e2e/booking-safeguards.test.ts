import { createHash } from 'node:crypto';
/**
 * What keeps a booking safe, in a real browser against the real API: the Content-Security-Policy the page runs
 * under, the honeypot, the Idempotency-Key of a retried submission and the answer to a slot taken meanwhile.
 * Needs the production build: `npm run build:web` (npm test runs it first).
 */
import { expect } from 'chai';
import type { Browser, Request } from 'playwright-core';
import type { Stack } from '../../test/stack.js';
import {
  DEFAULT_BOOKING_TIME_ZONE,
  SLOT_TAKEN_MESSAGE,
  calendarDayOf,
  formatCalendarDay,
} from '../../domain/booking.js';
import { FUNNEL_PATH, FUNNEL_STEPS } from '../../domain/funnel.js';
import { until } from '../../test/until.js';
import { HONEYPOT_FIELD, IDEMPOTENCY_KEY_PATTERN } from '../../domain/demo-request.js';
import { axeViolations, openPage, type WatchedPage } from './browser.js';
import { useBrowserSuite, type Visit } from './suite.js';
import { chooseFirstBookableSlot, fillRequired, openDialog } from './dialog.js';

const SUCCESS = 'Demo Request Submitted';

let stack: Stack;
let browser: Browser;
const open: WatchedPage[] = [];
let visit: Visit;

async function rowsFor(email: string): Promise<{ name: string; time_slot: Date }[]> {
  return stack.db('bookings').where({ email }).select('name', 'time_slot');
}

/** The submissions the page sends: their Idempotency-Key and body. */
function watchSubmissions(watched: WatchedPage): { key: string | undefined; body: Record<string, unknown> }[] {
  const sent: { key: string | undefined; body: Record<string, unknown> }[] = [];
  watched.page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/demo-request') return;
    sent.push({ key: request.headers()['idempotency-key'], body: request.postDataJSON() as Record<string, unknown> });
  });
  return sent;
}

describe('booking safeguards in Chromium', function () {
  this.timeout(30_000);

  // The campaign the visit below comes from is listed: the funnel counts a source under its name only once known
  // (FUNNEL_SOURCES, or a stored booking), and its first three steps come before the booking.
  visit = useBrowserSuite(open, (started) => ({ stack, browser } = started), {
    stack: { env: { FUNNEL_SOURCES: 'newsletter' } },
  });

  it('runs under a strict Content-Security-Policy: starts, opens the dialog and books with no violation', async () => {
    const response = await fetch(`${stack.url}/`);
    const policy = response.headers.get('content-security-policy');
    expect(policy, 'Content-Security-Policy of the page').to.be.a('string');
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(policy).to.include(directive);
    }
    expect(policy).to.not.include('unsafe-inline');
    expect(policy).to.not.include('unsafe-eval');
    // What a strict policy would block in the HTML itself: inline scripts other than the page's own two (the dialog's
    // opener in the head, the page's script at the end of the body), which the policy names by their hashes, and style
    // attributes.
    const html = await response.text();
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    expect(inline, "the page's two inline scripts").to.have.length(2);
    const hashes = inline.map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
    expect(policy).to.include(`script-src 'self' ${hashes.join(' ')}`);
    expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g), 'inline scripts').to.deep.equal(['<script>', '<script>']);
    expect(html.match(/<[^>]+\sstyle="[^"]*"/g) ?? [], 'style attributes').to.deep.equal([]);

    const watched = await visit();
    const { page, problems } = watched;
    const sent = watchSubmissions(watched);
    await page.waitForLoadState('networkidle');
    const dialog = await openDialog(page);
    await fillRequired(dialog, 'Noor Haddad', 'noor@northwind-logistics.com', 'Northwind Logistics');
    const slot = await chooseFirstBookableSlot(dialog);
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    // The toast is what react-toastify would have styled through an inline <style>: here it must look styled.
    const toast = page.getByRole('status').filter({ hasText: SUCCESS });
    await toast.waitFor();
    // (Its container is placed by the page, in the dialog's layer; the toast itself is laid out by the stylesheet.)
    expect(await toast.evaluate((node) => getComputedStyle(node).display), 'the toast stylesheet applies').to.equal(
      'flex',
    );
    await dialog.waitFor({ state: 'hidden' });

    const rows = await rowsFor('noor@northwind-logistics.com');
    expect(rows).to.have.length(1);
    expect(new Date(rows[0]?.time_slot as Date).toISOString()).to.equal(slot);
    expect(sent).to.have.length(1);
    expect(sent[0]?.key, 'Idempotency-Key').to.match(IDEMPOTENCY_KEY_PATTERN);
    // An empty honeypot is left out of the body.
    expect(sent[0]?.body).to.not.have.property(HONEYPOT_FIELD);
    expect(await watched.cspViolations()).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
  });

  it('keeps the honeypot from people, screen readers and the keyboard; a normal booking is stored', async () => {
    const { page } = await visit();
    const dialog = await openDialog(page);
    const trap = dialog.locator(`input[name="${HONEYPOT_FIELD}"]`);
    expect(await trap.count()).to.equal(1);
    expect(await trap.getAttribute('tabindex')).to.equal('-1');
    expect(await trap.getAttribute('autocomplete')).to.equal('off');
    const placement = await trap.evaluate((input) => {
      const box = input.getBoundingClientRect();
      const label = document.querySelector(`label[for="${CSS.escape(input.id)}"]`);
      return {
        insideAriaHidden: input.closest('[aria-hidden="true"]') !== null,
        offScreen: box.right <= 0 || box.left >= window.innerWidth,
        // display:none would be skipped by the simplest bots too.
        displayed:
          getComputedStyle(input).display !== 'none' &&
          getComputedStyle(input.closest('[aria-hidden]') as Element).display !== 'none',
        label: label?.textContent ?? '',
      };
    });
    expect(placement).to.deep.equal({
      insideAriaHidden: true,
      offScreen: true,
      displayed: true,
      label: 'Leave this field empty',
    });
    // Nothing in the accessibility tree: the role query sees what a screen reader sees.
    expect(await dialog.getByRole('textbox', { name: /leave this field empty/i }).count()).to.equal(0);

    await fillRequired(dialog, 'Ines Duarte', 'ines@northwind-logistics.com', 'Northwind Logistics');
    await chooseFirstBookableSlot(dialog);
    // Tab all the way round the dialog (it traps focus) and back to Close: the honeypot is never on the way.
    const close = dialog.getByRole('button', { name: 'Close' });
    await close.focus();
    const stops: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        return active?.getAttribute('name') ?? active?.getAttribute('aria-label') ?? active?.textContent ?? '';
      });
      if (stop === 'Close') break;
      stops.push(stop);
    }
    expect(stops).to.include.members(['name', 'email', 'company', 'timeSlot', 'phone', 'message', 'Request Demo']);
    expect(stops).to.not.include(HONEYPOT_FIELD);

    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await page.getByRole('status').filter({ hasText: SUCCESS }).waitFor();
    expect(await rowsFor('ines@northwind-logistics.com'), 'the honeypot did not fire').to.have.length(1);
  });

  it("books with where the visit came from: the landing page's UTM parameters and referrer, kept across its pages; the funnel counts the visit's steps once each", async () => {
    // A visitor's browser: the funnel counts nothing from a headless one (its User-Agent says so).
    const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
    const watched = await openPage(browser, { userAgent });
    open.push(watched);
    const { page } = watched;
    const beacons: unknown[] = [];
    page.on('request', (request: Request) => {
      if (new URL(request.url()).pathname === FUNNEL_PATH) beacons.push(JSON.parse(request.postData() ?? '{}'));
    });
    await page.goto(`${stack.url}/?utm_source=newsletter&utm_medium=email&utm_campaign=q4-launch`, {
      referer: 'https://news.example.org/post',
    });
    await page.waitForLoadState('networkidle');
    expect(beacons, 'beacons before the visitor did anything').to.deep.equal([]);
    // Later pages of the visit (no parameters, this site as referrer) do not replace the first touch.
    await page.goto(`${stack.url}/legal/privacy`);
    await page.goto(stack.url);
    await page.waitForLoadState('networkidle');
    expect(beacons, 'beacons before the dialog opened').to.deep.equal([]);
    const dialog = await openDialog(page);
    await fillRequired(dialog, 'Lena Park', 'lena@northwind-logistics.com', 'Northwind Logistics');
    await chooseFirstBookableSlot(dialog);
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    const toast = page.getByRole('status').filter({ hasText: SUCCESS });
    await toast.waitFor();
    const [row] = await stack
      .db('bookings')
      .where({ email: 'lena@northwind-logistics.com' })
      .select('id', 'time_slot', 'attribution');

    // The success toast links the demo's video room, and offers the slot to the visitor's calendar: Google's and
    // Outlook's pages, and the .ics.
    const hrefs = Object.fromEntries(
      await toast
        .getByRole('link')
        .evaluateAll((links) => links.map((link) => [link.textContent ?? '', link.getAttribute('href') ?? ''])),
    ) as Record<string, string>;
    expect(Object.keys(hrefs)).to.deep.equal(['Join the video call', 'Google', 'Outlook', '.ics']);
    expect(hrefs['Join the video call']).to.match(/^https:\/\/meet\.jit\.si\/ConvergeDemo-[a-z2-7]{20}$/);
    const slot = (row?.time_slot as Date).toISOString();
    expect(new URL(hrefs.Google ?? '').searchParams.get('dates')).to.equal(
      `${slot.replace(/[-:]/g, '').replace('.000Z', 'Z')}/${new Date(Date.parse(slot) + 3_600_000).toISOString().replace(/[-:]/g, '').replace('.000Z', 'Z')}`,
    );
    expect(new URL(hrefs.Outlook ?? '').searchParams.get('subject')).to.equal('Converge demo for Northwind Logistics');
    const ics = await page.request.get(new URL(hrefs['.ics'] ?? '', stack.url).toString());
    expect(ics.status()).to.equal(200);
    expect(await ics.text()).to.contain(`UID:demo-${String(row?.id)}@`);

    expect(row?.attribution).to.deep.equal({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'q4-launch',
      referrer: 'https://news.example.org/post',
    });

    // The funnel: each step once, with the source and nothing else; counted on the booking zone's day.
    const counted = () =>
      stack
        .db('funnel_daily_counts')
        .where({ source: 'newsletter' })
        .orderBy('step')
        .select(stack.db.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'step', 'count');
    const rows = await until(async () => {
      const found = (await counted()) as { day: string; step: string; count: string }[];
      return found.length === FUNNEL_STEPS.length && found.every((counts) => counts.count === '1') ? found : undefined;
    }, 'the four steps counted');
    const today = formatCalendarDay(calendarDayOf(new Date(), DEFAULT_BOOKING_TIME_ZONE));
    expect(rows).to.deep.equal([...FUNNEL_STEPS].sort().map((step) => ({ day: today, step, count: '1' })));
    expect(beacons).to.deep.equal(FUNNEL_STEPS.map((step) => ({ step, source: 'newsletter' })));
  });

  it('answers a filled honeypot like a booking, and stores nothing', async () => {
    const watched = await visit();
    const sent = watchSubmissions(watched);
    const dialog = await openDialog(watched.page);
    await fillRequired(dialog, 'Bot McBotface', 'bot@northwind-logistics.com', 'Northwind Logistics');
    await chooseFirstBookableSlot(dialog);
    // What a naive bot does: fill every input it finds.
    await dialog.locator(`input[name="${HONEYPOT_FIELD}"]`).fill('https://spam.example', { force: true });
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await watched.page.getByRole('status').filter({ hasText: SUCCESS }).waitFor();
    expect(sent[0]?.body).to.deep.include({ [HONEYPOT_FIELD]: 'https://spam.example' });
    expect(await rowsFor('bot@northwind-logistics.com')).to.deep.equal([]);
  });

  it('when the slot is taken meanwhile: says so under the time, keeps the rest, shows the slot taken, focuses the times', async () => {
    const watched = await visit();
    const { page } = watched;
    const sent = watchSubmissions(watched);
    const dialog = await openDialog(page);
    await fillRequired(dialog, 'Mia Wong', 'mia@northwind-logistics.com', 'Northwind Logistics');
    await dialog.getByLabel('Phone (Optional)', { exact: true }).fill('+1 (415) 555-0142');
    await dialog.getByLabel('Message (Optional)', { exact: true }).fill('SMS fallback for WhatsApp.');
    const slot = await chooseFirstBookableSlot(dialog);
    const summary = await dialog.getByRole('status').filter({ hasText: 'Selected' }).innerText();
    const day = /^Selected (.+?) at /.exec(summary)?.[1];
    expect(day, summary).to.be.a('string');

    // Another visitor books the same slot first, as often as the slot takes bookings.
    for (let i = 0; ; i += 1) {
      const answer = await fetch(`${stack.url}/api/demo-request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: 'Other Visitor',
          email: `other-${i}@northwind-logistics.com`,
          company: 'Northwind Logistics',
          timeSlot: slot,
        }),
      });
      if (answer.status === 409) break;
      expect(answer.status, await answer.text()).to.equal(201);
      if (i >= 5) throw new Error('the slot never filled up: no 409 after 6 bookings');
    }

    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Error' });
    await toast.waitFor();
    expect(await toast.innerText()).to.include(SLOT_TAKEN_MESSAGE);
    const times = dialog.getByRole('group', { name: 'Select Date & Time (Europe Time)' });
    expect(await times.getByText(SLOT_TAKEN_MESSAGE).isVisible(), 'the message under the time field').to.equal(true);
    expect(await times.getAttribute('aria-invalid')).to.equal('true');
    // Everything but the time is kept, the day included.
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Mia Wong');
    expect(await dialog.getByLabel('Email', { exact: true }).inputValue()).to.equal('mia@northwind-logistics.com');
    expect(await dialog.getByLabel('Company', { exact: true }).inputValue()).to.equal('Northwind Logistics');
    expect(await dialog.getByLabel('Phone (Optional)', { exact: true }).inputValue()).to.equal('+1 (415) 555-0142');
    expect(await dialog.getByLabel('Message (Optional)', { exact: true }).inputValue()).to.equal(
      'SMS fallback for WhatsApp.',
    );
    expect(await dialog.getByRole('status').filter({ hasText: 'Selected' }).innerText()).to.match(
      new RegExp(`^Selected ${day}\\. \\d+ times? available`),
    );
    expect(await dialog.getByRole('radio', { checked: true }).count()).to.equal(0);
    // The day's slots were asked for again: the slot is now shown taken.
    const takenSlot = dialog.locator(`input[name="timeSlot"][value="${slot}"]`);
    await page.waitForFunction(
      (iso) => document.querySelector<HTMLInputElement>(`input[name="timeSlot"][value="${iso}"]`)?.disabled === true,
      slot,
    );
    expect(await takenSlot.evaluate((input) => (input.parentElement as HTMLElement).innerText)).to.include('Taken');
    expect(await dialog.getByRole('radio', { name: /Taken/ }).count()).to.be.greaterThan(0);
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLInputElement | null;
      return { name: active?.name, disabled: active?.disabled, value: active?.value };
    });
    expect(focused.name, 'focus on the times').to.equal('timeSlot');
    expect(focused.disabled).to.equal(false);
    expect(focused.value).to.not.equal(slot);
    // The error state, with a taken slot, is as accessible as the rest.
    expect(await axeViolations(page)).to.deep.equal([]);

    // One toast at a time: the success toast below would otherwise wait for this one to time out.
    await toast.getByRole('button', { name: 'close' }).click();

    // Another time goes through, as a new submission with a new key.
    const next = await chooseFirstBookableSlot(dialog);
    expect(next).to.not.equal(slot);
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await page.getByRole('status').filter({ hasText: SUCCESS }).waitFor();
    const rows = await rowsFor('mia@northwind-logistics.com');
    expect(rows.map((row) => new Date(row.time_slot).toISOString())).to.deep.equal([next]);
    expect(sent).to.have.length(2);
    expect(sent[0]?.key).to.not.equal(sent[1]?.key);
  });

  it('retries a submission whose answer was lost with the same Idempotency-Key: one booking, not two', async () => {
    const watched = await visit();
    const { page } = watched;
    const sent = watchSubmissions(watched);
    let lost = false;
    await page.route('**/api/demo-request', async (route) => {
      if (lost) return route.continue();
      lost = true;
      // The server books it; the answer never reaches the browser.
      await route.fetch();
      await route.abort('connectionreset');
    });
    const dialog = await openDialog(page);
    await fillRequired(dialog, 'Tomás Ruiz', 'tomas@northwind-logistics.com', 'Northwind Logistics');
    await chooseFirstBookableSlot(dialog);
    const submit = dialog.getByRole('button', { name: 'Request Demo' });
    await submit.click();
    const failure = page.getByRole('alert').filter({ hasText: 'Failed to submit demo request. Please try again.' });
    await failure.waitFor();
    await failure.getByRole('button', { name: 'close' }).click();
    expect(await rowsFor('tomas@northwind-logistics.com'), 'booked though the answer was lost').to.have.length(1);

    const replayed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/demo-request');
    await submit.click();
    await page.getByRole('status').filter({ hasText: SUCCESS }).waitFor();
    expect((await replayed).status()).to.equal(201);
    expect(sent).to.have.length(2);
    expect(sent[0]?.key).to.match(IDEMPOTENCY_KEY_PATTERN);
    expect(sent[1]?.key, 'the retry carries the same key').to.equal(sent[0]?.key);
    expect(await rowsFor('tomas@northwind-logistics.com'), 'still one booking').to.have.length(1);
  });

  it("shows a 429's details in the toast and keeps the form", async () => {
    const { page } = await visit();
    const details =
      'Several demo requests came from your network in the last hour. Please try again in about 12 minutes.';
    await page.route('**/api/demo-request', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'Retry-After': '720' },
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Too many requests', details }),
      }),
    );
    const dialog = await openDialog(page);
    await fillRequired(dialog, 'Ana Lima', 'ana@northwind-logistics.com', 'Northwind Logistics');
    const slot = await chooseFirstBookableSlot(dialog);
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'Error' });
    await toast.waitFor();
    expect(await toast.innerText()).to.include(details);
    expect(await dialog.getByRole('radio', { checked: true }).inputValue()).to.equal(slot);
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ana Lima');
  });
});
