/**
 * How soon the Request Demo form takes typing after a click, as a visitor who clicks the hero's Request Demo link
 * without scrolling: each run a fresh browser context at 1440 x 900 (nothing cached), the page loaded, then a click
 * on the hero's link, either at once (at the load event: a visitor who came to book) or after READING_MS of reading.
 * The figure is the time from the click event to the moment the dialog's first field has focus and the page's main
 * thread is free to take a key (a task posted once focus is there has run). A key is then typed into the field to
 * check it arrives. Each run also tells which script files the page asked for before its load event. A click that
 * lands beside the link (the link moved between being found and being pressed) fails the run at once, naming what it hit.
 */
import { chromium, type Page } from 'playwright-core';
import { DEMO_TRIGGER_ATTRIBUTE } from '../../web/components/demo-trigger-attribute.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../web/e2e/browser.js';

/** What a visitor spends on the hero before clicking: the headline and the line below it. */
export const READING_MS = 2000;

export interface ClickToTyping {
  /** Milliseconds from the click to a first field that takes typing, one per run. */
  runs: number[];
  median: number;
  /** The script files asked for before the page's load event, in any run (paths). */
  scriptsBeforeLoad: string[];
}

/** The middle of the runs (the lower of the two middle ones for an even count). */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

declare global {
  interface Window {
    /** The milliseconds from the page's first click to a field that takes typing (WATCH_CLICK_TO_TYPING). */
    clickToTyping?: Promise<number>;
  }
}

/**
 * Runs in the page before its own scripts: times its first click to a dialog's field that takes typing. Plain JavaScript
 * in a string, as the page runs it: a function given to Playwright would carry what tsx compiles into it (__name).
 */
const WATCH_CLICK_TO_TYPING = `
window.clickToTyping = new Promise((resolve, reject) => {
  document.addEventListener('click', (click) => {
    // A press beside the link (it moved between being found and being pressed: the typeface's swap did, with a
    // fallback of other metrics) opens nothing, and would otherwise be waited on for good.
    if (!(click.target instanceof Element && click.target.closest('[${DEMO_TRIGGER_ATTRIBUTE}]'))) {
      const target = click.target instanceof Element ? click.target.outerHTML.slice(0, 80) : String(click.target);
      reject(new Error('the click at ' + click.clientX + ',' + click.clientY + ' missed the Request Demo link: it hit ' + target));
      return;
    }
    const check = () => {
      const field = document.activeElement;
      if (field instanceof HTMLInputElement && field.closest('dialog:modal form')) {
        // Focus is there; a key is handled as soon as the main thread is free, which a task posted now shows.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now() - click.timeStamp);
        channel.port2.postMessage(null);
        return;
      }
      requestAnimationFrame(check);
    };
    check();
  }, { capture: true, once: true });
});`;

async function oneRun(
  page: Page,
  url: string,
  afterLoadMs: number,
): Promise<{ ms: number; scriptsBeforeLoad: string[] }> {
  await page.addInitScript({ content: WATCH_CLICK_TO_TYPING });
  await page.goto(url, { waitUntil: 'load' });
  if (afterLoadMs > 0) await page.waitForTimeout(afterLoadMs);
  // Taken now: the page's font comes after its first paint and may move the link a little.
  const link = page.locator('main').getByRole('link', { name: 'Request Demo' }).first();
  const box = await link.boundingBox();
  if (!box) throw new Error('the hero has no Request Demo link in view');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
  const ms = await page.evaluate(() =>
    Promise.race([
      window.clickToTyping,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no field took focus in 10 s')), 10_000)),
    ]),
  );
  if (ms === undefined) throw new Error('the page was not watched');
  await page.keyboard.type('A');
  const typed = await page.getByRole('dialog').getByRole('textbox').first().inputValue();
  if (typed !== 'A') throw new Error(`the first field took "${typed}" where "A" was typed`);
  const scriptsBeforeLoad = await page.evaluate(() => {
    const load = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.startTime < load && new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => new URL(entry.name).pathname);
  });
  return { ms, scriptsBeforeLoad };
}

/**
 * `run` in `runs` fresh browser contexts one after another (nothing cached), at 1440 x 900, the CPU slowed
 * `cpuSlowdown` times (1: as is); its results in order.
 */
export async function inFreshContexts<T>(
  runs: number,
  cpuSlowdown: number,
  run: (page: Page) => Promise<T>,
): Promise<T[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const results: T[] = [];
    for (let i = 0; i < runs; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      if (cpuSlowdown !== 1) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
      }
      results.push(await run(page));
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
  }
}

/**
 * `runs` fresh contexts at 1440 x 900, the CPU slowed `cpuSlowdown` times (1: as is), the click `afterLoadMs` after
 * the page's load event (0: at it).
 */
export async function clickToTyping(
  url: string,
  runs: number,
  cpuSlowdown: number,
  afterLoadMs: number,
): Promise<ClickToTyping> {
  const results = await inFreshContexts(runs, cpuSlowdown, (page) => oneRun(page, url, afterLoadMs));
  const figures = results.map((result) => result.ms);
  return {
    runs: figures,
    median: median(figures),
    scriptsBeforeLoad: [...new Set(results.flatMap((result) => result.scriptsBeforeLoad))],
  };
}
