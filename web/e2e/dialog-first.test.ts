/**
 * The Request Demo dialog before its code has come (issue 41): prerendered in the landing page, opened by the few
 * hundred bytes of script in the page's head, its fields taking typing at once; then hydrated by its code, which keeps
 * what was typed, the focus and the caret. The dialog's code is held back with Playwright's routing.
 * Needs the production build: `npm run build:web`.
 */
import { expect } from 'chai';
import type { Browser, Page, Route } from 'playwright-core';
import type { Stack } from '../../test/stack.js';
import { axeViolations, openPage, type WatchedPage } from './browser.js';
import { chooseFirstBookableSlot } from './dialog.js';
import { useBrowserSuite } from './suite.js';

let stack: Stack;
let browser: Browser;
const open: WatchedPage[] = [];
useBrowserSuite(open, (started) => ({ stack, browser } = started));

/** Every script file the page may ask for: the dialog's entry, React, its chunks. */
const SCRIPT_FILE = /\/assets\/[\w-]+\.[0-9a-f]{12}\.js$/;

/** Holds every request for a script file until `release` is called; `requested` counts those held so far. */
async function holdScripts(page: Page): Promise<{ release: () => void; requested: () => number }> {
  const held: Route[] = [];
  let released = false;
  await page.route(SCRIPT_FILE, async (route) => {
    if (released) return route.continue();
    held.push(route);
  });
  return {
    release: () => {
      released = true;
      for (const route of held.splice(0)) void route.continue();
    },
    requested: () => held.length,
  };
}

async function freshPage(): Promise<WatchedPage> {
  const watched = await openPage(browser, { viewport: { width: 1440, height: 900 } });
  open.push(watched);
  return watched;
}

const heroLink = (page: Page) => page.locator('#hero-title').locator('..').getByRole('link', { name: 'Request Demo' });
const demoDialog = (page: Page) => page.getByRole('dialog', { name: 'Request Demo' });

/** The focused element's name attribute and its caret (selection start and end). */
const focusAndCaret = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement
      ? { name: active.name, start: active.selectionStart, end: active.selectionEnd }
      : { name: active?.tagName ?? null, start: null, end: null };
  });

describe('the Request Demo dialog before its code', function () {
  this.timeout(60_000);

  it('opens from the link at the load event, before any script file, takes typing, and Escape gives focus back', async () => {
    const { page, problems } = await freshPage();
    await holdScripts(page);
    await page.goto(stack.url, { waitUntil: 'load' });
    const link = heroLink(page);
    expect(await link.getAttribute('href'), 'a real link, for a visitor without script').to.equal('/book');
    await link.click();
    const dialog = demoDialog(page);
    await dialog.waitFor();
    const name = dialog.getByLabel('Name', { exact: true });
    expect(await name.evaluate((input) => input === document.activeElement)).to.equal(true);
    await page.keyboard.type('Ada');
    expect(await name.inputValue()).to.equal('Ada');
    expect(await page.url()).to.equal(`${stack.url}/`);
    // Where the calendar will be, a line says it is coming: never an empty panel.
    expect(await dialog.getByRole('status').filter({ hasText: 'Loading available times…' }).isVisible()).to.equal(true);
    const beforeLoad = await page.evaluate(() => {
      const load = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < load && /\.js($|\?)/.test(new URL(entry.name).pathname))
        .map((entry) => entry.name);
    });
    expect(beforeLoad, 'script files asked for before the load event').to.deep.equal([]);
    expect(await page.evaluate(() => 'convergeDemoIsland' in window), 'open with none of its code run').to.equal(false);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await link.evaluate((element) => element === document.activeElement), 'focus back on the link').to.equal(
      true,
    );
    // Opened again, the form holds what was typed.
    await link.click();
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ada');
    expect(problems).to.deep.equal([]);
  });

  it('is still under the pointer when the typeface arrives after the load event', async () => {
    // The landing page asks for Inter after its first paint (font-loading.ts), so the swap can come just as a visitor
    // presses the link: a fallback without Inter's metrics moved the hero's link by a line, and the press missed it.
    const { page, problems } = await freshPage();
    const held: Route[] = [];
    let released = false;
    await page.route(/\/assets\/inter-[\w-]+\.[0-9a-f]+\.woff2$/, async (route) => {
      if (released) return route.continue();
      held.push(route);
    });
    await page.goto(stack.url, { waitUntil: 'load' });
    const link = heroLink(page);
    const before = await link.boundingBox();
    const fallback = await page.evaluate(
      () =>
        [...document.fonts].filter((face) => face.family.startsWith('Inter Fallback') && face.status === 'loaded')
          .length,
    );
    expect(fallback, "a metric-matched fallback face found on this machine's fonts").to.be.greaterThan(0);
    released = true;
    for (const route of held.splice(0)) await route.continue();
    await page.locator('html:not(.font-later)').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => document.fonts.check('800 16px "Inter Variable"'))).to.equal(true);
    const after = await link.boundingBox();
    if (!before || !after) throw new Error('the hero has no Request Demo link in view');
    expect(Math.abs(after.y - before.y), 'the link moved up or down by').to.be.below(4);
    const aimed = { x: before.x + before.width / 2, y: before.y + before.height / 2 };
    expect(aimed.x, 'the point aimed at before the swap, still on the link').to.be.within(
      after.x,
      after.x + after.width,
    );
    expect(aimed.y).to.be.within(after.y, after.y + after.height);
    await page.mouse.click(aimed.x, aimed.y);
    await demoDialog(page).waitFor();
    expect(problems).to.deep.equal([]);
  });

  it('has no accessibility violations while open before its code (axe-core)', async () => {
    const { page } = await freshPage();
    await holdScripts(page);
    await page.goto(stack.url, { waitUntil: 'load' });
    await heroLink(page).click();
    await demoDialog(page).waitFor();
    expect(await axeViolations(page)).to.deep.equal([]);
  });

  it('keeps what was typed, the focus and the caret when its code arrives, then books', async () => {
    const { page, problems } = await freshPage();
    const scripts = await holdScripts(page);
    await page.goto(stack.url, { waitUntil: 'load' });
    await heroLink(page).click();
    const dialog = demoDialog(page);
    await page.keyboard.type('Grace Hopper');
    await dialog.getByLabel('Email', { exact: true }).fill('grace@cobol-systems.com');
    const company = dialog.getByLabel('Company', { exact: true });
    await company.click();
    await page.keyboard.type('COBOL Systems');
    // The caret put between "COBOL" and " Systems", and the field marked, to tell it from a new one.
    for (let i = 0; i < ' Systems'.length; i += 1) await page.keyboard.press('ArrowLeft');
    await company.evaluate((input) => Object.assign(input, { typedBeforeScript: true }));
    const before = await focusAndCaret(page);
    expect(before).to.deep.equal({ name: 'company', start: 5, end: 5 });
    await page.waitForFunction(() => document.querySelector('meta[name="demo-code"]') !== null);
    // The page asks for the dialog's code once it is idle after its load; it is held until now.
    for (let i = 0; i < 100 && scripts.requested() === 0; i += 1) await page.waitForTimeout(50);
    expect(scripts.requested(), "the dialog's code asked for").to.be.greaterThan(0);
    scripts.release();

    // Hydrated: the calendar joins the form.
    await dialog.getByRole('button', { name: 'Next month' }).waitFor();
    expect(await focusAndCaret(page)).to.deep.equal(before);
    expect(await company.evaluate((input) => 'typedBeforeScript' in input), 'the same field, not a new one').to.equal(
      true,
    );
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Grace Hopper');
    expect(await dialog.getByLabel('Email', { exact: true }).inputValue()).to.equal('grace@cobol-systems.com');
    expect(await company.inputValue()).to.equal('COBOL Systems');
    // The next key goes where the caret was, and the form, now React's, holds it.
    await page.keyboard.type(' Data');
    expect(await company.inputValue()).to.equal('COBOL Data Systems');
    // The address left before the code came is checked now.
    await dialog.getByRole('status').filter({ hasText: 'Email address looks good' }).waitFor();

    await chooseFirstBookableSlot(dialog);
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await page.getByRole('status').filter({ hasText: 'Demo Request Submitted' }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // Hydrated as prerendered: React would say so had it had to render the dialog anew.
    expect(problems).to.deep.equal([]);
    const rows = await stack.db('bookings').where({ email: 'grace@cobol-systems.com' }).select('name', 'company');
    expect(rows).to.deep.equal([{ name: 'Grace Hopper', company: 'COBOL Data Systems' }]);
  });
});
