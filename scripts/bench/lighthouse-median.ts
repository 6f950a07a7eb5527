/** Lighthouse (mobile defaults, simulated throttling) run several times on one page in Debian's Chromium. */
import lighthouse, { type RunnerResult } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../web/e2e/browser.js';
import { freePort } from '../dev-services/ports.js';

export interface LighthouseFigures {
  /** Largest Contentful Paint of each run, in ms. */
  lcp: number[];
  medianLcp: number;
  medianTbt: number;
  medianScore: number;
  /** Script bytes transferred while the page loaded, in the median run (by score). */
  scriptBytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

export async function medianLighthouse(url: string, runs: number): Promise<LighthouseFigures> {
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`],
  });
  try {
    const results: RunnerResult[] = [];
    // A run Lighthouse itself could not measure (NO_NAVSTART on a busy machine, say) is run again, up to twice the count.
    for (let attempt = 0; results.length < runs && attempt < runs * 2; attempt += 1) {
      const result = await lighthouse(url, { port, logLevel: 'error', onlyCategories: ['performance'] });
      if (!result) throw new Error('Lighthouse returned no result');
      if (!result.lhr.runtimeError) results.push(result);
    }
    if (results.length === 0) throw new Error('Lighthouse could not measure the page in any run');
    const lcp = results.map((result) => result.lhr.audits['largest-contentful-paint']?.numericValue ?? NaN);
    const scores = results.map((result) => Math.round((result.lhr.categories.performance?.score ?? 0) * 100));
    const middle = [...results].sort(
      (a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0),
    )[Math.floor((results.length - 1) / 2)]!;
    const requests =
      (
        middle.lhr.audits['network-requests']?.details as
          { items?: { resourceType?: string; transferSize?: number }[] } | undefined
      )?.items ?? [];
    return {
      lcp,
      medianLcp: median(lcp),
      medianTbt: median(results.map((result) => result.lhr.audits['total-blocking-time']?.numericValue ?? NaN)),
      medianScore: median(scores),
      scriptBytes: requests
        .filter((request) => request.resourceType === 'Script')
        .reduce((sum, request) => sum + (request.transferSize ?? 0), 0),
    };
  } finally {
    await browser.close();
  }
}
