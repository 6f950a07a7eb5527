/**
 * The site in a real browser against the real API (real database, real queue), as a visitor uses it.
 * Needs the production build: `npm run build:web` (npm test runs it first).
 */
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Locator } from 'playwright-core';
import type { Stack } from '../../test/stack.js';
import { brand } from '../../domain/brand.js';
import { mistypedPersonalMessage, unknownEndingMessage } from '../../domain/email-messages.js';
import { axeViolations, openPage, type WatchedPage } from './browser.js';
import { ARTIFACTS, useBrowserSuite, type Visit } from './suite.js';
import {
  chooseFirstBookableSlot,
  dayTile,
  fillRequired,
  firstBookableLabel,
  FIXED_NOW,
  LONGEST_LOCAL_TIMES,
  openDialog,
  slotNoteLines,
  slotsSettled,
  withoutSlotsApi,
} from './dialog.js';

let stack: Stack;
let browser: Browser;
const open: WatchedPage[] = [];
let visit: Visit;

/** Whether an element lies wholly inside the viewport, and is what a click at its centre would reach (nothing covers it). */
async function inViewUncovered(locator: Locator): Promise<{ inViewport: boolean; uncovered: boolean }> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const inViewport =
      box.width > 0 &&
      box.height > 0 &&
      box.top >= 0 &&
      box.left >= 0 &&
      box.bottom <= window.innerHeight &&
      box.right <= window.innerWidth;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { inViewport, uncovered: hit !== null && element.contains(hit) };
  });
}

const SHOWN = { inViewport: true, uncovered: true };

async function enabledDayLabels(dialog: Locator): Promise<string[]> {
  return dialog
    .locator('.react-calendar__month-view__days button:enabled abbr')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''));
}

describe('the site in Chromium', function () {
  this.timeout(30_000);

  visit = useBrowserSuite(open, (started) => ({ stack, browser } = started));

  describe('landing page', () => {
    it('is served prerendered, with the head a search engine and a share card need', async () => {
      const response = await fetch(`${stack.url}/`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('cache-control')).to.equal('no-cache');
      expect(response.headers.get('content-encoding')).to.be.oneOf(['br', 'gzip']);
      const html = await response.text();
      // The class holds the page's text in the fallback until its first frame is painted (font-loading.ts).
      expect(html).to.match(/^<!doctype html>\n<html lang="en" class="font-later">/);
      expect(html).to.include('<title>Converge: the AI-powered enterprise communication platform</title>');
      expect(html).to.match(/<meta name="description" content="[^"]{50,}">/);
      expect(html).to.match(/<meta property="og:title" content="Converge/);
      expect(html).to.match(/<link rel="icon" href="\/assets\/favicon\.[0-9a-f]+\.svg"/);
      // The counters' final values are in the HTML before any script runs.
      for (const value of ['40%', '2x', '100%', '30%', '1 platform']) {
        expect(html.replace(/<!-- -->/g, '')).to.include(`>${value}<`);
      }
      // The architecture diagram's two drawings are files of their own, one per width.
      for (const drawing of html.match(/\/images\/architecture-(wide|narrow)\.svg/g) ?? []) {
        const answer = await fetch(`${stack.url}${drawing}`);
        expect(answer.status, drawing).to.equal(200);
        expect(answer.headers.get('content-type')).to.match(/^image\/svg\+xml/);
        expect(await answer.text()).to.match(
          /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*><title>Converge architecture diagram<\/title>/,
        );
      }
      expect(new Set(html.match(/\/images\/architecture-(wide|narrow)\.svg/g)).size, 'both drawings named').to.equal(2);
      // The page's one script is in the page; the dialog's are hashed assets, named in a meta tag, cached for a year.
      expect(html).to.not.match(/<script[^>]*\ssrc=/);
      expect(html).to.match(/<script>[\s\S]+?<\/script>\n<\/body>/);
      const dialogScripts = /<meta name="demo-code" content="([^"]+)">/.exec(html)?.[1]?.split(' ') ?? [];
      expect(dialogScripts, "the dialog's scripts").to.have.length.greaterThan(0);
      for (const script of dialogScripts) {
        expect(script).to.match(/^\/assets\/[\w-]+\.[0-9a-f]{12}\.js$/);
        const asset = await fetch(`${stack.url}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
        expect(asset.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
        expect(asset.headers.get('content-encoding')).to.be.oneOf(['br', 'gzip']);
      }
    });

    it('starts without a warning and loads nothing from another host', async () => {
      const { page, problems } = await visit();
      const foreign: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(stack.url)) foreign.push(request.url());
      });
      await page.reload({ waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.title()).to.equal('Converge: the AI-powered enterprise communication platform');
      expect(problems).to.deep.equal([]);
      expect(foreign).to.deep.equal([]);
    });

    it("loads no script file before the page has loaded; then the dialog's code, so the form takes typing as it opens", async () => {
      const watched = await openPage(browser);
      open.push(watched);
      const { page } = watched;
      await page.goto(stack.url);
      // The dialog's code comes once the page is idle after its load, and hydrates the dialog.
      await page.waitForFunction(() => 'convergeDemoIsland' in window);
      const [loadedAt, scripts] = await page.evaluate(
        () =>
          [
            (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd ??
              0,
            performance
              .getEntriesByType('resource')
              .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
              .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
          ] as const,
      );
      expect(loadedAt, 'the load event ended').to.be.greaterThan(0);
      expect(
        scripts.some((script) => /^\/assets\/demo\.[0-9a-f]+\.js$/.test(script.path)),
        scripts.map((script) => script.path).join(' '),
      ).to.equal(true);
      expect(
        scripts.filter((script) => script.startTime < loadedAt),
        'script files asked for before the page had loaded',
      ).to.deep.equal([]);
      // Pressed now, the dialog opens with the first field focused: what the visitor types goes there.
      await page.getByRole('main').getByRole('link', { name: 'Request Demo' }).first().click();
      await page.keyboard.type('Ada Lovelace');
      const dialog = page.getByRole('dialog', { name: 'Request Demo' });
      expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ada Lovelace');
    });

    it('counts the metrics up from 0 when they scroll into view', async () => {
      const { page } = await visit({ viewport: { width: 1280, height: 800 } });
      const first = page.locator('#results li p:first-child span[aria-hidden]').first();
      await page.waitForLoadState('networkidle');
      await page.locator('#results').scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      const early = Number.parseInt((await first.innerText()).replace('%', ''), 10);
      expect(early).to.be.within(0, 39);
      await page.waitForTimeout(2900);
      const cards = await page.locator('#results li p:first-child span[aria-hidden]').allInnerTexts();
      expect(cards).to.deep.equal(['40%', '2x', '100%', '30%', '1 platform']);
      // Nothing of the page is re-rendered in the browser: the dialog's code, run once the page is idle after its
      // load, hydrates only its own layer. The page's markup stays the prerendered one.
      await page.waitForFunction(() => 'convergeDemoIsland' in window);
      const [prerendered, live] = await page.evaluate(async () => {
        const html = await (await fetch('/')).text();
        return [
          new DOMParser().parseFromString(html, 'text/html').querySelector('[data-demo-page]')?.outerHTML,
          // The counters' script marks their list as started; nothing else is touched.
          document.querySelector('[data-demo-page]')?.outerHTML.replace('data-count-up="armed"', 'data-count-up=""'),
        ];
      });
      expect(live).to.be.a('string');
      const at = [...(live ?? '')].findIndex((char, i) => char !== prerendered?.[i]);
      expect(
        live === prerendered,
        `the page as prerendered; differs at ${live?.slice(at - 80, at + 80)} vs ${prerendered?.slice(at - 80, at + 80)}`,
      ).to.equal(true);
    });

    it('shows the final metric values at once with reduced motion', async () => {
      const { page } = await visit({ reducedMotion: 'reduce' });
      await page.waitForLoadState('networkidle');
      await page.locator('#results').scrollIntoViewIfNeeded();
      await page.waitForTimeout(100);
      expect(await page.locator('#results li p:first-child span[aria-hidden]').allInnerTexts()).to.deep.equal([
        '40%',
        '2x',
        '100%',
        '30%',
        '1 platform',
      ]);
    });

    it('looks right at 375 and 1440 px (screenshots in artifacts/)', async () => {
      for (const width of [375, 1440]) {
        const { page } = await visit({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `horizontal overflow at ${width}px`).to.equal(0);
        const overflowingCards = await page
          .locator('li')
          .evaluateAll((cards) =>
            cards.filter((card) => card.scrollWidth > card.clientWidth + 1).map((card) => card.textContent),
          );
        expect(overflowingCards, `cards whose content spills out at ${width}px`).to.deep.equal([]);
        // What the first screen shows: the headline and the button that opens the form, neither covered.
        expect(await inViewUncovered(page.getByRole('heading', { level: 1 })), `h1 at ${width}px`).to.deep.equal(SHOWN);
        const getStarted = page.getByRole('banner').getByRole('link', { name: 'Get Started' });
        expect(await inViewUncovered(getStarted), `Get Started at ${width}px`).to.deep.equal(SHOWN);
        await page.screenshot({ path: path.join(ARTIFACTS, `page-${width}.png`), fullPage: true });
      }
    });

    it('has no accessibility violations (axe-core)', async () => {
      const { page } = await visit();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).to.deep.equal([]);
    });
  });

  describe('Request Demo dialog', () => {
    it('opens from each of the three links, and Escape or Close returns focus to it', async () => {
      const { page } = await visit();
      const triggers = [
        page.getByRole('banner').getByRole('link', { name: 'Get Started' }),
        page.locator('#hero-title').locator('..').getByRole('link', { name: 'Request Demo' }),
        page
          .getByRole('region', { name: 'See Converge on your own customer journeys' })
          .getByRole('link', { name: 'Request Demo' }),
      ];
      for (const [index, trigger] of triggers.entries()) {
        const dialog = await openDialog(page, trigger);
        expect(await dialog.getByRole('heading', { name: 'Request Demo' }).isVisible()).to.equal(true);
        expect(
          await dialog.getByLabel('Name', { exact: true }).evaluate((input) => input === document.activeElement),
        ).to.equal(true);
        if (index === 1) await dialog.getByRole('button', { name: 'Close' }).click();
        else await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
        expect(
          await trigger.evaluate((button) => button === document.activeElement),
          `focus back on trigger ${index}`,
        ).to.equal(true);
      }
    });

    it("says so where the calendar goes when the form's code cannot be loaded, and loads it on the next press", async () => {
      const watched = await openPage(browser);
      open.push(watched);
      const { page } = watched;
      const dialogCode = /\/assets\/(demo|react|\d+)\.[0-9a-f]+\.js$/;
      await page.route(dialogCode, (route) => route.abort('internetdisconnected'));
      await page.goto(stack.url);
      const trigger = page.locator('#hero-title').locator('..').getByRole('link', { name: 'Request Demo' });
      await trigger.click();
      const dialog = page.getByRole('dialog', { name: 'Request Demo' });
      // The form is there and takes typing all the same; only the calendar's place says what went wrong.
      await page.keyboard.type('Ada Lovelace');
      await dialog.getByRole('status').filter({ hasText: 'The demo request form could not be loaded' }).waitFor();
      expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ada Lovelace');
      await page.keyboard.press('Escape');
      expect(await trigger.evaluate((link) => link === document.activeElement)).to.equal(true);

      await page.unroute(dialogCode);
      await trigger.click();
      await dialog.getByRole('button', { name: 'Next month' }).waitFor();
      expect(await dialog.getByText('could not be loaded').count()).to.equal(0);
      expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ada Lovelace');
    });

    it('opens even when Get Started is pressed while the page is still starting', async () => {
      const watched = await openPage(browser);
      open.push(watched);
      // DOMContentLoaded comes right after the page's own script ran, long before the dialog's code has arrived.
      await watched.page.addInitScript(() => {
        document.addEventListener('DOMContentLoaded', () =>
          document.querySelector<HTMLElement>('header [data-demo-trigger]')?.click(),
        );
      });
      await watched.page.goto(stack.url);
      await watched.page.getByRole('dialog', { name: 'Request Demo' }).getByLabel('Name', { exact: true }).waitFor();
      expect(new URL(watched.page.url()).pathname).to.equal('/');
    });

    it('has the fields in order, each with a visible label, and keeps the page still behind it', async () => {
      const { page } = await visit();
      const dialog = await openDialog(page, page.getByRole('banner').getByRole('link', { name: 'Get Started' }));
      // Playwright's click scrolls on its own, so the page is put somewhere in the middle afterwards.
      await page.evaluate(() => window.scrollTo({ top: 400, behavior: 'instant' }));
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).to.equal(400);
      const labels = await dialog
        // The honeypot's label (inside aria-hidden) is for bots, not a field people see.
        .locator('form > div:not([aria-hidden]) > label, form > fieldset > legend')
        .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).innerText.trim()));
      expect(labels).to.deep.equal([
        'Name',
        'Email',
        'Company',
        'Select Date & Time (Europe Time)',
        'Phone (Optional)',
        'Message (Optional)',
      ]);
      for (const label of ['Name', 'Email', 'Company', 'Phone (Optional)', 'Message (Optional)']) {
        expect(await dialog.getByLabel(label, { exact: true }).isVisible(), label).to.equal(true);
      }
      expect(await dialog.getByLabel('Phone (Optional)', { exact: true }).getAttribute('placeholder')).to.match(
        /^\+1 \(\d{3}\) \d{3}-\d{4}$/,
      );
      expect(await dialog.getByLabel('Message (Optional)', { exact: true }).getAttribute('rows')).to.equal('3');
      expect(await dialog.getByRole('group', { name: 'Select Date & Time (Europe Time)' }).isVisible()).to.equal(true);
      expect(await dialog.getByRole('button', { name: 'Request Demo' }).isEnabled()).to.equal(true);
      // The page behind does not scroll, and is out of reach.
      await page.mouse.wheel(0, 800);
      await page.waitForTimeout(200);
      expect(await page.evaluate(() => window.scrollY)).to.equal(scrolled);
      // A modal dialog: the browser keeps the page behind it out of reach.
      expect(await dialog.evaluate((element) => element.matches(':modal'))).to.equal(true);
    });

    it('traps focus: Tab from the last control goes to the first, Shift+Tab back', async () => {
      const { page } = await visit();
      const dialog = await openDialog(page);
      await dialog.getByRole('button', { name: 'Request Demo' }).focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Close');
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Request Demo');
    });

    it('disables weekends, past days and days more than a month ahead', async () => {
      const watched = await openPage(browser);
      open.push(watched);
      await watched.page.clock.setFixedTime(FIXED_NOW);
      await withoutSlotsApi(watched.page);
      await watched.page.goto(stack.url);
      const dialog = await openDialog(watched.page);
      expect(await enabledDayLabels(dialog)).to.deep.equal(
        ['18', '19', '20', '23', '24', '25', '26', '27', '30'].map((day) => `${day} November 2026`),
      );
      for (const day of ['17 November 2026', '21 November 2026', '22 November 2026']) {
        expect(await dayTile(dialog, day).isDisabled(), day).to.equal(true);
      }
      expect(await dialog.getByRole('button', { name: 'Previous month' }).isDisabled()).to.equal(true);
      await dialog.getByRole('button', { name: 'Next month' }).click();
      const december = await enabledDayLabels(dialog);
      expect(december[0]).to.equal('1 December 2026');
      expect(december.at(-1)).to.equal('18 December 2026');
      expect(await dayTile(dialog, '21 December 2026').isDisabled()).to.equal(true);
      expect(await dialog.getByRole('button', { name: 'Next month' }).isDisabled()).to.equal(true);

      // Keys move between the enabled days only.
      const page = watched.page;
      const focusedDay = () =>
        page.evaluate(() => document.activeElement?.querySelector('abbr')?.getAttribute('aria-label'));
      await dialog.getByRole('button', { name: 'Previous month' }).click();
      await dayTile(dialog, '20 November 2026').focus();
      await page.keyboard.press('ArrowRight');
      expect(await focusedDay(), 'over the weekend').to.equal('23 November 2026');
      await page.keyboard.press('ArrowUp');
      expect(await focusedDay(), 'a week back is in the past: stays').to.equal('23 November 2026');
      await page.keyboard.press('End');
      expect(await focusedDay()).to.equal('30 November 2026');
      await page.keyboard.press('Home');
      expect(await focusedDay()).to.equal('18 November 2026');
      await page.keyboard.press('PageDown');
      await page.waitForFunction(
        () => document.activeElement?.querySelector('abbr')?.getAttribute('aria-label') === '1 December 2026',
      );
      await page.keyboard.press('PageUp');
      await page.waitForFunction(
        () => document.activeElement?.querySelector('abbr')?.getAttribute('aria-label') === '18 November 2026',
      );
    });

    it("offers 17 hourly slots in Europe Time, with the visitor's own time beside them, even when the slots call fails", async () => {
      const watched = await openPage(browser, { timezoneId: 'America/New_York' });
      open.push(watched);
      await watched.page.clock.setFixedTime(FIXED_NOW);
      await withoutSlotsApi(watched.page);
      await watched.page.goto(stack.url);
      const dialog = await openDialog(watched.page);
      await dayTile(dialog, '24 November 2026').click();
      await slotsSettled(dialog);
      // The chosen day is marked for the eye and for a screen reader.
      const chosen = dialog.getByRole('button', { name: '24 November 2026 (selected)' });
      expect(await chosen.evaluate((tile) => getComputedStyle(tile).backgroundColor)).to.equal('rgb(67, 56, 202)');
      const slots = dialog.getByRole('radio');
      expect(await slots.count()).to.equal(17);
      const labels = await dialog
        .locator('input[name="timeSlot"]')
        .evaluateAll((inputs) =>
          inputs.map((input) => (input.parentElement as HTMLElement).innerText.replace(/\s+/g, ' ').trim()),
        );
      expect(labels[0]).to.equal('07:00 01:00 your time');
      expect(labels[16]).to.equal('23:00 17:00 your time');
      // Without the server's word on taken slots, the domain rules alone decide: nothing is greyed out.
      expect(await dialog.locator('input[name="timeSlot"]:disabled').count()).to.equal(0);
      expect(await slots.first().inputValue()).to.equal('2026-11-24T06:00:00.000Z');
      await slots.nth(7).check();
      expect(await dialog.getByRole('status').filter({ hasText: 'Selected' }).innerText()).to.equal(
        'Selected Tuesday, 24 November 2026 at 14:00 Europe Time (08:00 your time).',
      );
      // Today, at 10:30, offers only the hours at least the server's two hours of notice ahead: 13:00 on.
      await dayTile(dialog, '18 November 2026').click();
      expect(await slots.first().inputValue()).to.equal('2026-11-18T12:00:00.000Z');
      expect(await slots.count()).to.equal(11);
    });

    it("sets each slot's time on the visitor's clock on one line, at 375 and 1440 px", async () => {
      for (const width of [375, 1440]) {
        const watched = await openPage(browser, {
          viewport: { width, height: 900 },
          timezoneId: LONGEST_LOCAL_TIMES.timezoneId,
        });
        open.push(watched);
        await watched.page.clock.setFixedTime(FIXED_NOW);
        await withoutSlotsApi(watched.page);
        await watched.page.goto(stack.url);
        const dialog = await openDialog(watched.page);
        await dayTile(dialog, LONGEST_LOCAL_TIMES.day).click();
        await slotsSettled(dialog);
        const lines = await slotNoteLines(dialog);
        expect(lines, `at ${width}px`).to.include('22:00 Wed your time: 1');
        expect(lines.filter((line) => line.includes(' your time: ')).length, `at ${width}px`).to.equal(17);
        expect(
          lines.filter((line) => !line.endsWith(': 1')),
          `lines of more than one line at ${width}px`,
        ).to.deep.equal([]);
        expect(
          await dialog.evaluate((panel) => panel.scrollWidth - panel.clientWidth),
          `horizontal overflow of the dialog at ${width}px`,
        ).to.equal(0);
        await dialog
          .locator('fieldset fieldset')
          .screenshot({ path: path.join(ARTIFACTS, `modal-times-${width}.png`) });
      }
    });

    it('uses the booking zone and notice the served page names in <meta name="booking-time-zone"> and <meta name="booking-min-notice">', async () => {
      const watched = await openPage(browser, { timezoneId: 'Europe/Berlin' });
      open.push(watched);
      const { page } = watched;
      await page.clock.setFixedTime(FIXED_NOW);
      await withoutSlotsApi(page);
      // Stands in for a server configured with BOOKING_TIME_ZONE=Asia/Tokyo and MIN_NOTICE_MINUTES=30.
      await page.route(`${stack.url}/`, async (route) => {
        const response = await route.fetch();
        const html = await response.text();
        expect(html).to.include('<meta name="booking-time-zone" content="');
        // The body is handed over decoded, so the encoding headers of the original answer no longer apply.
        const headers = Object.fromEntries(
          Object.entries(response.headers()).filter(
            ([name]) => name !== 'content-encoding' && name !== 'content-length',
          ),
        );
        expect(html).to.include('<meta name="booking-min-notice" content="120">');
        const body = html
          .replace(/(<meta name="booking-time-zone" content=")[^"]*/, '$1Asia/Tokyo')
          .replace(/(<meta name="booking-min-notice" content=")[^"]*/, '$130');
        await route.fulfill({ status: 200, headers, body });
      });
      await page.goto(stack.url);
      const dialog = await openDialog(page);
      // The zone is named as the page's zone, not as Europe Time.
      expect(
        await dialog.getByRole('group', { name: 'Select Date & Time (Japan Standard Time)' }).isVisible(),
      ).to.equal(true);
      expect(await dialog.getByText(/hourly from 07:00 to 23:00 Tokyo time/).isVisible()).to.equal(true);
      // 18:30 on Wednesday in Tokyo, 30 minutes' notice: today's slots from 19:00 on; the window ends on 18 December, Tokyo's clock.
      const enabled = await enabledDayLabels(dialog);
      expect(enabled[0]).to.equal('18 November 2026');
      await dayTile(dialog, '18 November 2026').click();
      expect(await dialog.getByRole('radio').count()).to.equal(5);
      await dayTile(dialog, '24 November 2026').click();
      const slots = dialog.getByRole('radio');
      expect(await slots.count()).to.equal(17);
      expect(await slots.first().inputValue()).to.equal('2026-11-23T22:00:00.000Z');
      const first = await dialog
        .locator('input[name="timeSlot"]')
        .first()
        .evaluate((input) => (input.parentElement as HTMLElement).innerText);
      expect(first.replace(/\s+/g, ' ').trim()).to.equal('07:00 23:00 Mon your time');
    });

    it('checks the e-mail on leaving the field: spinner, tick, cross with reason, suggestion', async () => {
      const { page, problems } = await visit();
      // Slow the check down so the spinner can be seen.
      await page.route('**/api/validate-email', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
      });
      const dialog = await openDialog(page);
      const email = dialog.getByLabel('Email', { exact: true });
      await email.fill('ana@northwind-logistics.com');
      await dialog.getByLabel('Company', { exact: true }).focus();
      await dialog.getByRole('img', { name: 'Checking email address…' }).waitFor();
      await dialog.getByRole('img', { name: 'Email address looks good' }).waitFor();

      await email.fill('ana@gmail.com');
      await email.blur();
      await dialog.getByRole('img', { name: 'Email address not accepted' }).waitFor();
      expect(
        await dialog
          .getByText('Please use your company email address. Personal email addresses are not accepted.')
          .isVisible(),
      ).to.equal(true);

      // A slip of a personal provider: no suggestion that the form would refuse, but what is needed instead.
      await email.fill('ana@gmial.com');
      await email.blur();
      await dialog.getByText(mistypedPersonalMessage('gmail.com')).waitFor();
      expect(await dialog.getByText(/^Did you mean/).count()).to.equal(0);

      // An ending that is no top-level domain: no mail reaches it, so no tick, whether or not it is a slip of one.
      await email.fill('ana@contoso.logisticz');
      await email.blur();
      await dialog.getByText(unknownEndingMessage('logisticz')).waitFor();
      await dialog.getByRole('img', { name: 'Email address not accepted' }).waitFor();
      expect(await dialog.getByText(/^Did you mean/).count()).to.equal(0);

      // A company address with a mistyped ending: refused with its reason, the suggestion fixes it, the fixed address passes.
      await email.fill('ana@northwind-logistics.con');
      await email.blur();
      const suggestion = dialog.getByText(/^Did you mean: ana@northwind-logistics\.com\?$/);
      await suggestion.waitFor();
      expect(await dialog.getByText(unknownEndingMessage('con')).isVisible()).to.equal(true);
      expect(await dialog.getByRole('img', { name: 'Email address looks good' }).count()).to.equal(0);
      await suggestion.getByRole('button', { name: 'ana@northwind-logistics.com' }).click();
      expect(await email.inputValue()).to.equal('ana@northwind-logistics.com');
      await dialog.getByRole('img', { name: 'Email address looks good' }).waitFor();

      await email.fill('');
      await email.blur();
      expect(await dialog.getByText('Email is required', { exact: true }).isVisible()).to.equal(true);
      expect(problems).to.deep.equal([]);
    });

    it('treats a failing e-mail check as valid and logs it', async () => {
      const { page, problems } = await visit();
      await page.route('**/api/validate-email', (route) => route.fulfill({ status: 500, body: 'boom' }));
      const dialog = await openDialog(page);
      await dialog.getByLabel('Email', { exact: true }).fill('ana@northwind-logistics.com');
      await dialog.getByLabel('Email', { exact: true }).blur();
      await dialog.getByRole('img', { name: 'Email address looks good' }).waitFor();
      expect(problems.some((problem) => problem.includes('Email validation failed'))).to.equal(true);
    });

    it('books a demo: Submitting..., success toast, dialog closed, form reset, row stored', async () => {
      const { page, problems } = await visit();
      await page.route('**/api/demo-request', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.continue();
      });
      const dialog = await openDialog(page);
      await fillRequired(dialog, 'Lea Brandt', 'lea@northwind-logistics.com', 'Northwind Logistics');
      const slot = await chooseFirstBookableSlot(dialog);
      await dialog.getByLabel('Phone (Optional)', { exact: true }).fill('+1 (415) 555-0100');
      await dialog.getByLabel('Message (Optional)', { exact: true }).fill('Interested in WhatsApp with SMS fallback.');
      await dialog.getByRole('button', { name: 'Request Demo' }).click();
      const pending = dialog.getByRole('button', { name: 'Submitting...' });
      await pending.waitFor();
      expect(await pending.isDisabled()).to.equal(true);

      const toast = page.getByRole('status').filter({ hasText: 'Demo Request Submitted' });
      await toast.waitFor();
      expect(await toast.innerText()).to.include("Thank you! We'll contact you soon to schedule your demo.");
      // Beside the specification's words, when the demo is, as the dialog offered it.
      const day = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }).format(new Date(slot));
      const time = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(slot));
      expect(await toast.innerText()).to.include(`Booked for ${day} at ${time} Europe Time`);
      await dialog.waitFor({ state: 'hidden' });

      const rows = await stack
        .db('bookings')
        .where({ email: 'lea@northwind-logistics.com' })
        .select('name', 'email', 'company', 'phone', 'message', 'time_slot', 'visitor_time_zone');
      expect(rows).to.have.length(1);
      expect(rows[0]).to.deep.include({
        name: 'Lea Brandt',
        email: 'lea@northwind-logistics.com',
        company: 'Northwind Logistics',
        phone: '+1 (415) 555-0100',
      });
      // The browser's own zone went with it, for the e-mails.
      expect(rows[0].visitor_time_zone).to.equal(
        await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
      );
      expect(new Date(rows[0].time_slot as string).toISOString()).to.equal(slot);

      await openDialog(page);
      for (const label of ['Name', 'Email', 'Company', 'Phone (Optional)', 'Message (Optional)']) {
        expect(await dialog.getByLabel(label, { exact: true }).inputValue(), label).to.equal('');
      }
      expect(await dialog.getByRole('radio').count()).to.equal(0);
      // It holds links (the calendars, the room): it stays past the 5 s of other toasts, until dismissed.
      await page.waitForTimeout(5500);
      expect(await toast.isVisible(), 'still up after 5.5 s').to.equal(true);
      await toast.getByRole('button', { name: 'close' }).click();
      await toast.waitFor({ state: 'detached' });
      expect(problems).to.deep.equal([]);
    });

    for (const phone of [
      { label: 'a phone', options: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true } },
      { label: 'a 375 px window', options: { viewport: { width: 375, height: 667 } } },
    ]) {
      it(`shows the success message on ${phone.label} centred, under the top bar, the page's buttons usable beside it (artifacts/)`, async () => {
        const { page, problems } = await visit(phone.options);
        const dialog = await openDialog(page);
        await fillRequired(
          dialog,
          'Lea Brandt',
          `lea.${phone.options.viewport.height}@northwind-logistics.com`,
          'Northwind Logistics',
        );
        await chooseFirstBookableSlot(dialog);
        await dialog.getByRole('button', { name: 'Request Demo' }).click();
        const toast = page.getByRole('status').filter({ hasText: 'Demo Request Submitted' });
        await toast.waitFor();
        await dialog.waitFor({ state: 'hidden' });
        // Its title and first sentence are the specification's words; the lines after say with whom and how to join.
        expect(await toast.innerText()).to.match(
          /^Demo Request Submitted\n+Thank you! We'll contact you soon to schedule your demo\.\n+Booked for /,
        );
        await page.waitForFunction(() =>
          document.getAnimations().every((animation) => animation.playState !== 'running'),
        );
        await page.screenshot({
          path: path.join(ARTIFACTS, `success-message-375x${phone.options.viewport.height}.png`),
        });
        const box = (await toast.boundingBox())!;
        const width = phone.options.viewport.width;
        expect(
          Math.abs(box.x - (width - box.x - box.width)),
          'as far from the left edge as from the right',
        ).to.be.below(1);
        const topBar = (await page.locator('header').first().boundingBox())!;
        expect(box.y, 'below the top bar').to.be.at.least(topBar.y + topBar.height);
        // Every button and link of the top bar and the hero that is in sight is the element at its own centre: none
        // lies under the message.
        const covered = await page.evaluate(() =>
          Array.from(
            document.querySelectorAll(
              'header a, header button, #hero a, #hero button, main section:first-of-type a, main section:first-of-type button',
            ),
          )
            .filter((node) => {
              const rect = node.getBoundingClientRect();
              return rect.width > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
            })
            .filter((node) => {
              const rect = node.getBoundingClientRect();
              const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
              return !(hit && (node === hit || node.contains(hit)));
            })
            .map((node) => node.textContent?.trim() || node.getAttribute('aria-label')),
        );
        expect(covered, 'buttons under the message').to.deep.equal([]);
        await toast.getByRole('button', { name: 'close' }).click();
        await toast.waitFor({ state: 'detached' });
        expect(problems).to.deep.equal([]);
      });
    }

    it('keeps the dialog and the input when the server refuses, with its message under the field', async () => {
      const { page } = await visit();
      const dialog = await openDialog(page);
      await fillRequired(dialog, 'Ana Lima', 'ana@gmail.com', 'Northwind Logistics');
      await chooseFirstBookableSlot(dialog);
      await dialog.getByRole('button', { name: 'Request Demo' }).click();
      const toast = page.getByRole('alert').filter({ hasText: 'Error' });
      await toast.waitFor();
      expect(await toast.innerText()).to.include('Personal email addresses are not accepted');
      expect(await dialog.isVisible()).to.equal(true);
      expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ana Lima');
      expect(await dialog.getByLabel('Email', { exact: true }).inputValue()).to.equal('ana@gmail.com');
      expect(await dialog.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
      expect(
        await dialog
          .getByText('Please use your company email address. Personal email addresses are not accepted.')
          .count(),
      ).to.be.greaterThan(0);
      expect(await stack.db('bookings').where({ email: 'ana@gmail.com' }).count('* as n')).to.deep.equal([{ n: '0' }]);
      // The error state, toast included, is as accessible as the rest.
      expect(await axeViolations(page)).to.deep.equal([]);
    });

    it('shows the fallback message when the server fails without a body', async () => {
      const { page } = await visit();
      await page.route('**/api/demo-request', (route) => route.fulfill({ status: 503, body: '' }));
      const dialog = await openDialog(page);
      await fillRequired(dialog, 'Ana Lima', 'ana@northwind-logistics.com', 'Northwind Logistics');
      await chooseFirstBookableSlot(dialog);
      await dialog.getByRole('button', { name: 'Request Demo' }).click();
      const toast = page.getByRole('alert').filter({ hasText: 'Error' });
      await toast.waitFor();
      expect(await toast.innerText()).to.include('Failed to submit demo request');
      expect(await dialog.getByRole('button', { name: 'Request Demo' }).isEnabled()).to.equal(true);
      expect(await dialog.getByLabel('Company', { exact: true }).inputValue()).to.equal('Northwind Logistics');
    });

    it('says what is missing instead of sending an empty form', async () => {
      const { page } = await visit();
      let calls = 0;
      await page.route('**/api/demo-request', (route) => {
        calls += 1;
        return route.continue();
      });
      const dialog = await openDialog(page);
      await dialog.getByRole('button', { name: 'Request Demo' }).click();
      for (const message of [
        'Name is required.',
        'Email is required.',
        'Company is required.',
        'Please select a date and time.',
      ]) {
        expect(await dialog.getByText(message).isVisible(), message).to.equal(true);
      }
      expect(
        await dialog.getByLabel('Name', { exact: true }).evaluate((input) => input === document.activeElement),
      ).to.equal(true);
      expect(calls).to.equal(0);
    });

    it('can be booked with the keyboard alone', async () => {
      const { page } = await visit();
      await page.waitForLoadState('networkidle');
      const focusedText = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? '');
      for (let i = 0; i < 10 && (await focusedText()) !== 'Get Started'; i += 1) await page.keyboard.press('Tab');
      expect(await focusedText()).to.equal('Get Started');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Request Demo' });
      await dialog.getByLabel('Name', { exact: true }).waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'name');
      await page.keyboard.type('Kai Keyboard');
      await page.keyboard.press('Tab');
      await page.keyboard.type('kai@northwind-logistics.com');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Northwind Logistics');

      // Into the calendar: Tab reaches the enabled month buttons, then the first enabled day.
      // The calendar opens on the month of the first bookable day, and that day is the one Tab reaches.
      const { label } = firstBookableLabel();
      for (let i = 0; i < 6; i += 1) {
        await page.keyboard.press('Tab');
        const name = await page.evaluate(
          () => document.activeElement?.querySelector('abbr')?.getAttribute('aria-label') ?? null,
        );
        if (name) break;
      }
      // Only when today's last slot is the one left and the next weekday starts a new month.
      if ((await dayTile(dialog, label).count()) === 0) {
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Tab');
      }
      const focusedDay = () =>
        page.evaluate(() => document.activeElement?.querySelector('abbr')?.getAttribute('aria-label') ?? '');
      for (let i = 0; i < 31 && (await focusedDay()) !== label; i += 1) await page.keyboard.press('ArrowRight');
      expect(await focusedDay()).to.equal(label);
      await page.keyboard.press('Enter');
      expect(await dialog.getByRole('status').filter({ hasText: 'Selected' }).innerText()).to.match(/^Selected \w+, /);
      await slotsSettled(dialog);

      // Taken slots are disabled radios, which Tab and the arrow keys pass over.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).to.equal('radio');
      await page.keyboard.press('ArrowRight'); // the next free slot, checked as it gains focus
      const slot = await page.evaluate(() => (document.activeElement as HTMLInputElement).value);
      expect(await dialog.getByRole('radio', { checked: true }).inputValue()).to.equal(slot);
      await page.keyboard.press('Tab');
      await page.keyboard.type('+1 (212) 555-0199');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Booked without a mouse.');
      await page.keyboard.press('Tab');
      expect(await focusedText()).to.equal('Request Demo');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Demo Request Submitted' }).waitFor();
      await dialog.waitFor({ state: 'hidden' });
      expect(await focusedText()).to.equal('Get Started');
      const row = await stack.db('bookings').where({ email: 'kai@northwind-logistics.com' }).first();
      expect(row?.message).to.equal('Booked without a mouse.');
      expect(new Date(row?.time_slot as string).toISOString()).to.equal(slot);
    });

    it('shows one toast at a time for 5 s, F8 focuses the notifications, a swipe of about 50 px dismisses', async () => {
      const { page } = await visit();
      let answers = 0;
      await page.route('**/api/demo-request', (route) => {
        answers += 1;
        const details = answers === 1 ? 'First problem.' : 'Second problem.';
        return route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'Invalid request', details }),
        });
      });
      const dialog = await openDialog(page);
      await fillRequired(dialog, 'Ana Lima', 'ana@northwind-logistics.com', 'Northwind Logistics');
      await chooseFirstBookableSlot(dialog);
      const submit = dialog.getByRole('button', { name: 'Request Demo' });
      await submit.click();
      const first = page.locator('.Toastify__toast').filter({ hasText: 'First problem.' });
      await first.waitFor();
      await submit.click();
      await page.waitForTimeout(300);
      expect(answers).to.equal(2);
      expect(await page.locator('.Toastify__toast').count()).to.equal(1);
      await page.keyboard.press('F8');
      expect(await page.evaluate(() => document.activeElement?.closest('.Toastify') !== null)).to.equal(true);
      // It stays 5 s: its progress bar runs as long as the toast.
      expect(
        await first.locator('[role="progressbar"]').evaluate((bar) => getComputedStyle(bar).animationDuration),
      ).to.equal('5s');
      // A swipe to the right of about 50 px dismisses it; a shorter one does not.
      await page.waitForFunction(() => !document.querySelector('.Toastify__toast.Toastify--animate'));
      const swipe = async (distance: number) => {
        const box = await first.boundingBox();
        if (!box) throw new Error('no toast on screen');
        await page.mouse.move(box.x + 40, box.y + box.height / 2);
        await page.mouse.down();
        for (let step = 1; step <= 5; step += 1)
          await page.mouse.move(box.x + 40 + (distance * step) / 5, box.y + box.height / 2);
        await page.mouse.up();
      };
      await swipe(30);
      await page.waitForTimeout(400);
      expect(await first.count()).to.equal(1);
      await swipe(70);
      await first.waitFor({ state: 'detached' });
      // The second toast waited its turn.
      await page.locator('.Toastify__toast').filter({ hasText: 'Second problem.' }).waitFor();
    });

    it('keeps a toast for its 5 s with reduced motion too', async () => {
      const { page } = await visit({ reducedMotion: 'reduce' });
      await page.route('**/api/demo-request', (route) =>
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'Invalid request', details: 'A problem.' }),
        }),
      );
      const dialog = await openDialog(page);
      await fillRequired(dialog, 'Ana Lima', 'ana@northwind-logistics.com', 'Northwind Logistics');
      await chooseFirstBookableSlot(dialog);
      await dialog.getByRole('button', { name: 'Request Demo' }).click();
      const toast = page.locator('.Toastify__toast').filter({ hasText: 'A problem.' });
      await toast.waitFor();
      await page.waitForTimeout(1500);
      expect(await toast.count(), 'the toast 1.5 s later').to.equal(1);
      expect(
        await toast.locator('[role="progressbar"]').evaluate((bar) => getComputedStyle(bar).animationDuration),
      ).to.equal('5s');
    });

    it('has no accessibility violations when open (axe-core), and fits a desktop and a phone (screenshots)', async () => {
      const { page } = await visit({ viewport: { width: 1440, height: 1000 } });
      const dialog = await openDialog(page);
      await fillRequired(dialog, 'Ana Lima', 'ana@northwind-logistics.com', 'Northwind Logistics');
      await dialog.getByLabel('Phone (Optional)', { exact: true }).focus();
      const emailOk = dialog.getByRole('img', { name: 'Email address looks good' });
      await emailOk.waitFor();
      await chooseFirstBookableSlot(dialog);
      const chosen = dialog.getByRole('radio', { checked: true });
      // The dialog on screen with its title, its way out, the e-mail tick and the chosen time, nothing covering them.
      for (const [name, part] of [
        ['dialog', dialog],
        ['title', dialog.getByRole('heading', { name: 'Request Demo' })],
        ['Close', dialog.getByRole('button', { name: 'Close' })],
        ['e-mail tick', emailOk],
        ['chosen time', chosen],
      ] as const) {
        expect(await inViewUncovered(part), `${name} at 1440px`).to.deep.equal(SHOWN);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, 'modal-1440.png') });
      expect(await axeViolations(page)).to.deep.equal([]);

      await page.setViewportSize({ width: 375, height: 812 });
      expect(
        await dialog.evaluate((panel) => panel.scrollWidth - panel.clientWidth),
        'horizontal overflow of the dialog at 375px',
      ).to.equal(0);
      for (const [name, part] of [
        ['dialog', dialog],
        ['title', dialog.getByRole('heading', { name: 'Request Demo' })],
        ['Close', dialog.getByRole('button', { name: 'Close' })],
      ] as const) {
        expect(await inViewUncovered(part), `${name} at 375px`).to.deep.equal(SHOWN);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, 'modal-375.png') });
      // On a phone the times are stacked under the calendar; the dialog scrolls to the chosen one.
      await chosen.scrollIntoViewIfNeeded();
      expect(await inViewUncovered(chosen), 'chosen time at 375px').to.deep.equal(SHOWN);
      await page.screenshot({ path: path.join(ARTIFACTS, 'modal-375-times.png') });
    });

    it('keeps Request Demo in sight on a laptop screen and a phone, no focused control under it, and books with it there (screenshots)', async () => {
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 1280, height: 800 },
        { width: 375, height: 812 },
      ]) {
        const at = `${viewport.width}x${viewport.height}`;
        const { page } = await visit({ viewport });
        const dialog = await openDialog(page);
        const email = `mara.${viewport.width}@northwind-logistics.com`;
        await fillRequired(dialog, 'Mara Quell', email, 'Northwind Logistics');
        const slot = await chooseFirstBookableSlot(dialog);
        const submit = dialog.getByRole('button', { name: 'Request Demo' });
        expect(await inViewUncovered(submit), `Request Demo at ${at}`).to.deep.equal(SHOWN);
        await page.screenshot({ path: path.join(ARTIFACTS, `modal-${at}-chosen.png`) });

        // Tab from Name round to Close: each control the focus reaches is in sight, none under the action bar.
        await dialog.getByLabel('Name', { exact: true }).focus();
        const reached: string[] = [];
        for (let i = 0; i < 12 && reached.at(-1) !== 'Close'; i += 1) {
          await page.keyboard.press('Tab');
          const focused = dialog.locator(':focus');
          const name = await focused.evaluate(
            (element) =>
              element.getAttribute('aria-label') ??
              element.querySelector('abbr')?.getAttribute('aria-label') ??
              (element as HTMLInputElement).labels?.[0]?.innerText.replace(/\s+/g, ' ') ??
              element.textContent ??
              '',
          );
          reached.push(name);
          expect(await inViewUncovered(focused), `${name} focused at ${at}`).to.deep.equal(SHOWN);
        }
        expect(reached.slice(0, 2), `Tab order at ${at}`).to.deep.equal(['Email', 'Company']);
        expect(reached.slice(-5, -4)[0], `the chosen time before Phone at ${at}`).to.match(/^\d\d:00 /);
        expect(reached.slice(-4), `Tab order at ${at}`).to.deep.equal([
          'Phone (Optional)',
          'Message (Optional)',
          'Request Demo',
          'Close',
        ]);
        if (viewport.width < 640) continue;

        // Pressed where it is, with the mouse at its centre and nothing scrolled to it first.
        expect(await inViewUncovered(submit), `Request Demo at ${at}, the dialog at its top`).to.deep.equal(SHOWN);
        const box = (await submit.boundingBox())!;
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        await page.getByRole('status').filter({ hasText: 'Demo Request Submitted' }).waitFor();
        await dialog.waitFor({ state: 'hidden' });
        const row = await stack.db('bookings').where({ email }).first();
        expect(new Date(row?.time_slot as string).toISOString(), `booked at ${at}`).to.equal(slot);
      }
    });
  });

  describe('legal pages', () => {
    it('each legal link in the footer leads to its page: status 200, its h1, no script, the same footer', async () => {
      const { page, problems } = await visit();
      const foreign: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(stack.url)) foreign.push(request.url());
      });
      const footerLinks = () =>
        page.getByRole('contentinfo').getByRole('navigation', { name: 'Legal' }).getByRole('link');
      expect(await footerLinks().allInnerTexts()).to.deep.equal(brand.legalLinks.map((link) => link.label));
      for (const { label, href } of brand.legalLinks) {
        await page.goto(stack.url);
        const answered = page.waitForResponse(
          (response) => response.request().isNavigationRequest() && new URL(response.url()).pathname === href,
        );
        await footerLinks().filter({ hasText: label }).click();
        const response = await answered;
        expect(response.status(), href).to.equal(200);
        expect(response.headers()['cache-control'], href).to.equal('no-cache');
        await page.waitForURL(stack.url + href);
        expect(await page.getByRole('heading', { level: 1 }).allInnerTexts(), href).to.deep.equal([label]);
        expect(await page.title()).to.equal(`${label} | ${brand.product}`);
        expect(await page.locator('html').getAttribute('lang')).to.equal('en');
        expect(await page.locator('meta[name="description"]').getAttribute('content')).to.have.length.greaterThan(40);
        expect(await page.locator('script').count(), 'scripts on a legal page').to.equal(0);
        expect(
          await page
            .getByRole('banner')
            .getByRole('link', { name: `${brand.product} home` })
            .getAttribute('href'),
        ).to.equal('/');
        expect(await page.getByRole('main').innerText()).to.include(brand.parentProvider);
        expect(await footerLinks().allInnerTexts(), 'footer as on the landing page').to.deep.equal(
          brand.legalLinks.map((link) => link.label),
        );
      }
      expect(await page.getByRole('main').innerText()).to.include('This site sets no cookies');
      expect(problems).to.deep.equal([]);
      expect(foreign).to.deep.equal([]);
    });

    it('has no accessibility violations (axe-core), and fits a phone (screenshot in artifacts/)', async () => {
      const { page } = await visit({ viewport: { width: 375, height: 812 } }, '/legal/privacy');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Privacy Policy');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).to.equal(0);
      expect(await inViewUncovered(page.getByRole('heading', { level: 1 })), 'h1 at 375px').to.deep.equal(SHOWN);
      await page.screenshot({ path: path.join(ARTIFACTS, 'legal-privacy-375.png'), fullPage: true });
      expect(await axeViolations(page)).to.deep.equal([]);
    });
  });

  describe('404 page', () => {
    it('answers any other path with status 404 and the 404 page', async () => {
      const response = await fetch(`${stack.url}/pricing/enterprise`);
      expect(response.status).to.equal(404);
      const { page, problems } = await visit({}, '/pricing/enterprise');
      expect(await page.title()).to.equal('404 Page Not Found');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('404 Page Not Found');
      expect(await page.getByText(/add the page to the router/).isVisible()).to.equal(true);
      expect(await page.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).to.equal('/');
      expect(await axeViolations(page)).to.deep.equal([]);
      expect(problems.filter((problem) => !problem.includes('404'))).to.deep.equal([]);
    });
  });
});
