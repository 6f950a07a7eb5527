/**
 * Section 5 of `npm run bench`: the landing page (Lighthouse mobile, median of 5, and the Request Demo link's click to
 * a form field that takes typing, click-to-typing.ts), then a booking's manage page (Lighthouse and its details on
 * screen, details-visible.ts); with --before-web, a second API serving an older build of the site first.
 */
import os from 'node:os';
import path from 'node:path';
import { bookingBodies } from './bodies.js';
import { DIST } from './built-stack.js';
import { start, waitUntil } from './processes.js';
import type { BenchRun } from './run.js';
import type { BuiltStack } from './built-stack.js';

export async function landingPageSection(
  bench: BenchRun,
  stack: BuiltStack,
  slots: readonly string[],
  /** --before-web: a site built in this folder, measured first. */
  beforeWeb: string | undefined,
): Promise<void> {
  const { say } = bench;
  const sites = [{ label: 'this build', url: stack.api }];
  if (beforeWeb) {
    const beforePort = stack.apiPort + 1;
    start([path.join(DIST, 'api', 'main.js')], {
      ...stack.env,
      PORT: String(beforePort),
      WEB_ROOT: path.resolve(beforeWeb),
    });
    const before = `http://127.0.0.1:${beforePort}`;
    await waitUntil(
      () =>
        fetch(`${before}/readyz`).then(
          (response) => response.ok,
          () => false,
        ),
      'the second API to be ready',
    );
    sites.unshift({ label: `the build in ${beforeWeb}`, url: before });
  }
  const { medianLighthouse } = await import('./lighthouse-median.js');
  const { clickToTyping, READING_MS } = await import('./click-to-typing.js');
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const spread = (figures: { runs: number[]; median: number }) =>
    `median ${figures.median.toFixed(0)} ms (${Math.min(...figures.runs).toFixed(0)}–${Math.max(...figures.runs).toFixed(0)}: ${figures.runs.map((ms) => ms.toFixed(0)).join(', ')})`;
  const mark = (met: boolean) => (met ? 'met' : 'NOT met');
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' / ');
  say(
    `\n5. The landing page: Lighthouse mobile (simulated throttling), 5 runs; the hero's Request Demo clicked at the load event and ${READING_MS} ms after it, 5 fresh contexts at 1440 x 900 each`,
  );
  for (const site of sites) {
    say(`  ${site.label} (load average over 1 / 5 / 15 min before: ${load()}):`);
    const clicks = [
      { label: 'desktop, at the load event', slowdown: 1, after: 0, goal: 100 },
      { label: `desktop, ${READING_MS / 1000} s after it`, slowdown: 1, after: READING_MS, goal: 100 },
      { label: 'CPU 4x slower, at the load event', slowdown: 4, after: 0, goal: 300 },
      { label: `CPU 4x slower, ${READING_MS / 1000} s after it`, slowdown: 4, after: READING_MS, goal: 300 },
    ];
    const scriptsBeforeLoad = new Set<string>();
    for (const click of clicks) {
      const figures = await clickToTyping(`${site.url}/`, 5, click.slowdown, click.after);
      for (const script of figures.scriptsBeforeLoad) scriptsBeforeLoad.add(script);
      say(
        `    click to typing, ${click.label}: ${spread(figures)} (goal <= ${click.goal} ms: ${mark(figures.median <= click.goal)})`,
      );
    }
    say(
      `    script files fetched before the load event, in any of those runs: ${scriptsBeforeLoad.size === 0 ? 'none' : [...scriptsBeforeLoad].join(', ')} (goal: none: ${mark(scriptsBeforeLoad.size === 0)})`,
    );
    const median = await medianLighthouse(`${site.url}/`, 5);
    say(
      `    LCP ${median.lcp.map(seconds).join(', ')}: median ${seconds(median.medianLcp)} (goal <= 0.80 s: ${mark(median.medianLcp <= 800)})`,
    );
    say(
      `    TBT median ${median.medianTbt.toFixed(0)} ms (goal <= 200 ms: ${mark(median.medianTbt <= 200)}); performance score median ${median.medianScore}`,
    );
    say(
      `    JavaScript transferred while Lighthouse watched the page (whatever came after its load event too): ${(median.scriptBytes / 1024).toFixed(1)} KB`,
    );
    say(`    load average after: ${load()}`);
  }

  // A booking's manage page, opened from its e-mail's link: one booking, made through the API, seen by every site.
  const { detailsVisible, IDLE_MS } = await import('./details-visible.js');
  const booked = await fetch(`${stack.api}/api/demo-request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: bookingBodies(slots, bench.run)(),
  });
  if (booked.status !== 201)
    throw new Error(`the manage page's booking was refused: ${booked.status} ${await booked.text()}`);
  const token = /^\/api\/bookings\/([^/]+)\//.exec(((await booked.json()) as { invitePath: string }).invitePath)?.[1];
  if (!token) throw new Error("the booking's answer names no manage page");
  say(
    `\n5b. A booking's manage page (/booking/{token}): Lighthouse mobile (simulated throttling), 5 runs; the details on screen, 5 fresh contexts at 1440 x 900`,
  );
  for (const site of sites) {
    const url = `${site.url}/booking/${token}`;
    const desktop = await detailsVisible(url, 5, 1);
    const slowed = await detailsVisible(url, 5, 4);
    const median = await medianLighthouse(url, 5);
    say(`  ${site.label}:`);
    say(`    LCP ${median.lcp.map(seconds).join(', ')}: median ${seconds(median.medianLcp)} (goal <= 0.80 s)`);
    say(`    TBT median ${median.medianTbt.toFixed(0)} ms; performance score median ${median.medianScore}`);
    say(
      `    JavaScript transferred while Lighthouse watched the page, nobody touching it: ${(median.scriptBytes / 1024).toFixed(1)} KB (goal <= 60 KB)`,
    );
    say(
      `    JavaScript fetched in a browser before any interaction (load and ${IDLE_MS / 1000} s idle): ${(desktop.scriptBytes / 1024).toFixed(1)} KB ` +
        `(goal <= 60 KB); besides, written into the page: ${(desktop.inlineScriptBytes / 1024).toFixed(1)} KB uncompressed`,
    );
    say(`    details (status, when, who) on screen from the navigation's start, desktop: ${spread(desktop)}`);
    say(`    the same, CPU 4x slower: ${spread(slowed)}`);
  }
}
