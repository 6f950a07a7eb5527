/**
 * The booking pages that work without script, answered as pages the server renders (web/app/no-script-prerender.tsx,
 * into the build's no-script.html): GET /book, the booking form with the free slots of a week of working days as radio
 * buttons (slot-choices.ts), in the zone the visitor chose beside the booking zone's, the visit's attribution as
 * hidden fields (form-parts.ts), the texts' consent where texts are sent, and a one-time idempotency key; POST /book, the form posted, through the very steps of POST /api/bookings
 * (its rate limit, honeypot, validation, ceilings and idempotency: request-routes.ts), answered with 303 to the
 * booking's confirmation (GET /booking/{token}/confirmation) or the form again with each error beside its field
 * (the team file's questions asked on it too; a prospect the routes turn away reads their words as a page, 422; a
 * slot the prospect's route cannot take comes back with the route's free slots offered, from that day on);
 * and a booking's move and cancel (GET and POST /booking/{token}/move and /cancel), through the steps of the API's
 * reschedule and cancel (bookings/routes.ts). A post must come from the site itself (same-site.ts), or it is refused
 * with a 403 page and nothing is read.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { calendarDayOf, knownTimeZone, type CalendarDay } from '../../domain/booking.js';
import type { Attribution } from '../../domain/attribution.js';
import type { Contact } from '../../domain/brand.js';
import {
  DEMO_REQUEST_FIELDS,
  TIME_ZONE_MAX_LENGTH,
  type BookingCreated,
  type BookingView,
} from '../../domain/demo-request.js';
import {
  BOOK_PATH,
  bookingPaths,
  FORM_KEY_FIELD,
  ZONE_PARAMETER,
  type FormProblems,
  type FormValues,
  type NoScriptPage,
} from '../../domain/no-script-pages.js';
import { escapeHtml } from '../../domain/text.js';
import { ApiError, ServiceUnavailableError, TooManyRequestsError } from '../errors.js';
import { fromAnotherSite } from '../same-site.js';
import type { DaySlotsRead } from '../slots/routes.js';
import { BOOKING_RETRY_AFTER_SECONDS, FOOTER, policyOf, withContact, type BookingViewReader } from '../web.js';
import type { demoRequestSteps, FormIdempotencyKey } from '../bookings/request-routes.js';
import type { bookingChangeSteps } from '../bookings/routes.js';
import type { ProspectRouting } from '../routing/prospect-route.js';
import { NotRoutedError, routeProspect } from '../routing/route-answer.js';
import {
  CROSS_SITE_PAGE,
  NOT_FOUND_PAGE,
  chosenAnswers,
  consentOfForm,
  gatherAnswers,
  gatherAttribution,
  postedAttribution,
  visitAttribution,
  notRoutedPage,
  pageError,
  problemsOf,
  routeConflict,
  tokenOfInvitePath,
  typedValues,
  type ChoicesFor,
} from './form-parts.js';
import { keyedRouteOf, type KeyedRoute } from '../routing/route-key.js';
import { fromOf, slotChoicesReader } from './slot-choices.js';
import { answerField, type RoutingAnswers, type RoutingQuestion } from '../../domain/routing.js';

/** The render the web build bundles for Node beside the web root (dist/web-ssr/no-script-prerender.cjs). */
interface NoScriptRenderer {
  renderNoScriptPage(page: NoScriptPage, zone: string): { body: string; styles: string; title: string };
}

const SHELL_FILE = 'no-script.html';
const ROOT = '<div id="root"></div>';
const NOT_BUILT =
  '<!doctype html><html lang="en"><title>Please try again shortly</title><h1>Please try again shortly</h1><p>The booking page is not built yet: run npm run build:web.</p></html>';

/**
 * A urlencoded body of at most this size. Its texts are each at most what the JSON body's are (the schema's limits),
 * but percent-encoded: a message of non-Latin letters takes three to four times its JSON size.
 */
const FORM_LIMIT = '64kb';

export interface NoScriptDeps {
  webRoot: string;
  /** PUBLIC_URL: its origin is the site's own, besides the one a request reached the API by. */
  publicUrl: string;
  contact: Contact;
  timeZone: string;
  now: () => Date;
  logger: Logger;
  /** The day's slots, as the slot list answers them (slots/routes.ts); with `route`, those its hosts can take. */
  readDay: (date: string, day: CalendarDay, clientKey: string, route?: KeyedRoute) => Promise<DaySlotsRead>;
  readBooking: BookingViewReader;
  /** The site sends texts (SMPP_URL): the form offers their consent beside the phone. */
  texts: boolean;
  /** The team file's questions, asked on the form before its slots; none without them. */
  questions: readonly RoutingQuestion[];
  /** The team's routing when who hosts depends on the prospect (ProspectRouting.routed); unset: every host's slots. */
  routing?: ProspectRouting;
  bookSteps: ReturnType<typeof demoRequestSteps>;
  changeSteps: ReturnType<typeof bookingChangeSteps>;
}

/** What the booking form carries of the visit besides what is typed: where it came from, the zone, the week shown. */
interface Visit {
  attribution: Attribution;
  zone: string;
  /** The first day (YYYY-MM-DD) of the week whose slots are shown; the first week of the window without it. */
  from?: string;
}

const tokenOf = (ctx: Context): string => String(ctx.params.token ?? '');
const unavailablePage = (text: string): NoScriptPage => ({ kind: 'notice', title: 'Please try again shortly', text });

export function noScriptRoutes(deps: NoScriptDeps): Router {
  const router = new Router();
  const publicOrigin = new URL(deps.publicUrl).origin;
  const rendererFile = path.join(`${path.resolve(deps.webRoot)}-ssr`, 'no-script-prerender.cjs');
  let renderer: NoScriptRenderer | undefined;
  let shell: string | undefined;
  const parseForm = bodyParser({ enableTypes: ['form'], formLimit: FORM_LIMIT, encoding: 'utf-8' });

  /** Loaded on first use: `npm start` may build the pages after the app is made. */
  const load = async (): Promise<{ renderer: NoScriptRenderer; shell: string } | undefined> => {
    if (!renderer && existsSync(rendererFile))
      renderer = createRequire(import.meta.url)(rendererFile) as NoScriptRenderer;
    shell ??= await readFile(path.join(deps.webRoot, SHELL_FILE), 'utf8').catch(() => undefined);
    return renderer && shell ? { renderer, shell } : undefined;
  };

  const send = async (ctx: Context, status: number, page: NoScriptPage): Promise<void> => {
    ctx.status = status;
    ctx.type = 'html';
    // A form carries its one-time key, a booking's page its token: no cache keeps either; no index lists them.
    ctx.set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' });
    // A booking's page has its token in its address: only the site itself is told it as a referrer, which also makes
    // the browser send the page's Origin with its form (no-referrer would send "null", which the check refuses).
    if (ctx.path.startsWith('/booking/')) ctx.set('Referrer-Policy', 'same-origin');
    const built = await load();
    if (!built) {
      ctx.status = 503;
      ctx.body = NOT_BUILT;
      return;
    }
    const rendered = built.renderer.renderNoScriptPage(page, deps.timeZone);
    const body = rendered.body.replace(FOOTER, (footer) => withContact(footer, deps.contact));
    const html = built.shell
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(rendered.title)}</title>`)
      .replace('</head>', () => `${rendered.styles}</head>`)
      .replace(ROOT, () => `<div id="root">${body}</div>`);
    ctx.set('Content-Security-Policy', policyOf(html));
    ctx.body = html;
  };

  const slotChoices = slotChoicesReader(deps);

  const bookForm = async (
    ctx: Context,
    visit: Visit,
    values: FormValues,
    problems: FormProblems,
    answers: RoutingAnswers = {},
    only?: ChoicesFor,
  ): Promise<NoScriptPage> => ({
    kind: 'book',
    choices: await slotChoices(ctx, only, visit.from),
    questions: deps.questions,
    values,
    answers,
    problems,
    // A new key for each form shown: a post of it is one submission, however often the browser sends it.
    idempotencyKey: randomUUID(),
    attribution: visit.attribution,
    visitorZone: visit.zone,
    texts: deps.texts,
  });

  /** The zone a visitor chose, when this server knows it; the booking zone until they choose. */
  const zoneOf = (value: unknown): string =>
    (typeof value === 'string' && value.length <= TIME_ZONE_MAX_LENGTH ? knownTimeZone(value) : undefined) ??
    deps.timeZone;

  /** Answers a page for an error no form can show: the database out of reach, a token that opens nothing. */
  const noticeFor = (error: ApiError): NoScriptPage =>
    error.status === 404 || error.status === 410
      ? error.status === 404
        ? NOT_FOUND_PAGE
        : { kind: 'notice', title: 'This demo is no longer kept', text: error.details }
      : unavailablePage(error.details);

  /** Reads the booking a token opens, answering the page that says why when there is none to show. */
  const bookingOr = async (ctx: Context, token: string): Promise<BookingView | undefined> => {
    try {
      const booking = await deps.readBooking(token);
      if (booking) return booking;
      await send(ctx, 404, NOT_FOUND_PAGE);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableError)) throw error;
      ctx.set('Retry-After', String(BOOKING_RETRY_AFTER_SECONDS));
      await send(ctx, 503, unavailablePage(error.details));
    }
    return undefined;
  };

  const fromThisSite = async (ctx: Context, next: Next): Promise<void> => {
    const elsewhere = fromAnotherSite(ctx, publicOrigin);
    if (!elsewhere) return next();
    (ctx.state.log as Logger | undefined)?.warn({ ip: ctx.ip, ...elsewhere }, 'form post from another site refused');
    await send(ctx, 403, CROSS_SITE_PAGE);
  };

  /** The form's body, parsed here (app.ts leaves it), and its one-time key put aside for the booking's steps. */
  const formBody = async (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.is('application/x-www-form-urlencoded'))
      throw new ApiError(415, 'Unsupported media type', 'Send the form as the page does.');
    await parseForm(ctx, async () => {
      const body = ctx.request.body as Record<string, unknown>;
      const key = body[FORM_KEY_FIELD];
      delete body[FORM_KEY_FIELD];
      gatherAnswers(body);
      gatherAttribution(body);
      consentOfForm(body);
      (ctx.state as FormIdempotencyKey).idempotencyKey = typeof key === 'string' ? key : '';
      await next();
    });
  };

  /** Sends what an ApiError of a page's post says, as `page` shows it, with the 429's Retry-After. */
  const refused = async (ctx: Context, error: ApiError, page: () => Promise<NoScriptPage>): Promise<void> => {
    if (error instanceof TooManyRequestsError) ctx.set('Retry-After', String(error.retryAfterSeconds));
    if (error.status >= 500) ctx.app.emit('error', error, ctx);
    await send(ctx, error.status, await page());
  };

  router.get(BOOK_PATH, async (ctx) => {
    const from = fromOf(ctx);
    const visit: Visit = {
      attribution: visitAttribution(
        new URL(ctx.originalUrl, publicOrigin),
        ctx.get('Referer'),
        // Koa's ctx.origin is the Origin header (Koa 3): the request's own is its scheme and host.
        new Set([publicOrigin, `${ctx.protocol}://${ctx.host}`]),
      ),
      zone: zoneOf(ctx.query[ZONE_PARAMETER]),
      ...(from ? { from } : {}),
    };
    await send(ctx, 200, await bookForm(ctx, visit, {}, { fields: {} }));
  });

  /**
   * The route of a form posted with a slot its hosts could not take, and that slot's day; undefined without routing
   * or when the route cannot be told (the steps refused the answers or the address before the slot).
   */
  const routeOfPost = async (values: FormValues, answers: RoutingAnswers): Promise<ChoicesFor | undefined> => {
    const { routing } = deps;
    const slot = values.timeSlot ? new Date(values.timeSlot) : undefined;
    if (!routing?.routed || !values.email || !slot || Number.isNaN(slot.getTime())) return undefined;
    try {
      // No one is asked to write anywhere here: a prospect with no route never reached the slot's 409.
      const route = await routeProspect(routing, values.email.trim(), answers, '');
      return { route: keyedRouteOf(route), from: calendarDayOf(slot, deps.timeZone) };
    } catch (error) {
      if (error instanceof ApiError) return undefined;
      throw error;
    }
  };

  const bookAnswer: Middleware = async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = pageError(caught);
      if (error instanceof NotRoutedError) return refused(ctx, error, () => Promise.resolve(notRoutedPage(error)));
      // What was typed, as it came: the steps take off only the key and the honeypot, and check a copy.
      const values = typedValues(ctx.request.body);
      const fields = [...DEMO_REQUEST_FIELDS, ...deps.questions.map((question) => answerField(question.id))];
      const answers = chosenAnswers(ctx.request.body);
      // The route's hosts were all taken at that slot: the form offers their free slots, that day's first.
      const only = routeConflict(error) ? await routeOfPost(values, answers) : undefined;
      const body = ctx.request.body as { visitorTimeZone?: unknown } | undefined;
      const visit = { attribution: postedAttribution(body), zone: zoneOf(body?.visitorTimeZone) };
      return refused(ctx, error, () => bookForm(ctx, visit, values, problemsOf(error, fields), answers, only));
    }
    // The booking made, the one this key made before, or the honeypot's answer, which opens like one.
    const { invitePath } = ctx.body as BookingCreated;
    ctx.status = 303;
    ctx.redirect(bookingPaths(tokenOfInvitePath(invitePath)).confirmation);
  };
  router.post(BOOK_PATH, fromThisSite, bookAnswer, formBody, ...deps.bookSteps);

  router.get('/booking/:token/confirmation', async (ctx) => {
    const booking = await bookingOr(ctx, tokenOf(ctx));
    if (booking) await send(ctx, 200, { kind: 'booked', token: tokenOf(ctx), booking });
  });

  const moveForm = async (
    ctx: Context,
    token: string,
    booking: BookingView,
    problems: FormProblems,
    chosen?: string,
    from?: string,
  ) =>
    booking.status === 'cancelled'
      ? ({ kind: 'cancelled', token, booking } as const)
      : ({
          kind: 'move',
          token,
          booking,
          choices: await slotChoices(ctx, undefined, from),
          problems,
          ...(chosen ? { chosen } : {}),
        } as const);

  router.get('/booking/:token/move', async (ctx) => {
    const booking = await bookingOr(ctx, tokenOf(ctx));
    if (booking)
      await send(ctx, 200, await moveForm(ctx, tokenOf(ctx), booking, { fields: {} }, undefined, fromOf(ctx)));
  });
  router.post(
    '/booking/:token/move',
    fromThisSite,
    async (ctx, next) => {
      const token = tokenOf(ctx);
      try {
        await next();
      } catch (caught) {
        const error = pageError(caught);
        const chosen = typedValues(ctx.request.body).timeSlot;
        if (error.status === 404 || error.status === 410 || error.status === 503)
          return refused(ctx, error, () => Promise.resolve(noticeFor(error)));
        const booking = await bookingOr(ctx, token);
        if (booking)
          await refused(ctx, error, () => moveForm(ctx, token, booking, problemsOf(error, ['timeSlot']), chosen));
        return;
      }
      await send(ctx, 200, { kind: 'moved', token, booking: ctx.body as BookingView });
    },
    formBody,
    ...deps.changeSteps.reschedule,
  );

  router.get('/booking/:token/cancel', async (ctx) => {
    const token = tokenOf(ctx);
    const booking = await bookingOr(ctx, token);
    if (!booking) return;
    await send(
      ctx,
      200,
      booking.status === 'cancelled'
        ? { kind: 'cancelled', token, booking }
        : { kind: 'cancel', token, booking, problems: { fields: {} } },
    );
  });
  router.post(
    '/booking/:token/cancel',
    fromThisSite,
    async (ctx, next) => {
      const token = tokenOf(ctx);
      try {
        await next();
      } catch (caught) {
        const error = pageError(caught);
        if (error.status === 404 || error.status === 410 || error.status === 503)
          return refused(ctx, error, () => Promise.resolve(noticeFor(error)));
        const booking = await bookingOr(ctx, token);
        if (booking)
          await refused(ctx, error, () =>
            Promise.resolve({ kind: 'cancel', token, booking, problems: problemsOf(error, []) }),
          );
        return;
      }
      await send(ctx, 200, { kind: 'cancelled', token, booking: ctx.body as BookingView });
    },
    formBody,
    ...deps.changeSteps.cancel,
  );
  return router;
}
