/** One Debian Chromium per test run, driven by playwright-core; pages record what the console says. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps trying hosts this machine cannot reach.
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

export interface WatchedPage {
  page: Page;
  /** console.error / console.warn messages and uncaught errors seen so far. */
  problems: string[];
  /** What the Content-Security-Policy blocked so far: the console's reports and the page's securitypolicyviolation events. */
  cspViolations(): Promise<string[]>;
  close(): Promise<void>;
}

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Runs before any script of the page, through the DevTools protocol, which the page's CSP does not govern. */
function recordCspViolations(): void {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations?.push(
      `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}: ${event.sample}`,
    );
  });
}

export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  await page.addInitScript(recordCspViolations);
  const problems: string[] = [];
  const cspConsole: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
    if (message.text().includes('Content Security Policy')) cspConsole.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  const cspViolations = async () => {
    // A page that is gone (closed, or navigated away) has nothing more to say; what the console said still counts.
    const events = await page.evaluate(() => window.__cspViolations ?? []).catch(() => []);
    return [...cspConsole, ...events];
  };
  return { page, problems, cspViolations, close: () => context.close() };
}

const require = createRequire(import.meta.url);
const AXE_SOURCE_PATH = require.resolve('axe-core/axe.min.js');
const AXE_SOURCE = readFileSync(AXE_SOURCE_PATH, 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core in the page. It is evaluated through the DevTools protocol: page.addScriptTag would add an inline
 * script, which the site's CSP (script-src 'self') rightly blocks, and bypassing the CSP would test another page.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(document);
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  });
}
