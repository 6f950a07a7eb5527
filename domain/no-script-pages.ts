/**
 * The booking pages that work without script: the booking form (/book) and a booking's move and cancel steps
 * (/booking/{token}/move, /booking/{token}/cancel). The API renders them (api/no-script/routes.ts) through the web
 * build's server render (web/app/no-script-prerender.tsx), from what is described here.
 */
import { ATTRIBUTION_KEYS, type Attribution, type AttributionKey } from './attribution.js';
import type { BookingView, DemoRequestField } from './demo-request.js';
import type { RoutingAnswers, RoutingQuestion } from './routing.js';

export const BOOK_PATH = '/book';
/** The form's hidden field that carries its one-time idempotency key (the API's Idempotency-Key header). */
export const FORM_KEY_FIELD = 'idempotencyKey';
/** Working days the form offers slots of: those with a slot free, from the first bookable one. */
export const FORM_DAYS = 5;

/**
 * The query parameter of GET /book naming the zone the visitor chose (the zone form above the booking form): the slots
 * show their time in it too, and the booking keeps it as its visitor zone.
 */
export const ZONE_PARAMETER = 'zone';
/** The query parameter of GET /book naming the first day of the week whose slots are shown (YYYY-MM-DD). */
export const FROM_PARAMETER = 'from';

/** The hidden field of one part of the visit's attribution (attribution.utm_source, …), posted as answers are. */
export const attributionField = (key: AttributionKey): string => `attribution.${key}`;
export const ATTRIBUTION_FIELDS = ATTRIBUTION_KEYS.map(attributionField);

/**
 * The query parameter by which the manage page's buttons ask for a step without script (?step=move, ?step=cancel): the
 * server sends the browser on to the step's own page, so the manage page's markup never holds the token.
 */
export const BOOKING_STEP_PARAMETER = 'step';

/** The paths of a booking's own pages: the manage page, its confirmation, its move and cancel steps. */
export const bookingPaths = (token: string) => {
  const manage = `/booking/${encodeURIComponent(token)}`;
  return {
    manage,
    confirmation: `${manage}/confirmation`,
    move: `${manage}/move`,
    cancel: `${manage}/cancel`,
    invite: `/api/bookings/${encodeURIComponent(token)}/invite.ics`,
  };
};

/** A slot that can be booked: its start (ISO), and with a team the hosts free then. */
export interface SlotChoice {
  start: string;
  hosts?: readonly string[];
}

/** A booking-zone day (YYYY-MM-DD) and its free slots. */
export interface DayChoices {
  date: string;
  slots: readonly SlotChoice[];
}

/** The slots a form offers. */
export interface SlotChoices {
  days: readonly DayChoices[];
  /**
   * The first working day of each week the booking window holds (today's, then each Monday to a month from now, as
   * the dialog's calendar offers), YYYY-MM-DD: the booking form shows a week at a time. None on a move's form.
   */
  weeks?: readonly string[];
  /** The day the days shown start from. */
  from?: string;
  /** No host's calendar could be read: nothing is offered, and the page says to write to the sales desk. */
  calendarsUnreadable?: boolean;
  salesDesk?: string;
}

/** What the visitor typed, kept when the form comes back with its errors. */
export type FormValues = Partial<Record<DemoRequestField, string>>;

/** A refusal as the page shows it: each field's message beside it, and what concerns no one field above the form. */
export interface FormProblems {
  fields: Partial<Record<string, string>>;
  /** A refusal of the whole request (a rate limit, the database out of reach, a cross-site post). */
  summary?: string;
}

export interface BookFormPage {
  kind: 'book';
  choices: SlotChoices;
  /** The team file's questions, each a required choice before the slots; none without them. */
  questions: readonly RoutingQuestion[];
  values: FormValues;
  /** The answers chosen, kept when the form comes back. */
  answers: RoutingAnswers;
  problems: FormProblems;
  idempotencyKey: string;
  /** The visit's UTM parameters and outside referrer, carried as hidden fields into the booking. */
  attribution: Attribution;
  /** The zone the visitor chose (the booking zone until they choose one): shown beside each slot, kept as theirs. */
  visitorZone: string;
  /** The site sends texts (SMPP_URL): the form offers the consent beside the phone, unticked. */
  texts: boolean;
}

/** The booking just made (or the one a key already made), or a booking's page after a change without script. */
export interface BookingOutcomePage {
  kind: 'booked' | 'moved' | 'cancelled';
  token: string;
  booking: BookingView;
}

export interface MoveFormPage {
  kind: 'move';
  token: string;
  booking: BookingView;
  choices: SlotChoices;
  /** The slot chosen, when the form comes back. */
  chosen?: string;
  problems: FormProblems;
}

export interface CancelFormPage {
  kind: 'cancel';
  token: string;
  booking: BookingView;
  problems: FormProblems;
}

/** A page that says one thing: no booking at this link, a cross-site post refused, the database out of reach. */
export interface NoticePage {
  kind: 'notice';
  title: string;
  text: string;
}

export type NoScriptPage = BookFormPage | BookingOutcomePage | MoveFormPage | CancelFormPage | NoticePage;
