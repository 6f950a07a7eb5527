/**
 * The API's metrics: requests by route pattern and status with their latency, bookings by outcome, and each host's
 * calendar (state and last good read), read from the team's calendars when scraped.
 */
import type { Context, Next } from 'koa';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { HostCalendars } from './hosts/calendars.js';
import { programRegistry } from '../server-shared/metrics.js';
import type { OwnerLookupFailure } from './routing/owner-lookup.js';

/** What a booking came to: the outcome label of converge_bookings_total. */
export type BookingOutcomeLabel = 'created' | 'refused' | 'slot_taken' | 'replayed' | 'honeypot';

export interface ApiMetrics {
  registry: Registry;
  /** Koa middleware: counts and times every request by its route's pattern. */
  requests(ctx: Context, next: Next): Promise<void>;
  booking(outcome: BookingOutcomeLabel): void;
  /** OWNER_LOOKUP_URL did not answer (routing went on with the accounts file and the routes). */
  ownerLookupFailed(why: OwnerLookupFailure): void;
}

/** Routes as the router names them (patterns, `:token` never a token); the page and its files as one. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function routeOf(ctx: Context): string {
  const pattern = (ctx as Context & { routerPath?: string }).routerPath;
  if (typeof pattern === 'string') return pattern;
  return ctx.path.startsWith('/api/') ? 'unmatched' : 'site';
}

export function createApiMetrics(hostCalendars?: HostCalendars): ApiMetrics {
  const registry = programRegistry('api');
  const requests = new Counter({
    name: 'converge_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'converge_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const bookings = new Counter({
    name: 'converge_bookings_total',
    help: 'Booking requests by outcome: created, refused by a rule (a ceiling, a reused key), slot_taken, replayed (an Idempotency-Key seen before), honeypot.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const ownerLookupFailures = new Counter({
    name: 'converge_owner_lookup_failures_total',
    help: 'Times OWNER_LOOKUP_URL gave no owner in time, by why: timeout, unreachable, status (not 200 or 404), answer (no host of the team); the accounts file and the routes decided.',
    labelNames: ['why'] as const,
    registers: [registry],
  });
  if (hostCalendars) {
    const status = () => hostCalendars.status();
    new Gauge({
      name: 'converge_host_calendar_readable',
      help: "1 while the host's calendar reads, 0 when it cannot be read (or has not been yet).",
      labelNames: ['host'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const host of status()) this.set({ host: host.name }, host.state === 'readable' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'converge_host_calendar_last_read_seconds',
      help: "When the host's calendar last read well (Unix time); absent before the first good read.",
      labelNames: ['host'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const host of status())
          if (host.lastGoodReadAt) this.set({ host: host.name }, Date.parse(host.lastGoodReadAt) / 1000);
      },
    });
  }
  for (const outcome of ['created', 'refused', 'slot_taken', 'replayed', 'honeypot'] as const)
    bookings.inc({ outcome }, 0);
  return {
    registry,
    async requests(ctx, next) {
      const end = duration.startTimer();
      try {
        await next();
      } finally {
        // Any other method a client sends is one label, so that no client can grow the series.
        const labels = {
          method: METHODS.has(ctx.method) ? ctx.method : 'OTHER',
          route: routeOf(ctx),
          status: String(ctx.status),
        };
        requests.inc(labels);
        end(labels);
      }
    },
    booking(outcome) {
      bookings.inc({ outcome });
    },
    ownerLookupFailed(why) {
      ownerLookupFailures.inc({ why });
    },
  };
}
