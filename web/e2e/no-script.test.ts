/**
 * Booking, moving and cancelling with scripts disabled, in a real browser against the real stack: the form at /book
 * answered with its errors beside the fields and the values kept, then the booking made, its confirmation, its
 * e-mail, its manage page's move and cancel by plain forms; axe-core finds nothing on any of the pages.
 * Needs the production build: `npm run build:web` (npm test runs it first).
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { Stack } from '../../test/stack.js';
import { axeViolations, type AxeViolation, type WatchedPage } from './browser.js';
import { useBrowserSuite } from './suite.js';

let stack: Stack;
let browser: Browser;
const open: WatchedPage[] = [];

/** What the page's focused element is: its id, or its tag. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);

/**
 * axe-core on the page as the browser without script shows it. axe runs as a script (its checks wait on timers, which
 * a page with scripts disabled never fires), so the page's markup is served again at its address to a page with
 * scripts on: these pages carry no script of their own, so it is the same page.
 */
async function axeWithoutScript(page: Page): Promise<AxeViolation[]> {
  const html = await page.content();
  const address = page.url();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const copy = await context.newPage();
    await copy.route(
      (url) => url.href === address,
      (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
    );
    await copy.goto(address);
    expect(await copy.locator('script').count()).to.equal(0);
    return await axeViolations(copy);
  } finally {
    await context.close();
  }
}

const bookingStatus = async (email: string) =>
  ((await stack.db('bookings').where({ email }).first()) as { status: string; time_slot: Date } | undefined) ?? null;

describe('booking without JavaScript', function () {
  this.timeout(90_000);
  const visit = useBrowserSuite(
    open,
    (parts) => {
      stack = parts.stack;
      browser = parts.browser;
    },
    { page: 'no-script.html' },
  );

  it('books with the errors shown beside their fields, then moves and cancels the booking, all without script', async () => {
    const { page, problems, cspViolations } = await visit({ javaScriptEnabled: false }, '/book');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Book your Converge demo');
    expect(await page.locator('script').count()).to.equal(0);
    expect(await axeWithoutScript(page)).to.deep.equal([]);

    // Sent with a name missing and a slot not chosen: the form comes back, each error beside its field.
    await page.getByRole('textbox', { name: 'Email' }).fill('ines.costa@northwind-logistics.com');
    await page.getByRole('textbox', { name: 'Company' }).fill('Northwind Logistics');
    await page.getByRole('textbox', { name: 'Message' }).fill('Routing for our drivers, please.');
    await page.getByRole('button', { name: 'Request Demo' }).click();
    await page.waitForURL(/\/book$/);
    expect(await page.title()).to.equal('Error: Book a demo | Converge');
    const summary = page.getByRole('heading', { name: 'There is a problem' });
    expect(await summary.isVisible()).to.equal(true);
    // The summary takes the focus, and its links lead to the fields.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-labelledby'))).to.equal(
      'error-summary-title',
    );
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    expect(await name.getAttribute('aria-invalid')).to.equal('true');
    expect(await page.locator('#book-name-error').textContent()).to.equal('Name is required.');
    expect(await page.locator('#slot-error').textContent()).to.equal('Please select a date and time.');
    // The values typed are still there.
    expect(await page.getByRole('textbox', { name: 'Email' }).inputValue()).to.equal(
      'ines.costa@northwind-logistics.com',
    );
    expect(await page.getByRole('textbox', { name: 'Company' }).inputValue()).to.equal('Northwind Logistics');
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).to.equal(
      'Routing for our drivers, please.',
    );
    await page.getByRole('link', { name: 'Name is required.' }).click();
    expect(await focused(page)).to.equal('book-name');
    expect(await axeWithoutScript(page)).to.deep.equal([]);

    // Now complete: the first free time of the first day offered, chosen with the keyboard.
    await name.fill('Inês Costa');
    const firstDay = page.locator('fieldset fieldset').first();
    const firstTime = firstDay.getByRole('radio').first();
    const firstLabel = (await firstDay.locator('label').first().textContent()) ?? '';
    const dayName = (await firstDay.locator('legend').textContent()) ?? '';
    await firstTime.focus();
    await page.keyboard.press('Space');
    expect(await firstTime.isChecked()).to.equal(true);
    await page.getByRole('button', { name: 'Request Demo' }).click();
    await page.waitForURL(/\/booking\/[^/]+\/confirmation$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Your demo is booked');
    expect(await page.locator('dd').first().textContent()).to.equal(`${dayName} at ${firstLabel} Europe Time`);
    expect(await page.getByRole('link', { name: 'Join the video call' }).getAttribute('href')).to.match(/^https:\/\//);
    expect(await page.getByRole('link', { name: 'Add to your calendar' }).getAttribute('href')).to.match(
      /^\/api\/bookings\/[^/]+\/invite\.ics$/,
    );
    expect(await axeWithoutScript(page)).to.deep.equal([]);
    expect((await bookingStatus('ines.costa@northwind-logistics.com'))?.status).to.equal('booked');
    // The same confirmation e-mail as a booking made through the dialog.
    const [mail] = (await stack.smtp.waitForMessages(1)).filter((message) =>
      message.envelopeTo.includes('ines.costa@northwind-logistics.com'),
    );
    expect(mail?.parsed.subject).to.match(/demo/i);

    // The manage page, reached from the confirmation: its Reschedule leads to the move step's own page.
    await page.getByRole('link', { name: 'See, move or cancel your booking' }).click();
    await page.waitForURL(/\/booking\/[^/]+$/);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await page.waitForURL(/\/booking\/[^/]+\/move\??$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Choose a new time');
    expect(await axeWithoutScript(page)).to.deep.equal([]);
    const newTime = page.getByRole('radio').nth(1);
    await newTime.check();
    const newValue = await newTime.getAttribute('value');
    await page.getByRole('button', { name: 'Confirm new time' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Your demo is moved');
    expect((await bookingStatus('ines.costa@northwind-logistics.com'))?.time_slot.toISOString()).to.equal(newValue);

    // Cancel, with its confirm step.
    await page.getByRole('link', { name: 'See, move or cancel your booking' }).click();
    await page.getByRole('button', { name: 'Cancel demo' }).click();
    await page.waitForURL(/\/booking\/[^/]+\/cancel\??$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Cancel this demo?');
    expect(await axeWithoutScript(page)).to.deep.equal([]);
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Your demo is cancelled');
    expect(await axeWithoutScript(page)).to.deep.equal([]);
    expect((await bookingStatus('ines.costa@northwind-logistics.com'))?.status).to.equal('cancelled');

    expect(await cspViolations()).to.deep.equal([]);
    // The one thing the console said: the refused form came back with its status, 400.
    expect(problems).to.deep.equal([
      'error: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  });
});
