/**
 * The booking form without script carries what the dialog carries (issue 41): the visit's UTM parameters, read by the
 * server from the page's address or the landing page it was reached from, as hidden fields into the booking; the time
 * zone the visitor chooses, each slot shown on their clock too and the booking keeping it as theirs; a week at a time
 * over the dialog's month; and, where the site sends texts, the same unticked consent beside the phone with the API's
 * own messages. In Chromium with JavaScript disabled against the real stack; axe-core on each page.
 * Needs the production build: `npm run build:web`.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { SMS_CONSENT_TEXT, SMS_PHONE_REQUIRED } from '../../domain/demo-request.js';
import { SMS_PHONE_NOT_MOBILE } from '../../api/bookings/sms-consent.js';
import type { Stack, StackOptions } from '../../test/stack.js';
import { axeViolations, type AxeViolation, type WatchedPage } from './browser.js';
import { ARTIFACTS, useBrowserSuite } from './suite.js';

const open: WatchedPage[] = [];

/** axe-core on the markup the page without script shows, served again to a page with scripts on (no-script.test.ts). */
async function axeWithoutScript(browser: Browser, page: Page): Promise<AxeViolation[]> {
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
    return await axeViolations(copy);
  } finally {
    await context.close();
  }
}

const bookingRow = (stack: Stack, email: string) =>
  stack
    .db('bookings')
    .where({ email })
    .first('attribution', 'visitor_time_zone', 'time_slot', 'sms_phone', 'sms_consent_text') as Promise<
    | {
        attribution: Record<string, string> | null;
        visitor_time_zone: string | null;
        time_slot: Date;
        sms_phone: string | null;
        sms_consent_text: string | null;
      }
    | undefined
  >;

async function fillDetails(page: Page, name: string, email: string, company: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Company' }).fill(company);
}

describe('the booking form without script, as the dialog books', function () {
  this.timeout(90_000);
  let stack: Stack;
  let browser: Browser;
  const visit = useBrowserSuite(
    open,
    (parts) => {
      ({ stack, browser } = parts);
    },
    { page: 'no-script.html' },
  );

  it('carries the landing page’s UTM parameters and the zone chosen into the booking, a week at a time', async () => {
    const { page, cspViolations } = await visit(
      { javaScriptEnabled: false, viewport: { width: 1280, height: 900 } },
      '/?utm_source=newsletter&utm_medium=email&utm_campaign=winter-launch',
    );
    // The hero's link is /book, without the landing page's query: the server reads it from the Referer.
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === '/book');
    await page.locator('main').getByRole('link', { name: 'Request Demo' }).first().click();
    expect((await asked).headers().referer, 'the landing page’s address').to.contain('utm_source=newsletter');
    await page.waitForURL(/\/book$/);
    const hidden = (name: string) => page.locator(`form[method="post"] input[type="hidden"][name="${name}"]`);
    expect(await hidden('attribution.utm_source').inputValue()).to.equal('newsletter');
    expect(await hidden('attribution.utm_campaign').inputValue()).to.equal('winter-launch');
    expect(await hidden('visitorTimeZone').inputValue()).to.equal('Europe/Berlin');

    // A zone of the visitor's and the second week, shown by the times form's own GET.
    const zone = page.getByRole('combobox', { name: 'Your time zone' });
    expect(await zone.inputValue(), 'the booking zone until one is chosen').to.equal('Europe/Berlin');
    await zone.selectOption('America/New_York');
    const week = page.getByRole('combobox', { name: 'Week' });
    const weeks = await week
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(weeks.length, 'the dialog’s month, a week at a time').to.be.within(4, 6);
    await week.selectOption(weeks[1]!);
    await page.getByRole('button', { name: 'Show times' }).click();
    await page.waitForURL(/\/book\?/);
    expect(new URL(page.url()).searchParams.get('utm_source')).to.equal('newsletter');
    expect(await hidden('attribution.utm_source').inputValue()).to.equal('newsletter');
    expect(await hidden('attribution.utm_medium').inputValue()).to.equal('email');
    expect(await hidden('visitorTimeZone').inputValue()).to.equal('America/New_York');
    expect(await page.getByRole('combobox', { name: 'Your time zone' }).inputValue()).to.equal('America/New_York');
    expect(await page.getByRole('combobox', { name: 'Week' }).inputValue()).to.equal(weeks[1]);
    const firstTime = page.getByRole('radio').first();
    const slot = (await firstTime.getAttribute('value')) ?? '';
    expect(slot.slice(0, 10) >= weeks[1]!, 'the times of the week chosen').to.equal(true);
    // Each time on the booking zone's clock, and the visitor's beside it.
    const newYork = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(slot));
    expect(await page.locator(`label[for="${await firstTime.getAttribute('id')}"]`).textContent()).to.contain(
      `${newYork} your time`,
    );
    expect(await axeWithoutScript(browser, page)).to.deep.equal([]);
    await page.screenshot({ path: `${ARTIFACTS}/no-script-times.png`, fullPage: true });

    await fillDetails(page, 'Nadia Okafor', 'nadia.okafor@lagos-freight.com', 'Lagos Freight');
    await firstTime.check();
    await page.getByRole('textbox', { name: 'Company' }).press('Enter');
    await page.waitForURL(/\/booking\/[^/]+\/confirmation$/);
    const row = await bookingRow(stack, 'nadia.okafor@lagos-freight.com');
    expect(row?.attribution).to.deep.equal({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'winter-launch',
    });
    expect(row?.visitor_time_zone).to.equal('America/New_York');
    expect(row?.time_slot.toISOString()).to.equal(new Date(slot).toISOString());

    // Its move offers the same month a week at a time: the last week, then a time of it.
    await page.getByRole('link', { name: 'See, move or cancel your booking' }).click();
    await page.getByRole('button', { name: 'Reschedule' }).click();
    await page.waitForURL(/\/booking\/[^/]+\/move\??$/);
    const moveWeeks = page.getByRole('combobox', { name: 'Week' });
    expect(await moveWeeks.locator('option').count()).to.equal(weeks.length);
    await moveWeeks.selectOption(weeks.at(-1)!);
    await page.getByRole('button', { name: 'Show times' }).click();
    await page.waitForURL(/\/move\?from=/);
    expect(await axeWithoutScript(browser, page)).to.deep.equal([]);
    const lastWeekTime = page.getByRole('radio').first();
    const later = (await lastWeekTime.getAttribute('value')) ?? '';
    expect(later.slice(0, 10) >= weeks.at(-1)!).to.equal(true);
    await lastWeekTime.check();
    await page.getByRole('button', { name: 'Confirm new time' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Your demo is moved');
    expect((await bookingRow(stack, 'nadia.okafor@lagos-freight.com'))?.time_slot.toISOString()).to.equal(
      new Date(later).toISOString(),
    );
    expect(await cspViolations()).to.deep.equal([]);
  });

  it('takes a referrer from another site and the UTM parameters of its own address', async () => {
    const { page } = await visit(
      { javaScriptEnabled: false, extraHTTPHeaders: { Referer: 'https://news.example.org/post' } },
      '/book?utm_source=partner',
    );
    expect(await page.locator('input[name="attribution.utm_source"]').inputValue()).to.equal('partner');
    expect(await page.locator('input[name="attribution.referrer"]').inputValue()).to.equal(
      'https://news.example.org/post',
    );
  });
});

describe('the texts’ consent on the form without script', function () {
  this.timeout(90_000);
  // An SMSC nobody answers at: the API only needs to know that texts are sent.
  const stackOptions: StackOptions = { env: { SMPP_URL: 'smpp://converge:secret@127.0.0.1:9', SMS_FROM: 'Converge' } };
  let stack: Stack;
  let browser: Browser;
  const visit = useBrowserSuite(
    open,
    (parts) => {
      ({ stack, browser } = parts);
    },
    { page: 'no-script.html', stack: stackOptions },
  );

  it('offers it unticked beside the phone, with the API’s messages beside the phone, and books with it', async () => {
    const { page } = await visit({ javaScriptEnabled: false }, '/book');
    const consent = page.getByRole('checkbox', { name: SMS_CONSENT_TEXT });
    expect(await consent.isChecked()).to.equal(false);
    // Reached from the phone by the keyboard.
    await page.getByRole('textbox', { name: 'Phone' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).to.equal('smsConsent');
    await page.keyboard.press('Space');
    expect(await axeWithoutScript(browser, page)).to.deep.equal([]);

    await fillDetails(page, 'Ada Lovelace', 'ada@analytical-engines.com', 'Analytical Engines');
    await page.getByRole('radio').first().check();
    const send = async () => {
      const posted = page.waitForResponse(
        (answer) => new URL(answer.url()).pathname === '/book' && answer.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Request Demo' }).click();
      await posted;
      await page.waitForLoadState();
    };
    // Ticked without a number: the API's words beside the phone, the tick kept.
    await send();
    expect(await page.locator('#book-phone-error').textContent()).to.equal(SMS_PHONE_REQUIRED);
    expect(await page.getByRole('checkbox', { name: SMS_CONSENT_TEXT }).isChecked()).to.equal(true);
    expect(await axeWithoutScript(browser, page)).to.deep.equal([]);
    // A landline of a plan that tells: no text reaches it.
    await page.getByRole('textbox', { name: 'Phone' }).fill('+33 1 42 68 53 00');
    await page.getByRole('radio').first().check();
    await send();
    expect(await page.locator('#book-phone-error').textContent()).to.equal(SMS_PHONE_NOT_MOBILE);

    await page.getByRole('textbox', { name: 'Phone' }).fill('+33 6 12 34 56 78');
    await page.getByRole('radio').first().check();
    await send();
    await page.waitForURL(/\/booking\/[^/]+\/confirmation$/);
    const row = await bookingRow(stack, 'ada@analytical-engines.com');
    expect(row?.sms_phone).to.equal('+33612345678');
    expect(row?.sms_consent_text).to.equal(SMS_CONSENT_TEXT);
  });

  it('books without texts when the box is left unticked, the phone kept as typed', async () => {
    const { page } = await visit({ javaScriptEnabled: false }, '/book');
    await fillDetails(page, 'Grace Hopper', 'grace@cobol-systems.com', 'COBOL Systems');
    await page.getByRole('textbox', { name: 'Phone' }).fill('+33 1 42 68 53 00');
    await page.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Request Demo' }).click();
    await page.waitForURL(/\/booking\/[^/]+\/confirmation$/);
    const row = await bookingRow(stack, 'grace@cobol-systems.com');
    expect(row?.sms_phone).to.equal(null);
  });
});
