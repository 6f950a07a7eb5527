/**
 * Section 1 of `npm run bench`: each endpoint of the built API beside a bare Koa route answering the same JSON
 * (bare-koa.ts), and beside the same bare route sending the API's headers too, with each server process's CPU time
 * per request.
 */
import { calendarDayOf, formatCalendarDay } from '../../domain/booking.js';
import { bookingBodies, emailBodies } from './bodies.js';
import { load, loadWithCpu, show, type Figures, type Route } from './load.js';
import { startWithPort, stop } from './processes.js';
import type { BenchRun } from './run.js';
import type { BuiltStack } from './built-stack.js';

/** Headers Koa or Node.js write for any answer: the bare server sends its own. */
const HEADERS_KOA_WRITES = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/** How long each route is loaded, on the API and on the bare server, before section 1 measures. */
const WARM_UP_SECONDS = 3;

/** The booking's route, a new person and slot each request. */
export const bookingRoute = (slots: readonly string[], run: string): Route => ({
  title: 'POST /api/demo-request',
  method: 'POST',
  path: '/api/demo-request',
  body: bookingBodies(slots, run),
});

/** With `everyRoute` false, the booking's route alone (for section 2's sake: the API warmed up alike). */
export async function endpointsSection(
  bench: BenchRun,
  stack: BuiltStack,
  slots: readonly string[],
  everyRoute: boolean,
): Promise<void> {
  const { say } = bench;
  const day = formatCalendarDay(calendarDayOf(new Date(slots[0]!), 'Europe/Berlin'));
  const routes: Route[] = [
    { title: 'GET /healthz', method: 'GET', path: '/healthz' },
    // A new address each request, as visitors send; the rules keep what they worked out for the last 2,000 domains.
    {
      title: 'POST /api/validate-email, a new address each request',
      method: 'POST',
      path: '/api/validate-email',
      body: emailBodies(bench.run),
    },
    {
      title: 'POST /api/validate-email, one repeated address',
      method: 'POST',
      path: '/api/validate-email',
      body: () => JSON.stringify({ email: 'ada@analytical-engines.com' }),
    },
    { title: `GET /api/slots?date=${day}`, method: 'GET', path: `/api/slots?date=${day}` },
    bookingRoute(slots, bench.run),
  ];
  // The bare server answers what the API answered, for the same request.
  const answers: Record<string, { status: number; body: unknown; headers: Record<string, string> }> = {};
  for (const route of routes) {
    const response = await fetch(`${stack.api}${route.path}`, {
      method: route.method,
      headers: { 'content-type': 'application/json' },
      body: route.body?.(),
    });
    const headers = Object.fromEntries([...response.headers].filter(([name]) => !HEADERS_KOA_WRITES.has(name)));
    answers[`${route.method} ${route.path.split('?')[0]}`] = {
      status: response.status,
      body: await response.json(),
      headers,
    };
  }
  const bare = await startWithPort('bare-koa.ts', { BARE_ANSWERS: JSON.stringify(answers) });
  const bareWithHeaders = await startWithPort('bare-koa.ts', {
    BARE_ANSWERS: JSON.stringify(answers),
    BARE_SEND_HEADERS: '1',
  });
  const servers = [
    { label: 'API      ', url: stack.api, pid: stack.apiProcess.pid },
    { label: 'bare     ', url: `http://127.0.0.1:${bare.port}`, pid: bare.child.pid },
    { label: '+headers ', url: `http://127.0.0.1:${bareWithHeaders.port}`, pid: bareWithHeaders.child.pid },
  ];
  // The servers are warmed up alike before anything is measured: each route for a few seconds, so that the first
  // figures are not those of code not yet optimised, pools not yet filled and the new database's first pages.
  for (const route of routes) {
    if (!everyRoute && route.path !== '/api/demo-request') continue;
    for (const server of servers) await load(bench, server.url, route, { duration: WARM_UP_SECONDS });
  }
  say(`\n1. Each endpoint beside a bare Koa route answering the same JSON, and beside the same bare route sending the`);
  say(
    `   API's headers too (worker stopped; all warmed up ${WARM_UP_SECONDS} s a route; cpu: the server process's CPU time per request)`,
  );
  for (const route of routes) {
    if (!everyRoute && route.path !== '/api/demo-request') continue;
    const figures: Figures[] = [];
    for (const server of servers) figures.push(await loadWithCpu(bench, server.url, route, server.pid));
    say(`  ${route.title}`);
    servers.forEach((server, i) => say(`    ${server.label}${show(figures[i]!)}`));
    const [real, baseline, withHeaders] = figures as [Figures, Figures, Figures];
    say(
      `    ratio     ${(real.rps / baseline.rps).toFixed(2)}x (against the bare route sending the same headers: ${(real.rps / withHeaders.rps).toFixed(2)}x)`,
    );
  }
  await Promise.all([stop(bare.child), stop(bareWithHeaders.child)]);
}
