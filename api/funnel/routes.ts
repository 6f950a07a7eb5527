/**
 * The Request Demo funnel (docs/funnel.md). POST /api/funnel takes the page's anonymous
 * beacons (a step and the visit's utm_source) and adds one to that day's count; GET /api/admin/funnel reads the
 * counts of a range of days with the attendance of the bookings per source, for sales.
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { isbot } from 'isbot';
import type { Logger } from 'pino';
import {
  calendarDayOf,
  formatCalendarDay,
  parseCalendarDay,
  zonedTimeToInstant,
  type CalendarDay,
} from '../../domain/booking.js';
import { COUNTED_STEPS, FUNNEL_PATH, FUNNEL_STEPS, type FunnelBeacon, type FunnelReport } from '../../domain/funnel.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { ApiError } from '../errors.js';
import type { Middleware } from 'koa';
import { rateLimit, type RequestLimits } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import type { KnownFunnelSources } from './known-sources.js';
import {
  adminOrSession,
  adminRefusals,
  answer,
  json,
  refused,
  tooMany,
  unreadable,
  type OpenApiPart,
} from '../openapi-parts.js';
import { funnelBeaconSchema, funnelReportSchema } from './schemas.js';
import { attendanceBySource, countStep, funnelDays } from './repository.js';

/** A beacon is a few dozen bytes: anything much larger is not one. */
export const FUNNEL_BODY_LIMIT = '1kb';
/** The longest range the admin read answers at once. */
export const FUNNEL_MAX_DAYS = 366;

export interface FunnelRouteDeps {
  db: Db;
  logger: Logger;
  /** The booking zone: a count's day, and the range's days, are this zone's. */
  timeZone: string;
  now: () => Date;
  limits: RequestLimits | undefined;
  /** The sources counted under their own name (FUNNEL_SOURCES and the bookings'); any other is 'other'. */
  sources: Pick<KnownFunnelSources, 'counted'>;
}

/**
 * POST /api/funnel: 204 whatever becomes of the beacon (navigator.sendBeacon reads no answer). A bot's (by its
 * User-Agent, or one without) is not counted. Its body is read here, not by the app's JSON parser: a beacon comes as
 * text/plain, and at most FUNNEL_BODY_LIMIT of it; a body with a key beside step and source is refused (400). Its
 * source is counted under its name only when known (known-sources.ts), else as 'other'. Nothing of the request is
 * kept but the count, nor logged beyond the request's one line (api/request-log.ts: method, path, status, time).
 */
export function funnelBeaconRoutes(deps: FunnelRouteDeps): Router {
  const router = new Router();
  router.post(
    FUNNEL_PATH,
    // A bot's beacon costs nothing: answered before it is read, limited or counted.
    async (ctx, next) => {
      const userAgent = ctx.get('User-Agent');
      if (userAgent === '' || isbot(userAgent)) {
        ctx.status = 204;
        return;
      }
      await next();
    },
    // The e-mail checks' rate, counted apart: a visit sends at most four beacons.
    rateLimit(deps.limits?.limiter, {
      name: 'funnel',
      limit: deps.limits?.emailChecksPerMinute ?? 0,
      windowMs: 60_000,
      details: () => 'Too many requests from your network. Please wait a minute.',
    }),
    bodyParser({
      enableTypes: ['json', 'text'],
      jsonLimit: FUNNEL_BODY_LIMIT,
      textLimit: FUNNEL_BODY_LIMIT,
      encoding: 'utf-8',
    }),
    validateBody<FunnelBeacon>({
      schema: funnelBeaconSchema,
      messages: (_error, field) =>
        field === 'step' ? `step must be one of ${FUNNEL_STEPS.join(', ')}.` : `${field || 'The body'} is not valid.`,
      summary: 'Invalid funnel step',
      textAsJson: true,
    }),
    async (ctx) => {
      const { step, source } = ctx.state.body;
      const day = formatCalendarDay(calendarDayOf(deps.now(), deps.timeZone));
      const counted = await deps.sources.counted(source);
      await unlessDatabaseDown(
        () => countStep(deps.db, day, counted, step),
        deps.logger,
        'funnel step not counted',
        'Not counted.',
      );
      ctx.status = 204;
    },
  );
  return router;
}

export interface FunnelAdminRouteDeps {
  db: Db;
  logger: Logger;
  timeZone: string;
  /** The admin guard: the operations token, or the sales page's session (api/admin/sessions.ts). */
  requireAdmin: Middleware;
}

const daysBetween = (from: CalendarDay, to: CalendarDay) =>
  (Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / 86_400_000;

/** GET /api/admin/funnel?from=YYYY-MM-DD&to=YYYY-MM-DD, behind the admin guard: for operators' scripts and the sales page. */
export function funnelAdminRoutes(deps: FunnelAdminRouteDeps): Router {
  const router = new Router({ prefix: '/api/admin/funnel' });
  router.use(deps.requireAdmin);
  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const dayOf = (name: 'from' | 'to') => {
      const value = ctx.query[name];
      const day = typeof value === 'string' ? parseCalendarDay(value) : undefined;
      if (!day)
        throw new ApiError(400, 'Invalid range', `${name} must be a day (YYYY-MM-DD).`, {
          [name]: `${name} must be a day (YYYY-MM-DD).`,
        });
      return day;
    };
    const from = dayOf('from');
    const to = dayOf('to');
    const span = daysBetween(from, to);
    if (span < 0)
      throw new ApiError(400, 'Invalid range', 'from must not be after to.', { to: 'to must not be before from.' });
    if (span >= FUNNEL_MAX_DAYS)
      throw new ApiError(400, 'Invalid range', `The range may hold at most ${FUNNEL_MAX_DAYS} days.`, {
        to: `At most ${FUNNEL_MAX_DAYS - 1} days after from.`,
      });
    const [fromText, toText] = [formatCalendarDay(from), formatCalendarDay(to)];
    const start = zonedTimeToInstant(from, 0, deps.timeZone);
    // The start of the day after `to` (the zone's midnight; zonedTimeToInstant carries a 32nd into the next month).
    const end = zonedTimeToInstant({ ...to, day: to.day + 1 }, 0, deps.timeZone);
    const [days, attendance] = await readUnlessDatabaseDown(
      () => Promise.all([funnelDays(deps.db, fromText, toText), attendanceBySource(deps.db, start, end)]),
      deps.logger,
      'funnel',
    );
    const report: FunnelReport = { from: fromText, to: toText, steps: [...COUNTED_STEPS], days, attendance };
    ctx.body = report;
  });
  return router;
}

export const funnelOpenApi: OpenApiPart = {
  paths: {
    [FUNNEL_PATH]: {
      post: {
        operationId: 'countFunnelStep',
        summary:
          "The page's anonymous beacon (navigator.sendBeacon): one more visit reached this step today, from this source. Only daily counts are kept; no address, identifier or browser (docs/funnel.md).",
        requestBody: {
          required: true,
          content: {
            ...json('FunnelBeacon'),
            'text/plain': { schema: { $ref: '#/components/schemas/FunnelBeacon' } },
          },
        },
        responses: {
          '204': { description: 'Counted; or not, from a bot (by its User-Agent, or one without), answered alike.' },
          '400': refused(
            'Not a step, a source that is not text of at most 100 characters, or a key beside step and source.',
          ),
          '413': refused('The body is larger than 1 KB.'),
          '415': refused('The body is neither JSON nor text.'),
          '429': tooMany,
          '503': refused('The database does not answer; nothing was counted.'),
        },
      },
    },
    '/api/admin/funnel': {
      get: {
        operationId: 'funnel',
        summary:
          "For operations and sales: the funnel's daily counts per source, and per source the bookings in the range with how many came (attended) and how many did not (no-show).",
        ...adminOrSession,
        parameters: (['from', 'to'] as const).map((name) => ({
          name,
          in: 'query',
          required: true,
          description: `The ${name === 'from' ? 'first' : 'last'} day, included (the booking zone's days); at most ${FUNNEL_MAX_DAYS} days in all.`,
          schema: { type: 'string', format: 'date' },
        })),
        responses: {
          '200': answer('The range, its counts and attendance.', 'FunnelReport'),
          '400': refused('from or to is not a day, from is after to, or the range is too long.'),
          ...adminRefusals,
          '503': unreadable,
        },
      },
    },
  },
  components: { schemas: { FunnelBeacon: funnelBeaconSchema, FunnelReport: funnelReportSchema } },
};
