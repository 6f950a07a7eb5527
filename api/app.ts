/** Builds the Koa application. It never listens: server.ts does, and tests drive it in-process. */
import Koa from 'koa';
import Router from '@koa/router';
import compress from 'koa-compress';
import { constants as zlib } from 'node:zlib';
import type { Logger } from 'pino';
import type { Db } from './db.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { ApiError, errorMiddleware } from './errors.js';
import { requestLog } from './request-log.js';
import { healthRoutes } from './health.js';
import { demoRequestRoutes, demoRequestSteps, type DemoRequestRouteDeps } from './bookings/request-routes.js';
import { emailCheckRoutes } from './email-check/routes.js';
import { noBookingPage, webRoutes, type PageSettings } from './web.js';
import { createMemoryLimiter, type RequestLimits } from './rate-limit.js';
import { securityHeaders } from './security-headers.js';
import { daySlotsReader, slotRoutes, type SlotDeps } from './slots/routes.js';
import { createSlotCounts } from './slots/slot-counts.js';
import { createTrappedSlots } from './slots/trapped-slots.js';
import { networksTrappedRecently, trappedByNetwork } from './bookings/trapped-repository.js';
import { bookingsPerSlot, hostBookingsAround } from './bookings/repository.js';
import { openApiRoutes } from './openapi.js';
import { bookingChangeSteps, bookingRoutes, bookingViewReader, type BookingLinkDeps } from './bookings/routes.js';
import { noScriptRoutes } from './no-script/routes.js';
import { smsLinkRoutes } from './bookings/sms-link.js';
import type { ApiMetrics } from './metrics.js';
import type { BookingSettings } from './config.js';
import { brand, type Contact } from '../domain/brand.js';
import type { ProspectRouting } from './routing/prospect-route.js';
import { routingRoutes } from './routing/routes.js';
import { routeKeyReader } from './routing/route-key.js';
import type { HostCalendars } from './hosts/calendars.js';
import { watchHostAnswers, type HostAnswersWatch } from './hosts/host-answers.js';
import { hostRoutes } from './hosts/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { funnelAdminRoutes, funnelBeaconRoutes } from './funnel/routes.js';
import { FUNNEL_SOURCE_DAYS, KnownFunnelSources } from './funnel/known-sources.js';
import { bookingSourcesSince } from './funnel/repository.js';
import { disqualifiedCounter } from './funnel/disqualified.js';
import { adminAccess } from './admin/sessions.js';
import { adminBookingRoutes } from './admin/booking-routes.js';
import { reassignRoutes } from './admin/reassign.js';
import { hostShareRoutes } from './admin/host-share.js';

export interface AppDeps {
  db: Db;
  queue: DeliveryQueue;
  logger: Logger;
  timeZone: string;
  /** The booking's settings, resolved once (api/config.ts: loadApiConfig, or bookingSettings for a test). */
  booking: BookingSettings;
  webRoot: string;
  /** PUBLIC_URL: the pages' link-preview addresses are absolute under it. */
  publicUrl: string;
  /** CONTACT_EMAIL and CONTACT_PHONE, written into the pages' footer; the brand's own when unset. */
  contact?: Contact;
  /** Signs and checks the booking links. */
  linkSecret: string;
  /** Earlier link secrets (before a rotation), still accepted when a link is opened; none when unset. */
  previousLinkSecrets?: readonly string[];
  /** The e-mails' sender, whose domain names each booking's calendar event. */
  mailFrom: string;
  /** Enables the operations endpoints when set. */
  adminToken?: string;
  /** Per-client limits; none when unset. */
  limits?: RequestLimits;
  /**
   * Proxies in front of the API that append to X-Forwarded-For (0: none). The client is the address that many
   * entries from the right, never one the client wrote itself; X-Forwarded-Proto is believed only then.
   */
  trustProxy?: number;
  /** The team's calendars (TEAM_FILE); unset: slots by SLOT_CAPACITY and no host. */
  hostCalendars?: HostCalendars;
  /** The team's routing (TEAM_FILE's questions and routes, ACCOUNTS_FILE, OWNER_LOOKUP_URL); with hostCalendars. */
  routing?: ProspectRouting;
  /**
   * FUNNEL_SOURCES (parsed): sources the funnel counts under their own name, beside those the bookings of the last 90
   * days carry; none listed when unset.
   */
  funnelSources?: readonly string[];
  /** WEBHOOK_ALLOW_PRIVATE: endpoints on http:// and private addresses may be added; false when unset. */
  webhookAllowPrivate?: boolean;
  /** Counts requests and bookings for the metrics endpoint (METRICS_PORT); none when unset. */
  metrics?: ApiMetrics;
  now?: () => Date;
}

/** What the server writes into the pages it serves. */
const pageSettingsOf = (deps: AppDeps): PageSettings => ({
  timeZone: deps.timeZone,
  minNoticeMinutes: deps.booking.minNoticeMinutes,
  publicUrl: deps.publicUrl,
  contact: deps.contact ?? brand.company.contact,
});

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Every route the API answers (health, booking, e-mail check, slots, operations and the sales page's, the OpenAPI document). */
export function createApiRouter(deps: AppDeps): Router {
  const now = deps.now ?? (() => new Date());
  const { minNoticeMinutes, limits: bookingLimits, followUps, meetingUrlTemplate } = deps.booking;
  const slotCounts = createSlotCounts((starts) => bookingsPerSlot(deps.db, starts));
  // With a team, each host's own bookings: a slot is offered while one host is free in it.
  const hostBookings = deps.hostCalendars
    ? createSlotCounts((starts) => hostBookingsAround(deps.db, starts))
    : undefined;
  // Set below: a change this process stores has its host's calendar compared at its next read.
  let hostAnswers: HostAnswersWatch | undefined;
  const bookingsChanged = () => {
    slotCounts.changed();
    hostBookings?.changed();
    hostAnswers?.bookingsChanged();
  };
  // A host deleting or declining a demo's event in their calendar hands it on, or asks the prospect for a new time.
  if (deps.hostCalendars)
    hostAnswers = watchHostAnswers({
      db: deps.db,
      queue: deps.queue,
      logger: deps.logger,
      now,
      timeZone: deps.timeZone,
      mailFrom: deps.mailFrom,
      followUps,
      calendars: deps.hostCalendars,
      bookingsChanged,
    });
  // The honeypot's catches, shown to their own network's slot list.
  const trappedSlots = createTrappedSlots(
    () => networksTrappedRecently(deps.db),
    (network, from, to) => trappedByNetwork(deps.db, network, from, to),
  );
  // The funnel counts a source under its name once known: listed, or carried by a stored booking.
  const funnelSources = new KnownFunnelSources({
    listed: deps.funnelSources ?? [],
    readBookingSources: () => bookingSourcesSince(deps.db, FUNNEL_SOURCE_DAYS),
    logger: deps.logger,
  });
  const adminLimiter = deps.limits?.limiter ?? createMemoryLimiter();
  const admin = adminAccess({
    db: deps.db,
    logger: deps.logger,
    adminToken: deps.adminToken,
    adminLimiter,
    publicUrl: deps.publicUrl,
    now,
  });
  const slotDeps: SlotDeps = {
    slotCounts,
    timeZone: deps.timeZone,
    minNoticeMinutes,
    now,
    slotCapacity: bookingLimits.slotCapacity,
    logger: deps.logger,
    ...(deps.hostCalendars && hostBookings ? { team: { calendars: deps.hostCalendars, bookings: hostBookings } } : {}),
    salesDesk: followUps.salesNotifyEmail,
    trapped: trappedSlots,
    ...(deps.routing ? { routeOf: routeKeyReader(deps.routing.team, deps, now) } : {}),
  };
  const bookingDeps: DemoRequestRouteDeps = {
    ...deps,
    now,
    bookingsChanged,
    trapped: () => trappedSlots.changed(),
    minNoticeMinutes,
    bookingLimits,
    followUps,
    meetingUrlTemplate,
    funnelSources,
    ...(deps.metrics ? { bookingOutcome: deps.metrics.booking } : {}),
  };
  const linkDeps: BookingLinkDeps = {
    ...deps,
    now,
    bookingsChanged,
    minNoticeMinutes,
    slotCapacity: bookingLimits.slotCapacity,
    emailsPerRecipientPerDay: bookingLimits.emailsPerRecipientPerDay,
    followUps,
  };
  const routes = new Router();
  routes.use(
    admin.routes.routes(),
    adminBookingRoutes({
      db: deps.db,
      queue: deps.queue,
      logger: deps.logger,
      timeZone: deps.timeZone,
      now,
      requireAdmin: admin.requireAdmin,
      team: deps.hostCalendars?.hosts.map((host) => ({ email: host.email.toLowerCase(), name: host.name })),
      questions: deps.routing?.questions ?? [],
    }).routes(),
    reassignRoutes({
      db: deps.db,
      queue: deps.queue,
      logger: deps.logger,
      now,
      timeZone: deps.timeZone,
      followUps,
      emailsPerRecipientPerDay: bookingLimits.emailsPerRecipientPerDay,
      hostCalendars: deps.hostCalendars,
      bookingsChanged,
      requireAdmin: admin.requireAdmin,
      questions: deps.routing?.questions ?? [],
    }).routes(),
    hostShareRoutes({
      db: deps.db,
      logger: deps.logger,
      now,
      team: deps.hostCalendars?.hosts ?? [],
      requireAdmin: admin.requireAdmin,
    }).routes(),
    healthRoutes(deps).routes(),
    demoRequestRoutes(bookingDeps).routes(),
    emailCheckRoutes(deps.limits).routes(),
    routingRoutes({
      ...(deps.routing ? { routing: deps.routing } : {}),
      ...(deps.limits ? { limits: deps.limits } : {}),
      linkSecret: deps.linkSecret,
      writeTo: followUps.salesNotifyEmail ?? (deps.contact ?? brand.company.contact).email,
      now,
      texts: followUps.texts !== undefined,
      countDisqualified: disqualifiedCounter({ ...deps, now, funnelSources }),
    }).routes(),
    slotRoutes(slotDeps).routes(),
    hostRoutes({ hostCalendars: deps.hostCalendars, adminToken: deps.adminToken, adminLimiter }).routes(),
    webhookRoutes({
      db: deps.db,
      queue: deps.queue,
      logger: deps.logger,
      adminToken: deps.adminToken,
      adminLimiter,
      allowPrivate: deps.webhookAllowPrivate ?? false,
    }).routes(),
    funnelBeaconRoutes({
      db: deps.db,
      logger: deps.logger,
      timeZone: deps.timeZone,
      now,
      limits: deps.limits,
      sources: funnelSources,
    }).routes(),
    funnelAdminRoutes({
      db: deps.db,
      logger: deps.logger,
      timeZone: deps.timeZone,
      requireAdmin: admin.requireAdmin,
    }).routes(),
    bookingRoutes(linkDeps).routes(),
    smsLinkRoutes({
      db: deps.db,
      logger: deps.logger,
      linkSecret: deps.linkSecret,
      limiter: adminLimiter,
      noBooking: noBookingPage(deps.webRoot, pageSettingsOf(deps)),
    }).routes(),
    noScriptRoutes({
      webRoot: deps.webRoot,
      publicUrl: deps.publicUrl,
      contact: deps.contact ?? brand.company.contact,
      timeZone: deps.timeZone,
      now,
      logger: deps.logger,
      readDay: daySlotsReader(slotDeps),
      readBooking: bookingViewReader(deps),
      questions: deps.routing?.questions ?? [],
      ...(deps.routing ? { routing: deps.routing } : {}),
      texts: followUps.texts !== undefined,
      bookSteps: demoRequestSteps(bookingDeps, { form: true }),
      changeSteps: bookingChangeSteps(linkDeps, { form: true }),
    }).routes(),
    openApiRoutes().routes(),
  );
  return routes;
}

/**
 * A JSON answer (a plain object or array) is written out once, here, inside koa-compress: the compressor then reads
 * its size from Content-Length and lets a small one through untouched, where it would otherwise serialise the
 * object only to measure it, and Koa serialise it again to send it. The Content-Type stays JSON.
 */
async function serialiseJsonOnce(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  const body: unknown = ctx.body;
  if (
    typeof body === 'object' &&
    body !== null &&
    (Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype)
  ) {
    ctx.body = JSON.stringify(body);
  }
}

/**
 * A request answered before its body was read to the end (refused by its size, its type or its encoding) is
 * answered with `Connection: close`, and Node closes the socket once the answer is out. Otherwise Node would read
 * the rest and throw it away, however slowly it came, to keep the socket for a next request.
 */
async function hangUpOnUnreadBody(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  if (!ctx.req.complete) ctx.set('Connection', 'close');
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  const proxyHops = deps.trustProxy ?? 0;
  app.proxy = proxyHops > 0;
  app.maxIpsCount = proxyHops;

  app.use(requestLog(deps.logger));
  if (deps.metrics) app.use(deps.metrics.requests);
  app.use(hangUpOnUnreadBody);
  app.use(securityHeaders());
  app.use(errorMiddleware);
  app.use(
    compress({
      threshold: 1024,
      br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
    }),
  );
  app.use(serialiseJsonOnce);

  const routes = createApiRouter(deps);
  app.use(routes.routes());

  // Whatever reaches this far matched no route: under /api/ (any case) it is answered in JSON, never with the 404
  // page, and so is a known path asked with the wrong method.
  app.use(async (ctx, next) => {
    const allowed = routes.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods);
    if (allowed.length > 0) {
      ctx.set('Allow', [...new Set(allowed)].join(', '));
      throw new ApiError(405, 'Method not allowed', `${ctx.method} is not allowed on ${ctx.path}.`);
    }
    if (/^\/api(\/|$)/i.test(ctx.path))
      throw new ApiError(404, 'Not found', `There is no API endpoint at ${ctx.method} ${ctx.path}.`);
    await next();
  });
  const readBooking = bookingViewReader(deps);
  for (const middleware of webRoutes(deps.webRoot, pageSettingsOf(deps), readBooking)) app.use(middleware);

  app.on('error', (err: unknown, ctx?: Koa.Context) => {
    const log = (ctx?.state.log as Logger | undefined) ?? deps.logger;
    const code = (err as { code?: string } | null)?.code;
    // A visitor closing the tab mid-answer is routine, not a fault of ours.
    if (code !== undefined && CLIENT_GONE.has(code)) log.debug({ code }, 'client went away');
    else log.error({ err }, 'request failed');
  });
  return app;
}
