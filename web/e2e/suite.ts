/** What every browser suite shares: the built site, the real stack and one Chromium, started once per suite. */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { startStack, type Stack, type StackOptions } from '../../test/stack.js';
import { launchBrowser, openPage, type WatchedPage } from './browser.js';

export const WEB_ROOT = path.resolve('dist/web');
/** Screenshots the suites save for people to look at. */
export const ARTIFACTS = path.resolve('artifacts');

/** Opens `pathname` of the stack's site in a fresh browser context with `options`, closed after the test. */
export type Visit = (options?: BrowserContextOptions, pathname?: string) => Promise<WatchedPage>;

/**
 * Registers the suite's hooks: before it, the production build is checked (`page` must exist in it) and the stack
 * and the browser start, handed to `started`; after each test the pages it opened (pushed onto `open`, as `visit`
 * does) close; after the suite both stop. Returns the suite's `visit`.
 */
export function useBrowserSuite(
  open: WatchedPage[],
  started: (parts: { stack: Stack; browser: Browser }) => void,
  options: { page?: string; stack?: StackOptions } = {},
): Visit {
  let parts: { stack: Stack; browser: Browser } | undefined;
  before(async function () {
    this.timeout(90_000);
    const page = options.page ?? 'index.html';
    if (!existsSync(path.join(WEB_ROOT, page)))
      throw new Error(`No production build (${page}): run \`npm run build:web\` first.`);
    mkdirSync(ARTIFACTS, { recursive: true });
    const [stack, browser] = await Promise.all([startStack(options.stack), launchBrowser()]);
    parts = { stack, browser };
    started(parts);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((watched) => watched.close()));
  });
  after(async function () {
    this.timeout(30_000);
    await parts?.browser.close();
    await parts?.stack.close();
  });
  return async (options = {}, pathname = '/') => {
    if (!parts) throw new Error('visit() before the suite started');
    const watched = await openPage(parts.browser, options);
    open.push(watched);
    await watched.page.goto(parts.stack.url + pathname);
    return watched;
  };
}
