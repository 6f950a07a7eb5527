/**
 * The booking manage page, /booking/{token}, in a real browser against the real API: what a prospect sees when they
 * open the link in their e-mails, and rescheduling and cancelling with the keyboard alone.
 * Needs the production build: `npm run build:web` (npm test runs it first).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import { TEST_LINK_SECRET, type Stack } from '../../test/stack.js';
import { nextBookableSlot } from '../../test/booking.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { SLOT_TAKEN_MESSAGE } from '../../domain/booking.js';
import { axeViolations, openPage, type WatchedPage } from './browser.js';
import { ARTIFACTS, useBrowserSuite, type Visit } from './suite.js';
import {
  dayTile,
  firstBookableLabel,
  FIXED_NOW,
  LONGEST_LOCAL_TIMES,
  slotNoteLines,
  slotsSettled,
  withoutSlotsApi,
} from './dialog.js';
import { expectPrivatePageHeaders } from '../../test/web-root.js';

const LOADING = 'Loading your booking…';
const NOT_FOUND = 'This link does not open a booking';

let stack: Stack;
let browser: Browser;
const open: WatchedPage[] = [];
let visitSite: Visit;
let bookings = 0;

interface Booked {
  token: string;
  timeSlot: string;
  name: string;
  company: string;
}

/** Books a demo through the API, as the dialog does, and makes the token its e-mails carry. */
async function book(name = 'Noor Haddad', company = 'Northwind Logistics'): Promise<Booked> {
  bookings += 1;
  const slot = nextBookableSlot();
  // Each booking takes a slot of its own: the first one of the next bookable day that is still free.
  for (let attempt = 0; attempt < 17; attempt += 1) {
    const timeSlot = new Date(Date.parse(slot.iso) + attempt * 3_600_000).toISOString();
    const answer = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, email: `prospect-${bookings}@northwind-logistics.com`, company, timeSlot }),
    });
    if (answer.status === 409 || answer.status === 400) continue;
    expect(answer.status, await answer.clone().text()).to.equal(201);
    const { id } = (await answer.json()) as { id: string };
    return { token: bookingToken(id, TEST_LINK_SECRET), timeSlot, name, company };
  }
  throw new Error('no free slot on the next bookable day');
}

/** The manage page of the booking behind `token`. */
function visit(token: string, options: Parameters<typeof openPage>[1] = {}): Promise<WatchedPage> {
  return visitSite(options, `/booking/${token}`);
}

/** The booking as the API has it now. */
async function apiBooking(token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${stack.url}/api/bookings/${token}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The value shown for a term of the booking's details ("When", "Status", …). */
function detail(page: Page, term: string): Locator {
  return page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return active?.querySelector('abbr')?.getAttribute('aria-label') ?? active?.innerText ?? '';
  });

/** Presses Tab until `name` has the focus (by its text, or a calendar day's label); fails after `limit` presses. */
async function tabTo(page: Page, name: string, limit = 12): Promise<void> {
  for (let i = 0; i < limit && (await focused(page)) !== name; i += 1) await page.keyboard.press('Tab');
  expect(await focused(page), `focus after Tab toward ${name}`).to.equal(name);
}

/** Opens the reschedule panel with a click and picks the first day the clock leaves enough slots on. */
async function chooseFirstBookableDay(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Reschedule' }).click();
  const panel = page.getByRole('region', { name: 'Choose a new time' });
  // The calendar's code arrives with the panel.
  await panel.getByRole('button', { name: 'Next month' }).waitFor();
  const { label } = firstBookableLabel();
  if ((await dayTile(panel, label).count()) === 0) await panel.getByRole('button', { name: 'Next month' }).click();
  await dayTile(panel, label).click();
  await slotsSettled(panel);
  return panel;
}

/** The polite live region that says how a change went, once it says `text`. */
const notice = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

describe('the booking manage page in Chromium', function () {
  this.timeout(30_000);

  visitSite = useBrowserSuite(open, (started) => ({ stack, browser } = started), { page: 'booking.html' });

  it('is served with the booking rendered in it, its one small script written in, no token, kept from caches, referrers and indexes', async () => {
    const { token, name, company } = await book('Ines Duarte', 'Alder & Finch Freight');
    const response = await fetch(`${stack.url}/booking/${token}`);
    expect(response.status).to.equal(200);
    expectPrivatePageHeaders(response.headers);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("script-src 'self'").and.not.include('unsafe-inline');
    const html = await response.text();
    expect(html).to.include('<title>Your demo booking | Converge</title>');
    expect(html).to.include('<meta name="booking-time-zone" content="Europe/Berlin">');
    expect(html)
      .to.include('<dt>Status</dt>')
      .and.include('>Booked</span>')
      .and.include(`<dd>${name}</dd>`)
      .and.include('Alder &amp; Finch Freight');
    expect(company).to.equal('Alder & Finch Freight');
    expect(html).to.not.include(LOADING).and.not.include(token);
    // Each style block and the page's script are allowed by their hashes, the booking's own rules included.
    const hash = (text: string | undefined) =>
      `'sha256-${createHash('sha256')
        .update(text ?? '')
        .digest('base64')}'`;
    for (const [, css] of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) expect(csp).to.include(hash(css));
    expect(html.match(/<script[^>]*\ssrc=/g) ?? [], 'script files').to.deep.equal([]);
    expect(html).to.match(/<meta name="booking-app-code" content="\/assets\/booking-app\.[0-9a-f]+\.js">/);
    // Two inline scripts: the booking as data, which the browser never runs, then the page's first script, which reads it.
    expect(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g) ?? [], 'inline scripts').to.deep.equal([
      '<script type="application/json" id="booking-data">',
      '<script>',
    ]);
    expect(csp).to.include(hash(/<script>([\s\S]*?)<\/script>/.exec(html)?.[1]));
    expect(html.match(/<[^>]+\sstyle="[^"]*"/g) ?? [], 'style attributes').to.deep.equal([]);

    const unknown = await fetch(`${stack.url}/booking/not-a-token`);
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get('cache-control')).to.equal('no-store');
    expect(await unknown.text())
      .to.include(NOT_FOUND)
      .and.include('{"booking":null}');
  });

  it("shows the booking before any script runs, the visitor's own time from a small script, and its React code only once a visitor shows intent", async () => {
    const booked = await book('Ines Duarte', 'Alder & Finch Freight');
    const watched = await openPage(browser, { timezoneId: 'America/New_York' });
    open.push(watched);
    const { page, problems } = watched;
    const scripts: string[] = [];
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      if (request.url().includes('/api/bookings/')) asked.push(request.url());
    });
    await page.goto(`${stack.url}/booking/${booked.token}`, { waitUntil: 'load' });
    const title = page.getByRole('heading', { level: 1 });
    expect(await title.innerText()).to.equal('Your Converge demo');
    expect(await detail(page, 'Status').innerText()).to.equal('Booked');
    expect(await detail(page, 'Name').innerText()).to.equal('Ines Duarte');
    expect(await detail(page, 'Company').innerText()).to.equal('Alder & Finch Freight');
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const newYork = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const instant = new Date(booked.timeSlot);
    const when = (await detail(page, 'When').innerText()).replace(/\s+/g, ' ');
    expect(when).to.match(
      new RegExp(
        `^\\w+day,? \\d{1,2} \\w+ \\d{4} at ${berlin.format(instant)} Europe Time ${newYork.format(instant)}( \\w{3})? your time$`,
      ),
    );
    expect(await page.getByRole('button', { name: 'Reschedule' }).isVisible()).to.equal(true);
    expect(await page.getByRole('button', { name: 'Cancel demo' }).isVisible()).to.equal(true);
    // The site's top bar and footer, as on the legal pages.
    expect(await page.getByRole('banner').getByRole('link', { name: 'Converge home' }).getAttribute('href')).to.equal(
      '/',
    );
    expect(await page.getByRole('contentinfo').getByRole('navigation', { name: 'Legal' }).isVisible()).to.equal(true);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.waitForTimeout(500);
    expect(scripts, 'script files before any intent').to.deep.equal([]);

    // A pointer over Reschedule fetches the React code, which takes the page over without asking for the booking again.
    await page.getByRole('button', { name: 'Reschedule' }).hover();
    const hydrated = () =>
      page.evaluate(() =>
        Object.keys(document.querySelector('[data-booking-action="reschedule"]') ?? {}).some((key) =>
          key.startsWith('__react'),
        ),
      );
    await page.waitForFunction(() =>
      Object.keys(document.querySelector('[data-booking-action="reschedule"]') ?? {}).some((key) =>
        key.startsWith('__react'),
      ),
    );
    expect(await hydrated()).to.equal(true);
    expect(
      scripts.some((script) => /^\/assets\/booking-app\.[0-9a-f]+\.js$/.test(script)),
      'the React code',
    ).to.equal(true);
    expect(asked, 'requests for the booking').to.deep.equal([]);
    // styled-components in the browser adds a rule for every class name it computes that the server's CSS lacks: had
    // the page's browser build numbered its components otherwise than the server's render, new names would show up here.
    const classNames = (css: string) => [...new Set(css.match(/\.[a-zA-Z][\w-]*/g) ?? [])].sort();
    const servedCss = await page.evaluate(async () => {
      const html = await (await fetch(window.location.pathname)).text();
      const served = new DOMParser().parseFromString(html, 'text/html');
      return Array.from(served.querySelectorAll('style'))
        .map((style) => style.textContent ?? '')
        .join('\n');
    });
    const liveCss = await page.evaluate(() =>
      Array.from(document.styleSheets)
        .flatMap((sheet) => Array.from(sheet.cssRules).map((rule) => rule.cssText))
        .join('\n'),
    );
    expect(
      classNames(liveCss).filter((name) => !classNames(servedCss).includes(name)),
      'class names the browser made up',
    ).to.deep.equal([]);
    expect((await detail(page, 'When').innerText()).replace(/\s+/g, ' '), 'the time after hydration').to.equal(when);
    expect(await watched.cspViolations()).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
  });

  it('opens the panel pressed before the React code arrived, once it has', async () => {
    const booked = await book();
    const watched = await openPage(browser, {});
    open.push(watched);
    const { page, problems } = watched;
    // The React code is held back until the button has been pressed.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/booking-app.*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${stack.url}/booking/${booked.token}`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Cancel demo' }).click();
    release();
    const confirmation = page.getByRole('group', { name: 'Cancel this demo?' });
    await confirmation.waitFor();
    expect(await focused(page)).to.equal('Keep it');
    expect(await page.getByRole('button', { name: 'Cancel demo' }).getAttribute('aria-expanded')).to.equal('true');
    expect(problems).to.deep.equal([]);
  });

  it('reschedules with the keyboard alone: Tab, Enter and arrow keys through the calendar and the times', async () => {
    const booked = await book();
    const watched = await visit(booked.token);
    const { page, problems } = watched;
    await detail(page, 'When').waitFor();
    const before = await detail(page, 'When').innerText();

    await tabTo(page, 'Reschedule');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Choose a new time' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Choose a new time');
    expect(await page.getByRole('button', { name: 'Reschedule' }).getAttribute('aria-expanded')).to.equal('true');

    // Into the calendar: Tab reaches the enabled month buttons, then the one tabbable day.
    const { label } = firstBookableLabel();
    for (let i = 0; i < 6 && !/^\d{1,2} \w+ \d{4}$/.test(await focused(page)); i += 1) await page.keyboard.press('Tab');
    // Only when the first bookable day is in the next month and the calendar opened on this one.
    if ((await dayTile(panel, label).count()) === 0) {
      await page.keyboard.press('PageDown');
      await page.waitForFunction(() => document.activeElement?.querySelector('abbr') !== null);
    }
    for (let i = 0; i < 31 && (await focused(page)) !== label; i += 1) await page.keyboard.press('ArrowRight');
    expect(await focused(page)).to.equal(label);
    await page.keyboard.press('Enter');
    await slotsSettled(panel);
    // Taken slots (the booking's own among them) are disabled radios, which Tab and the arrow keys pass over.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).to.equal('radio');
    await page.keyboard.press('ArrowRight');
    const chosen = await page.evaluate(() => (document.activeElement as HTMLInputElement).value);
    expect(chosen).to.not.equal(booked.timeSlot);
    expect(await panel.getByRole('radio', { checked: true }).inputValue()).to.equal(chosen);
    expect(await axeViolations(page), 'with the calendar open').to.deep.equal([]);

    await tabTo(page, 'Confirm new time', 3);
    await page.keyboard.press('Enter');
    await notice(page, 'Your demo is moved to').waitFor();
    expect(await panel.count(), 'the panel closes').to.equal(0);
    expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('H1');
    const after = await detail(page, 'When').innerText();
    expect(after).to.not.equal(before);
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    expect(after).to.include(`at ${berlin.format(new Date(chosen))} Europe Time`);
    expect(await notice(page, 'Your demo is moved to').innerText()).to.include(after.split('\n')[0] ?? '');
    expect(await apiBooking(booked.token))
      .to.deep.include({ status: 200 })
      .and.nested.include({ 'body.timeSlot': chosen, 'body.status': 'booked' });
    expect(await axeViolations(page), 'after the reschedule').to.deep.equal([]);
    expect(problems).to.deep.equal([]);
  });

  it('cancels with the keyboard alone, after a confirmation that Escape and "Keep it" back out of', async () => {
    const booked = await book();
    const { page, problems } = await visit(booked.token);
    await detail(page, 'When').waitFor();

    await tabTo(page, 'Cancel demo');
    await page.keyboard.press('Enter');
    const confirmation = page.getByRole('group', { name: 'Cancel this demo?' });
    await confirmation.waitFor();
    // Focus starts on the choice that loses nothing.
    expect(await focused(page)).to.equal('Keep it');
    expect(await axeViolations(page), 'with the confirmation open').to.deep.equal([]);
    await page.keyboard.press('Escape');
    await confirmation.waitFor({ state: 'detached' });
    expect(await focused(page), 'Escape returns focus to the button').to.equal('Cancel demo');
    await page.keyboard.press('Enter');
    await confirmation.waitFor();
    await page.keyboard.press('Enter');
    await confirmation.waitFor({ state: 'detached' });
    expect(await focused(page), '"Keep it" returns focus to the button').to.equal('Cancel demo');
    expect(await apiBooking(booked.token)).to.nested.include({ 'body.status': 'booked' });

    await page.keyboard.press('Enter');
    await confirmation.waitFor();
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).to.equal('Yes, cancel');
    await page.keyboard.press('Enter');
    await notice(page, 'Your demo is cancelled').waitFor();
    expect(await detail(page, 'Status').innerText()).to.equal('Cancelled');
    expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('H1');
    expect(await page.getByRole('button', { name: 'Reschedule' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Cancel demo' }).count()).to.equal(0);
    expect(await page.getByRole('main').getByRole('link', { name: 'Book a new demo' }).getAttribute('href')).to.equal(
      '/',
    );
    expect(await apiBooking(booked.token)).to.nested.include({
      'body.status': 'cancelled',
      'body.timeSlot': booked.timeSlot,
    });
    expect(await axeViolations(page), 'cancelled').to.deep.equal([]);
    expect(problems).to.deep.equal([]);

    // Opened again later, the link shows the booking cancelled.
    await page.reload();
    await detail(page, 'Status').filter({ hasText: 'Cancelled' }).waitFor();
    expect(await page.getByRole('button', { name: 'Reschedule' }).count()).to.equal(0);
  });

  it('keeps the calendar open when the time is taken meanwhile: says so under the time, shows it taken, focuses the times', async () => {
    const booked = await book();
    const { page } = await visit(booked.token);
    const panel = await chooseFirstBookableDay(page);
    const radios = panel.getByRole('radio');
    const index = await radios.evaluateAll((inputs) =>
      inputs.findIndex((input, i) => i >= 1 && !(input as HTMLInputElement).disabled),
    );
    const slot = radios.nth(index);
    await slot.check();
    const taken = await slot.inputValue();

    // Another visitor books that time first.
    const other = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Other Visitor',
        email: 'other@northwind-logistics.com',
        company: 'Northwind Logistics',
        timeSlot: taken,
      }),
    });
    expect(other.status).to.equal(201);

    await panel.getByRole('button', { name: 'Confirm new time' }).click();
    const times = panel.getByRole('group', { name: 'Select Date & Time (Europe Time)' });
    await times.getByText(SLOT_TAKEN_MESSAGE).waitFor();
    expect(await times.getAttribute('aria-invalid')).to.equal('true');
    expect(await panel.getByRole('alert').innerText()).to.equal(SLOT_TAKEN_MESSAGE);
    await page.waitForFunction(
      (iso) => document.querySelector<HTMLInputElement>(`input[name="timeSlot"][value="${iso}"]`)?.disabled === true,
      taken,
    );
    const active = await page.evaluate(() => {
      const input = document.activeElement as HTMLInputElement | null;
      return { name: input?.name, value: input?.value };
    });
    expect(active.name, 'focus on the times').to.equal('timeSlot');
    expect(active.value).to.not.equal(taken);
    expect(await apiBooking(booked.token)).to.nested.include({ 'body.timeSlot': booked.timeSlot });
    expect(await axeViolations(page)).to.deep.equal([]);
  });

  it('says why when a change is refused: the server’s details for a 503, and a booking cancelled meanwhile shown cancelled', async () => {
    const booked = await book();
    const { page } = await visit(booked.token);
    const details =
      'We could not change your booking right now. Nothing was changed; please try again in a few minutes.';
    await page.route('**/api/bookings/*/cancel', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Service unavailable', details }),
      }),
    );
    await page.getByRole('button', { name: 'Cancel demo' }).click();
    const confirmation = page.getByRole('group', { name: 'Cancel this demo?' });
    await confirmation.getByRole('button', { name: 'Yes, cancel' }).click();
    await confirmation.getByRole('alert').filter({ hasText: details }).waitFor();
    expect(await focused(page), 'focus stays on the button').to.equal('Yes, cancel');
    await confirmation.getByRole('button', { name: 'Keep it' }).click();
    await page.unroute('**/api/bookings/*/cancel');

    // Cancelled from another tab while this one offers a new time.
    const panel = await chooseFirstBookableDay(page);
    await panel.locator('input[name="timeSlot"]:enabled').last().check();
    const cancelled = await fetch(`${stack.url}/api/bookings/${booked.token}/cancel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(cancelled.status).to.equal(200);
    await panel.getByRole('button', { name: 'Confirm new time' }).click();
    await notice(page, 'cancelled').waitFor();
    await detail(page, 'Status').filter({ hasText: 'Cancelled' }).waitFor();
    expect(await panel.count()).to.equal(0);
  });

  it('answers a tampered or unknown token with "This link does not open a booking" and a way home', async () => {
    const { token } = await book();
    const tampered = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    for (const address of [tampered, 'not-a-token']) {
      const { page, problems } = await visit(address);
      const title = page.getByRole('heading', { level: 1, name: NOT_FOUND });
      await title.waitFor();
      expect(
        await page.getByRole('main').getByRole('link', { name: 'Back to the home page' }).getAttribute('href'),
      ).to.equal('/');
      expect(await page.getByRole('button', { name: 'Reschedule' }).count()).to.equal(0);
      expect(await axeViolations(page), address).to.deep.equal([]);
      // The browser reports the page's 404 in the console; nothing else may appear there.
      expect(problems.filter((problem) => !problem.includes('404'))).to.deep.equal([]);
    }
  });

  it("sets each slot's time on the visitor's clock on one line, at 375 and 1440 px", async () => {
    const booked = await book();
    for (const width of [375, 1440]) {
      const watched = await openPage(browser, {
        viewport: { width, height: 900 },
        timezoneId: LONGEST_LOCAL_TIMES.timezoneId,
      });
      open.push(watched);
      const { page } = watched;
      await page.clock.setFixedTime(FIXED_NOW);
      await withoutSlotsApi(page);
      await page.goto(`${stack.url}/booking/${booked.token}`);
      await page.getByRole('button', { name: 'Reschedule' }).click();
      const panel = page.getByRole('region', { name: 'Choose a new time' });
      await dayTile(panel, LONGEST_LOCAL_TIMES.day).click();
      await slotsSettled(panel);
      const lines = await slotNoteLines(panel);
      expect(lines, `at ${width}px`).to.include('22:00 Wed your time: 1');
      expect(lines.filter((line) => line.includes(' your time: ')).length, `at ${width}px`).to.equal(17);
      expect(
        lines.filter((line) => !line.endsWith(': 1')),
        `lines of more than one line at ${width}px`,
      ).to.deep.equal([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        `horizontal overflow at ${width}px`,
      ).to.equal(0);
      await panel.locator('fieldset fieldset').screenshot({ path: path.join(ARTIFACTS, `booking-times-${width}.png`) });
    }
  });

  it('fits a phone and a desktop, calendar open: nothing overflows sideways (screenshots in artifacts/)', async () => {
    const booked = await book(
      'Maximilian Alexander von Hohenberg-Wittelsbach',
      'Internationale Speditions- und Logistikgesellschaft mbH',
    );
    for (const width of [375, 1440]) {
      const { page } = await visit(booked.token, { viewport: { width, height: 900 }, reducedMotion: 'reduce' });
      await detail(page, 'When').waitFor();
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflow(), `horizontal overflow at ${width}px`).to.equal(0);
      await page.screenshot({ path: path.join(ARTIFACTS, `booking-${width}.png`), fullPage: true });
      await chooseFirstBookableDay(page);
      expect(await overflow(), `horizontal overflow at ${width}px, calendar open`).to.equal(0);
      await page.screenshot({ path: path.join(ARTIFACTS, `booking-reschedule-${width}.png`), fullPage: true });
    }
    const { page } = await visit('not-a-token', { viewport: { width: 375, height: 812 } });
    await page.getByRole('heading', { level: 1, name: NOT_FOUND }).waitFor();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      'not found at 375px',
    ).to.equal(0);
  });
});
