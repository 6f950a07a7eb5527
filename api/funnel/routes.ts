/**
 * The Request Demo funnel (docs/funnel.md). POST /api/funnel takes the page's anonymous
 * beacons (a step and the visit's utm_source) and adds one to that day's count; GET /api/admin/funnel reads the
 * counts of a range of days with the attendance of the bookings per source, for sales.
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { JSONSchemaType } from 'ajv';
import { isbot } from 'isbot';
import type { Logger } from 'pino';
import {
  calendarDayOf,
  formatCalendarDay,
  parseCalendarDay,
  zonedTimeToInstant,
  type CalendarDay,
} from '../../domain/booking.js';
import {
  FUNNEL_PATH,
  FUNNEL_SOURCE_MAX_LENGTH,
  FUNNEL_SOURCE_SENT_MAX_LENGTH,
  FUNNEL_STEPS,
  type FunnelBeacon,
  type FunnelReport,
  type FunnelStep,
} from '../../domain/funnel.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { ApiError } from '../errors.js';
import type { Middleware } from 'koa';
import { rateLimit, type RequestLimits } from '../rate-limit.js';
import { validateBody } from '../validation.js';
import type { KnownFunnelSources } from './known-sources.js';
import { attendanceBySource, countStep, funnelDays } from './repository.js';

/** A beacon is a few dozen bytes: anything much larger is not one. */
export const FUNNEL_BODY_LIMIT = '1kb';
/** The longest range the admin read answers at once. */
export const FUNNEL_MAX_DAYS = 366;

export const funnelBeaconSchema: JSONSchemaType<FunnelBeacon> = {
  type: 'object',
  additionalProperties: false,
  required: ['step'],
  properties: {
    step: { type: 'string', enum: [...FUNNEL_STEPS] as FunnelStep[] },
    source: {
      type: 'string',
      nullable: true,
      maxLength: FUNNEL_SOURCE_SENT_MAX_LENGTH,
      description: `The visit's utm_source. Counted lower case when known (listed in FUNNEL_SOURCES, or carried by a stored booking); one that is not known, or not letters, digits, '.', '-' and '_' up to ${FUNNEL_SOURCE_MAX_LENGTH} characters, is counted as 'other'.`,
    },
  },
};

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
    const report: FunnelReport = { from: fromText, to: toText, steps: [...FUNNEL_STEPS], days, attendance };
    ctx.body = report;
  });
  return router;
}
