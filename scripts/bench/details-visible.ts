/**
 * How soon a booking's manage page shows the booking, as a visitor from the e-mail's "Reschedule or cancel" link sees
 * it: each run a fresh browser context (nothing cached), the page opened, and the time from the navigation's start to
 * the first frame in which the booking's details (its status, when and who) are on the screen. Also the script bytes
 * the page fetched in the five seconds after its load with nobody touching it: what a visitor pays before their first
 * interaction.
 */
import type { Page } from 'playwright-core';
import { inFreshContexts, median } from './click-to-typing.js';

export interface DetailsVisible {
  /** Milliseconds from the navigation's start to the details on screen, one per run. */
  runs: number[];
  median: number;
  /** Script bytes (as sent, compressed) fetched before any interaction, in the last run. */
  scriptBytes: number;
  /** Bytes of script written into the page itself (uncompressed; they travel in the HTML). */
  inlineScriptBytes: number;
}

/** How long the page is left alone after its load event before its scripts are counted. */
export const IDLE_MS = 5000;

declare global {
  interface Window {
    /** The milliseconds from the navigation's start to the frame that first showed the details (WATCH_DETAILS). */
    detailsVisible?: Promise<number>;
  }
}

/**
 * Runs in the page before its own scripts: checks each frame for the details list with its status and time, laid out.
 * Plain JavaScript in a string, as the page runs it: a function given to Playwright would carry what tsx compiles in.
 */
const WATCH_DETAILS = `
window.detailsVisible = new Promise((resolve) => {
  const check = (now) => {
    const list = document.querySelector('main dl');
    const text = list ? list.textContent : '';
    if (list && list.getBoundingClientRect().height > 0 && /Status/.test(text) && /When/.test(text)) return resolve(now);
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
});`;

async function oneRun(
  page: Page,
  url: string,
): Promise<{ ms: number; scriptBytes: number; inlineScriptBytes: number }> {
  await page.addInitScript({ content: WATCH_DETAILS });
  const scripts: Promise<number>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'script')
      scripts.push(request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize));
  });
  await page.goto(url, { waitUntil: 'load' });
  const ms = await page.evaluate(() => window.detailsVisible);
  if (ms === undefined) throw new Error('the page was not watched');
  await page.waitForTimeout(IDLE_MS);
  const bytes = await Promise.all(scripts);
  // Scripts the page runs from its own HTML (not data blocks, which have a type, nor files).
  const inlineScriptBytes = await page.evaluate(() =>
    Array.from(document.querySelectorAll('script:not([src]):not([type])')).reduce(
      (sum, script) => sum + new Blob([script.textContent ?? '']).size,
      0,
    ),
  );
  return { ms, scriptBytes: bytes.reduce((sum, size) => sum + size, 0), inlineScriptBytes };
}

/** `runs` fresh contexts at 1440 x 900, the CPU slowed `cpuSlowdown` times (1: as is); the script bytes of the last. */
export async function detailsVisible(url: string, runs: number, cpuSlowdown: number): Promise<DetailsVisible> {
  const results = await inFreshContexts(runs, cpuSlowdown, (page) => oneRun(page, url));
  const figures = results.map((run) => run.ms);
  const last = results.at(-1);
  return {
    runs: figures,
    median: median(figures),
    scriptBytes: last?.scriptBytes ?? NaN,
    inlineScriptBytes: last?.inlineScriptBytes ?? NaN,
  };
}
