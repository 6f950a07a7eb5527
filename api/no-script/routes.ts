/**
 * The booking pages that work without script, answered as pages the server renders (web/app/no-script-prerender.tsx,
 * into the build's no-script.html): GET /book, the booking form with the free slots of the next working days as radio
 * buttons and a one-time idempotency key; POST /book, the form posted, through the very steps of POST /api/bookings
 * (its rate limit, honeypot, validation, ceilings and idempotency: request-routes.ts), answered with 303 to the
 * booking's confirmation (GET /booking/{token}/confirmation) or the form again with each error beside its field
 * (the team file's questions asked on it too; a prospect the routes turn away reads their words as a page, 422);
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
import { calendarDayOf, formatCalendarDay, isWeekend, oneMonthAfter, type CalendarDay } from '../../domain/booking.js';
import type { Contact } from '../../domain/brand.js';
import { DEMO_REQUEST_FIELDS, type BookingCreated, type BookingView } from '../../domain/demo-request.js';
import {
  BOOK_PATH,
  bookingPaths,
  FORM_DAYS,
  FORM_KEY_FIELD,
  type FormProblems,
  type FormValues,
  type NoScriptPage,
  type SlotChoices,
} from '../../domain/no-script-pages.js';
import { escapeHtml } from '../../domain/text.js';
import { clientKeyOf } from '../client-network.js';
import { ApiError, ServiceUnavailableError, TooManyRequestsError } from '../errors.js';
import { fromAnotherSite } from '../same-site.js';
import type { DaySlotsRead } from '../slots/routes.js';
import { BOOKING_RETRY_AFTER_SECONDS, FOOTER, policyOf, withContact, type BookingViewReader } from '../web.js';
import type { demoRequestSteps, FormIdempotencyKey } from '../bookings/request-routes.js';
import type { bookingChangeSteps } from '../bookings/routes.js';
import { NotRoutedError } from '../routing/route-answer.js';
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
  /** The day's slots, as the slot list answers them (slots/routes.ts). */
  readDay: (date: string, day: CalendarDay, clientKey: string) => Promise<DaySlotsRead>;
  readBooking: BookingViewReader;
  /** The team file's questions, asked on the form before its slots; none without them. */
  questions: readonly RoutingQuestion[];
  bookSteps: ReturnType<typeof demoRequestSteps>;
  changeSteps: ReturnType<typeof bookingChangeSteps>;
}

/** The booking's token in the invitation path a booking's answer carries (/api/bookings/{token}/invite.ics). */
function tokenOfInvitePath(invitePath: string): string {
  const token = /^\/api\/bookings\/([^/]+)\/invite\.ics$/.exec(invitePath)?.[1];
  if (!token) throw new Error('a booking answer without its invitation path');
  return token;
}

/** The texts of the form's fields the visitor typed (a repeated field is no text: the validation says so). */
function typedValues(body: unknown): FormValues {
  const values: FormValues = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const field of DEMO_REQUEST_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

/** The answers chosen on the form (after formBody gathered them), kept when the form comes back. */
function chosenAnswers(body: unknown): RoutingAnswers {
  const answers = (body as { answers?: unknown } | null)?.answers;
  if (typeof answers !== 'object' || answers === null) return {};
  return Object.fromEntries(
    Object.entries(answers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * The form's answers, each posted as its own field `answers.<id>` (a native select), gathered into the `answers`
 * the API's body has; none when the form asks no question.
 */
function gatherAnswers(body: Record<string, unknown>): void {
  const answers: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    if (!key.startsWith(ANSWER_PREFIX)) continue;
    answers[key.slice(ANSWER_PREFIX.length)] = body[key];
    delete body[key];
  }
  if (Object.keys(answers).length > 0) body.answers = answers;
}
const ANSWER_PREFIX = answerField('');

/** The page a prospect the routes turned away reads instead of the form: the route's words, or where to write. */
const notRoutedPage = (error: NotRoutedError): NoScriptPage => ({
  kind: 'notice',
  title: error.kind === 'disqualified' ? 'Thank you for your interest' : 'We cannot book this demo online',
  text: error.details,
});

/** A refusal as the form shows it: each known field's message beside it, anything else above the form. */
function problemsOf(error: ApiError, fields: readonly string[]): FormProblems {
  const beside: Partial<Record<string, string>> = {};
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    if (fields.includes(field)) beside[field] = message;
    else elsewhere.push(message);
  }
  const summary = elsewhere.length > 0 ? elsewhere.join(' ') : error.fields ? undefined : error.details;
  return { fields: beside, ...(summary ? { summary } : {}) };
}

const NOT_FOUND_PAGE: NoScriptPage = {
  kind: 'notice',
  title: 'This link does not open a booking',
  text: 'The link may be incomplete, or it was changed on the way. Open it again from your confirmation e-mail, or book a new demo on our home page.',
};
const CROSS_SITE_PAGE: NoScriptPage = {
  kind: 'notice',
  title: 'This form came from another site',
  text: 'It was refused, and nothing was booked or changed. Please use the form on our own site.',
};
/**
 * An error a form's page shows: the steps' ApiErrors, and the body parser's refusal of a form past its size; anything
 * else is a fault, for the error middleware.
 */
function pageError(caught: unknown): ApiError {
  if (caught instanceof ApiError) return caught;
  const status = (caught as { status?: unknown } | null)?.status;
  if (status === 413)
    return new ApiError(413, 'Payload too large', 'The form is longer than we take. Please shorten your message.');
  throw caught;
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

  /** The free slots of the next working days that have one, as the slot list answers them to this client. */
  const slotChoices = async (ctx: Context): Promise<SlotChoices> => {
    const now = deps.now();
    const last = calendarDayOf(oneMonthAfter(now, deps.timeZone), deps.timeZone);
    const lastDate = formatCalendarDay(last);
    const candidates: { date: string; day: CalendarDay }[] = [];
    const first = calendarDayOf(now, deps.timeZone);
    for (let offset = 0; ; offset += 1) {
      const at = new Date(Date.UTC(first.year, first.month - 1, first.day + offset));
      const day = { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
      const date = formatCalendarDay(day);
      if (date > lastDate) break;
      if (!isWeekend(day)) candidates.push({ date, day });
    }
    const clientKey = clientKeyOf(ctx);
    const days: SlotChoices['days'][number][] = [];
    let calendarsUnreadable = false;
    let salesDesk: string | undefined;
    // A batch of days at a time, until enough have a free slot: most days do, so one batch is the common case.
    for (let start = 0; start < candidates.length && days.length < FORM_DAYS; start += FORM_DAYS) {
      const read = await Promise.all(
        candidates.slice(start, start + FORM_DAYS).map(({ date, day }) => deps.readDay(date, day, clientKey)),
      );
      for (const { answer, hostNames } of read) {
        if (answer.calendarsUnreadable) {
          calendarsUnreadable = true;
          salesDesk = answer.salesDesk;
        }
        const slots = answer.slots
          .filter((slot) => slot.available)
          .map((slot) => {
            const hosts = hostNames?.get(slot.start);
            return hosts ? { start: slot.start, hosts } : { start: slot.start };
          });
        if (slots.length > 0 && days.length < FORM_DAYS) days.push({ date: answer.date, slots });
      }
    }
    return {
      days,
      ...(calendarsUnreadable && days.length === 0 ? { calendarsUnreadable, ...(salesDesk ? { salesDesk } : {}) } : {}),
    };
  };

  const bookForm = async (
    ctx: Context,
    values: FormValues,
    problems: FormProblems,
    answers: RoutingAnswers = {},
  ): Promise<NoScriptPage> => ({
    kind: 'book',
    choices: await slotChoices(ctx),
    questions: deps.questions,
    values,
    answers,
    problems,
    // A new key for each form shown: a post of it is one submission, however often the browser sends it.
    idempotencyKey: randomUUID(),
  });

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

  router.get(BOOK_PATH, async (ctx) => send(ctx, 200, await bookForm(ctx, {}, { fields: {} })));

  const bookAnswer: Middleware = async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = pageError(caught);
      if (error instanceof NotRoutedError) return refused(ctx, error, () => Promise.resolve(notRoutedPage(error)));
      // What was typed, as it came: the steps take off only the key and the honeypot, and check a copy.
      const values = typedValues(ctx.request.body);
      const fields = [...DEMO_REQUEST_FIELDS, ...deps.questions.map((question) => answerField(question.id))];
      return refused(ctx, error, () =>
        bookForm(ctx, values, problemsOf(error, fields), chosenAnswers(ctx.request.body)),
      );
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
  ) =>
    booking.status === 'cancelled'
      ? ({ kind: 'cancelled', token, booking } as const)
      : ({
          kind: 'move',
          token,
          booking,
          choices: await slotChoices(ctx),
          problems,
          ...(chosen ? { chosen } : {}),
        } as const);

  router.get('/booking/:token/move', async (ctx) => {
    const booking = await bookingOr(ctx, tokenOf(ctx));
    if (booking) await send(ctx, 200, await moveForm(ctx, tokenOf(ctx), booking, { fields: {} }));
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
