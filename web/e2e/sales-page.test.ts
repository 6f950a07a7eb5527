/**
 * The sales page, /admin, in a real browser against the real API: signing in with the operations token, searching
 * and filtering the bookings, the CSV export of what the filters select, a booking's history and marking it attended,
 * a change without the CSRF token refused, wrong tokens throttled while the right one still signs in, and axe on each
 * view.
 * Needs the production build: `npm run build:web` (npm test runs it first).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { Stack } from '../../test/stack.js';
import { DEFAULT_BOOKING_TIME_ZONE, calendarDayOf, formatCalendarDay } from '../../domain/booking.js';
import { axeViolations, type WatchedPage } from './browser.js';
import { ARTIFACTS, useBrowserSuite, type Visit } from './suite.js';

const TOKEN = 'sales-page-operations-token-of-32-characters';
const DAY = 86_400_000;

let stack: Stack;
const open: WatchedPage[] = [];
const visit: Visit = useBrowserSuite(open, (parts) => ({ stack } = parts), {
  page: 'admin.html',
  stack: { worker: false, env: { ADMIN_TOKEN: TOKEN } },
});

async function seed(): Promise<Record<string, string>> {
  const now = Date.now();
  const rows = [
    {
      name: 'Grace Hopper',
      email: 'grace@navy-systems.com',
      company: 'Navy Systems',
      time_slot: new Date(now - 2 * DAY),
      attribution: { utm_source: 'newsletter' },
    },
    {
      name: 'Katherine Johnson',
      email: 'kj@langley.org',
      company: '=SUM(A1:A9)',
      time_slot: new Date(now + 3 * DAY),
      attribution: { utm_source: 'linkedin' },
      status: 'cancelled',
      cancelled_at: new Date(now),
    },
    {
      name: 'Dorothy Vaughan',
      email: 'dorothy@langley.org',
      company: 'Langley Research',
      time_slot: new Date(now + 4 * DAY),
      attribution: { utm_source: 'newsletter' },
    },
  ];
  // Today's funnel (the booking zone's day): from a newsletter, and from visits without a source.
  const today = formatCalendarDay(calendarDayOf(new Date(now), DEFAULT_BOOKING_TIME_ZONE));
  const counts = { newsletter: [40, 22, 15, 12], '': [5, 3, 1, 0] };
  await stack.db('funnel_daily_counts').insert(
    Object.entries(counts).flatMap(([source, numbers]) =>
      ['dialogOpened', 'emailAccepted', 'slotChosen', 'booked'].map((step, i) => ({
        day: today,
        source,
        step,
        count: numbers[i],
      })),
    ),
  );
  const stored = (await stack
    .db('bookings')
    .insert(rows.map((row, i) => ({ ...row, created_at: new Date(now - (3 - i) * 60_000) })))
    .returning(['id', 'name'])) as { id: string; name: string }[];
  return Object.fromEntries(stored.map((row) => [row.name, row.id]));
}

/** A table's row, by its heading cell, as its cells' texts. */
const cellsOf = (page: Page, table: string | RegExp, row: string) =>
  page
    .getByRole('table', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: row, exact: true }) })
    .locator('th, td')
    .allTextContents();
const rowNames = (page: Page) => page.locator('table').first().locator('tbody th[scope="row"]').allTextContents();
const results = (page: Page) => page.locator('[role="status"][aria-live="polite"]');

describe('the sales page (/admin) in a browser', () => {
  it('signs in, searches, filters, exports what it shows, marks a demo attended, refuses a change without the CSRF token, and is axe clean', async function () {
    this.timeout(90_000);
    const ids = await seed();
    // The site's policy (script-src 'self', the page's inline style by its hash), kept out of search engines.
    const served = await fetch(`${stack.url}/admin`);
    expect(served.headers.get('content-security-policy')).to.match(
      /^default-src 'self'; script-src 'self'; style-src 'self' 'sha256-/,
    );
    expect(served.headers.get('x-robots-tag')).to.equal('noindex');
    const { page, cspViolations } = await visit({}, '/admin');
    await page.getByRole('heading', { name: 'Sign in to the sales page' }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);

    const token = page.getByLabel('Operations token');
    await token.fill('not-the-token');
    await token.press('Enter');
    await page.getByRole('alert').getByText('That is not the operations token.').waitFor();
    await token.fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const heading = page.getByRole('heading', { name: 'Sales', level: 1, exact: true });
    await heading.waitFor();
    // The focus goes to the page's heading, where a screen reader starts reading.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Sales');
    await results(page).getByText('3 bookings shown.').waitFor();
    expect(await rowNames(page)).to.deep.equal(['Dorothy Vaughan', 'Katherine Johnson', 'Grace Hopper']);
    expect(await axeViolations(page)).to.deep.equal([]);

    await page.getByLabel('Name, company or e-mail starts with').fill('langley');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await results(page).getByText('2 bookings shown.').waitFor();
    await page.getByLabel('Status').selectOption('cancelled');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await results(page).getByText('1 booking shown.').waitFor();
    expect(await rowNames(page)).to.deep.equal(['Katherine Johnson']);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export these bookings as CSV' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines).to.have.length(2);
    expect(lines[1])
      .to.contain(`"${ids['Katherine Johnson']}"`)
      .and.to.contain('"cancelled"')
      .and.to.contain(`"'=SUM(A1:A9)"`);

    await page.getByRole('button', { name: 'Clear' }).click();
    await results(page).getByText('3 bookings shown.').waitFor();
    await page.getByRole('button', { name: 'Grace Hopper' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Grace Hopper, Navy Systems');
    await page.getByRole('listitem').filter({ hasText: 'Booked for' }).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);

    // A change with the session cookie but without its CSRF token is refused, and changes nothing.
    const forged = await page
      .context()
      .request.post(`${stack.url}/api/admin/bookings/${ids['Grace Hopper']}/attendance`, {
        data: { attendance: 'no_show' },
      });
    expect(forged.status()).to.equal(403);

    await page.getByRole('button', { name: 'Mark attended' }).click();
    await page.getByText('Marked attended.').waitFor();
    expect(await page.getByTestId('booking-status').textContent()).to.equal('Attended');
    await page.getByRole('listitem').filter({ hasText: 'Marked attended' }).waitFor();
    const row = await stack.db('bookings').where({ id: ids['Grace Hopper'] }).first('attendance');
    expect(row.attendance).to.equal('attended');
    expect(await stack.db('webhook_events').where({ booking_id: ids['Grace Hopper'] }).pluck('type')).to.deep.equal([
      'booking.attended',
    ]);

    await page.getByRole('button', { name: 'Back to the bookings' }).click();
    await page
      .getByRole('row', { name: /Grace Hopper/ })
      .getByText('Attended')
      .waitFor();
    // The funnel of the last 30 days: today's steps per source, and the newsletter's demo (Grace's) marked attended.
    await page.getByRole('table', { name: 'Steps per source' }).waitFor();
    expect(await cellsOf(page, 'Steps per source', 'newsletter')).to.deep.equal([
      'newsletter',
      '40',
      '22',
      '15',
      '12',
      '30%',
    ]);
    expect(await cellsOf(page, 'Steps per source', '(none)')).to.deep.equal(['(none)', '5', '3', '1', '0', '0%']);
    const attendance = /^Demos in these days per source/;
    await page.getByRole('table', { name: attendance }).getByRole('row').filter({ hasText: '100%' }).waitFor();
    expect(await cellsOf(page, attendance, 'newsletter')).to.deep.equal(['newsletter', '1', '1', '0', '100%']);
    expect(await axeViolations(page)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the sales page' }).waitFor();
    expect(await cspViolations()).to.deep.equal([]);
  });

  it('lays out the filter form at 375, 768, 1280, 1440 and 1920 px: no control overlaps another or leaves its card, nothing scrolls sideways (artifacts/)', async function () {
    this.timeout(120_000);
    for (const width of [375, 768, 1280, 1440, 1920]) {
      const { page } = await visit({ viewport: { width, height: 900 } }, '/admin');
      await page.getByLabel('Operations token').fill(TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('search', { name: 'Bookings' }).waitFor();
      await results(page)
        .getByText(/bookings? shown/)
        .waitFor();
      const layout = await page.getByRole('search', { name: 'Bookings' }).evaluate((form) => {
        const card = form.closest('section')!.getBoundingClientRect();
        const parts = Array.from(form.querySelectorAll('label, input, select, button'), (node) => {
          const box = node.getBoundingClientRect();
          return {
            name: `${node.tagName.toLowerCase()} ${node.textContent?.trim() || node.id}`,
            left: box.left,
            right: box.right,
            top: box.top,
            bottom: box.bottom,
          };
        });
        return {
          card: { left: card.left, right: card.right },
          parts,
          pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
        };
      });
      await page.screenshot({ path: path.join(ARTIFACTS, `sales-page-${width}.png`), fullPage: true });
      expect(layout.pageOverflow, `${width} px: the page scrolls sideways`).to.equal(0);
      const outside = layout.parts
        .filter((part) => part.left < layout.card.left - 0.5 || part.right > layout.card.right + 0.5)
        .map((part) => part.name);
      expect(outside, `${width} px: controls outside their card`).to.deep.equal([]);
      const overlapping = layout.parts.flatMap((one, i) =>
        layout.parts
          .slice(i + 1)
          .filter(
            (other) =>
              one.left < other.right - 0.5 &&
              other.left < one.right - 0.5 &&
              one.top < other.bottom - 0.5 &&
              other.top < one.bottom - 0.5,
          )
          .map((other) => `${one.name} / ${other.name}`),
      );
      expect(overlapping, `${width} px: controls over each other`).to.deep.equal([]);
      expect(await axeViolations(page), `${width} px`).to.deep.equal([]);
    }
  });

  it("holds off a network's wrong tokens after 10, and says so, yet signs in with the right one", async function () {
    this.timeout(60_000);
    // Ten wrong tokens in the window are allowed (the suite's first test may have sent one): the next is held off.
    const statuses: number[] = [];
    while (statuses.length < 11 && statuses.at(-1) !== 429) {
      const wrong = await fetch(`${stack.url}/api/admin/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: `wrong-${statuses.length}` }),
      });
      statuses.push(wrong.status);
    }
    expect(statuses.at(-1)).to.equal(429);
    expect(statuses.slice(0, -1))
      .to.have.length.within(9, 10)
      .and.to.satisfy((earlier: number[]) => earlier.every((status) => status === 401));
    const { page } = await visit({}, '/admin');
    await page.getByLabel('Operations token').fill('one-more-wrong-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .getByText(/Too many wrong operations tokens from your network/)
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Sales', level: 1, exact: true }).count()).to.equal(0);
    // The operator behind the same address, with the right token: signed in, and the page works (its changes pass the
    // check that they come from the site itself, with the browser's own Origin and Sec-Fetch-Site).
    await page.getByLabel('Operations token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sales', level: 1, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the sales page' }).waitFor();
  });
});
