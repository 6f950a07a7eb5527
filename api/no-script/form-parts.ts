/**
 * The pieces of the booking pages without script that need no request: what a posted form holds (its texts,
 * answers, attribution and consent), the visit's attribution, how a refusal shows on it, the notices shown instead of a form, and the route a refused slot's form offers.
 */
import { ATTRIBUTION_KEYS, ATTRIBUTION_MAX_LENGTH, attributionOf, type Attribution } from '../../domain/attribution.js';
import { SLOT_TAKEN_MESSAGE, type CalendarDay } from '../../domain/booking.js';
import { DEMO_REQUEST_FIELDS } from '../../domain/demo-request.js';
import {
  attributionField,
  type FormProblems,
  type FormValues,
  type NoScriptPage,
} from '../../domain/no-script-pages.js';
import { answerField, type RoutingAnswers } from '../../domain/routing.js';
import { ApiError } from '../errors.js';
import type { NotRoutedError } from '../routing/route-answer.js';
import type { KeyedRoute } from '../routing/route-key.js';

/** The booking's token in the invitation path a booking's answer carries (/api/bookings/{token}/invite.ics). */
export function tokenOfInvitePath(invitePath: string): string {
  const token = /^\/api\/bookings\/([^/]+)\/invite\.ics$/.exec(invitePath)?.[1];
  if (!token) throw new Error('a booking answer without its invitation path');
  return token;
}

/** The texts of the form's fields the visitor typed (a repeated field is no text: the validation says so). */
export function typedValues(body: unknown): FormValues {
  const values: FormValues = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const field of DEMO_REQUEST_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === 'string') values[field] = value;
  }
  // The consent's box, made a boolean for the steps (consentOfForm), comes back ticked.
  if ((body as { smsConsent?: unknown }).smsConsent === true) values.smsConsent = 'true';
  return values;
}

/** The answers chosen on the form (after formBody gathered them), kept when the form comes back. */
export function chosenAnswers(body: unknown): RoutingAnswers {
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
export function gatherAnswers(body: Record<string, unknown>): void {
  const answers: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    if (!key.startsWith(ANSWER_PREFIX)) continue;
    answers[key.slice(ANSWER_PREFIX.length)] = body[key];
    delete body[key];
  }
  if (Object.keys(answers).length > 0) body.answers = answers;
}
export const ANSWER_PREFIX = answerField('');

/** The page a prospect the routes turned away reads instead of the form: the route's words, or where to write. */
export const notRoutedPage = (error: NotRoutedError): NoScriptPage => ({
  kind: 'notice',
  title: error.kind === 'disqualified' ? 'Thank you for your interest' : 'We cannot book this demo online',
  text: error.details,
});

/** A refusal as the form shows it: each known field's message beside it, anything else above the form. */
export function problemsOf(error: ApiError, fields: readonly string[]): FormProblems {
  const beside: Partial<Record<string, string>> = {};
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(error.fields ?? {})) {
    if (fields.includes(field)) beside[field] = message;
    else elsewhere.push(message);
  }
  const summary = elsewhere.length > 0 ? elsewhere.join(' ') : error.fields ? undefined : error.details;
  return { fields: beside, ...(summary ? { summary } : {}) };
}

export const NOT_FOUND_PAGE: NoScriptPage = {
  kind: 'notice',
  title: 'This link does not open a booking',
  text: 'The link may be incomplete, or it was changed on the way. Open it again from your confirmation e-mail, or book a new demo on our home page.',
};
export const CROSS_SITE_PAGE: NoScriptPage = {
  kind: 'notice',
  title: 'This form came from another site',
  text: 'It was refused, and nothing was booked or changed. Please use the form on our own site.',
};
/**
 * An error a form's page shows: the steps' ApiErrors, and the body parser's refusal of a form past its size; anything
 * else is a fault, for the error middleware.
 */
export function pageError(caught: unknown): ApiError {
  if (caught instanceof ApiError) return caught;
  const status = (caught as { status?: unknown } | null)?.status;
  if (status === 413)
    return new ApiError(413, 'Payload too large', 'The form is longer than we take. Please shorten your message.');
  throw caught;
}

/** The slots a form offers: every host's from today, or a route's from the day of the slot it could not take. */
export interface ChoicesFor {
  route: KeyedRoute;
  from: CalendarDay;
}

/** A slot nobody who may host this prospect is free at (the route's hosts all taken: the booking's 409). */
export const routeConflict = (error: ApiError): boolean =>
  error.status === 409 && error.fields?.timeSlot === SLOT_TAKEN_MESSAGE;

/**
 * The visit's attribution as GET /book finds it: the UTM parameters of its own address, or else of the page of this
 * site it was reached from (the landing page's Request Demo link drops the landing address's query, which the
 * Referer still carries); and a referrer from another site. What the dialog sends, read by the server.
 */
export function visitAttribution(address: URL, referer: string, ownOrigins: ReadonlySet<string>): Attribution {
  let from: URL | undefined;
  try {
    from = referer ? new URL(referer) : undefined;
  } catch {
    from = undefined;
  }
  const ownPage = from !== undefined && ownOrigins.has(from.origin);
  // The times form's GET (times-form.tsx) carries the referrer it was first given, as a parameter of its own.
  const found = attributionOf(address, ownPage ? (address.searchParams.get('referrer') ?? '') : (from?.href ?? ''));
  const utm = (attribution: Attribution) => ATTRIBUTION_KEYS.some((key) => key !== 'referrer' && attribution[key]);
  if (!utm(found) && ownPage && from) return { ...attributionOf(from, ''), ...found };
  return found;
}

/**
 * The attribution's hidden fields (attribution.utm_source, …) gathered into the `attribution` object the API's body
 * has; none when the form carried none.
 */
export function gatherAttribution(body: Record<string, unknown>): void {
  const attribution: Record<string, unknown> = {};
  for (const key of ATTRIBUTION_KEYS) {
    const field = attributionField(key);
    if (field in body) attribution[key] = body[field];
    delete body[field];
  }
  if (Object.keys(attribution).length > 0) body.attribution = attribution;
}

/** The attribution a posted form carried (after gatherAttribution), kept when the form comes back. */
export function postedAttribution(body: unknown): Attribution {
  const attribution = (body as { attribution?: unknown } | null)?.attribution;
  if (typeof attribution !== 'object' || attribution === null) return {};
  const kept: Attribution = {};
  for (const key of ATTRIBUTION_KEYS) {
    const value = (attribution as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') kept[key] = value.slice(0, ATTRIBUTION_MAX_LENGTH);
  }
  return kept;
}

/** The consent's box posts "true" when ticked and nothing when not: the API's body has a boolean, or none. */
export function consentOfForm(body: Record<string, unknown>): void {
  if (body.smsConsent === 'true') body.smsConsent = true;
}
