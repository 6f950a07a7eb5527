/** autocannon's load on a route, and its figures as the bench prints them. */
import autocannon from 'autocannon';
import { cpuMs } from './processes.js';
import type { BenchRun } from './run.js';

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The server process's CPU time (user and system) per request, in µs, when it was measured. */
  cpuUs?: number;
}

export const figuresOf = (result: autocannon.Result): Figures => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
});
export const show = (figures: Figures) =>
  `${figures.rps.toFixed(0).padStart(6)} req/s  p50 ${String(figures.p50).padStart(4)} ms  p99 ${String(figures.p99).padStart(4)} ms` +
  (figures.cpuUs === undefined ? '' : `  cpu ${figures.cpuUs.toFixed(0).padStart(4)} µs`) +
  (figures.non2xx || figures.errors ? `  (non-2xx ${figures.non2xx}, errors ${figures.errors})` : '');

export interface Route {
  title: string;
  method: 'GET' | 'POST';
  path: string;
  body?: () => string;
}

export function load(
  { connections, duration }: BenchRun,
  url: string,
  route: Route,
  extra: Partial<autocannon.Options> = {},
): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration,
    timeout: 10,
    requests: [
      {
        method: route.method,
        path: route.path,
        headers: { 'content-type': 'application/json' },
        ...(route.body
          ? { setupRequest: (request: autocannon.Request) => ({ ...request, body: route.body?.() }) }
          : {}),
      },
    ],
    ...extra,
  });
}

/** A run of `route` on `url`, with the CPU time the server process `pid` used per request. */
export async function loadWithCpu(
  settings: BenchRun,
  url: string,
  route: Route,
  pid: number | undefined,
): Promise<Figures> {
  const before = cpuMs(pid);
  const result = await load(settings, url, route);
  const after = cpuMs(pid);
  const figures = figuresOf(result);
  return before === undefined || after === undefined || result.requests.total === 0
    ? figures
    : { ...figures, cpuUs: ((after - before) * 1000) / result.requests.total };
}
