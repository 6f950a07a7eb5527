import type { TypedMutationOnQueryStarted } from '@reduxjs/toolkit/query';
import { createApi } from '@reduxjs/toolkit/query/react';
import type { DaySlots } from '../../domain/booking.js';
import {
  IDEMPOTENCY_HEADER,
  type BookingView,
  type BookingCreated,
  type DemoRequestInput,
  type HONEYPOT_FIELD,
  type RescheduleInput,
} from '../../domain/demo-request.js';
import type { EmailValidationResult } from '../../domain/email-messages.js';
import type { RoutingAnswers, RoutingQuestion } from '../../domain/routing.js';
import { baseQuery, type ApiCallFailure } from './api-base-query.js';

/** A booking-zone day's slots, one tag per day (id YYYY-MM-DD). */
export const SLOTS_TAG = 'Slots';
/** A booking reached through its link, one tag per token. */
export const BOOKING_TAG = 'Booking';

/** What the form posts: the request, and the honeypot field when something filled it. */
export type DemoRequestBody = DemoRequestInput & Partial<Record<typeof HONEYPOT_FIELD, string>>;

export interface DemoRequestSubmission {
  body: DemoRequestBody;
  /** The same for a retry of the same submission, so the API books it once (see idempotency-key.ts). */
  idempotencyKey: string;
}

/**
 * A day's slots to ask for: its date (YYYY-MM-DD), or the date and a route key (POST /api/routing's answer), with
 * which only the slots of the prospect's route count.
 */
export type DaySlotsArg = string | { date: string; route: string };

const dateOf = (arg: DaySlotsArg): string => (typeof arg === 'string' ? arg : arg.date);

/** A change's answer is the booking as it now stands: it replaces the cached one, with no second GET. */
const showAnswer: TypedMutationOnQueryStarted<BookingView, { token: string }, typeof baseQuery, 'api'> = async (
  { token },
  { dispatch, queryFulfilled },
) => {
  // Runs once the endpoint is called, long after `api` below exists.
  try {
    const { data } = await queryFulfilled;
    dispatch(api.util.updateQueryData('booking', token, () => data));
  } catch {
    // A failure is the caller's to show; the cache keeps what the server last said.
  }
};

/** The one createApi of the client. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [SLOTS_TAG, BOOKING_TAG],
  // Cached data never goes stale and nothing refetches on its own.
  keepUnusedDataFor: Infinity,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: (build) => ({
    /** Which slots of a booking-zone day (YYYY-MM-DD) can still be booked. */
    daySlots: build.query<DaySlots, DaySlotsArg>({
      query: (arg) => ({
        url:
          typeof arg === 'string'
            ? `/api/slots?date=${encodeURIComponent(arg)}`
            : `/api/slots?date=${encodeURIComponent(arg.date)}&route=${encodeURIComponent(arg.route)}`,
      }),
      providesTags: (_result, _error, arg) => [{ type: SLOTS_TAG, id: dateOf(arg) }],
    }),
    /** The questions the dialog asks before its calendar; none without a team that asks any. */
    routingQuestions: build.query<{ questions: RoutingQuestion[]; routed?: boolean; texts?: boolean }, void>({
      query: () => ({ url: '/api/routing' }),
    }),
    /** The prospect's route: its key, for the slots; the e-mail address goes in the body, never in a URL. */
    routeProspect: build.mutation<{ route: string }, { email: string; answers: RoutingAnswers; source?: string }>({
      query: (body) => ({ url: '/api/routing', method: 'POST', body }),
    }),
    submitDemoRequest: build.mutation<BookingCreated, DemoRequestSubmission>({
      query: ({ body, idempotencyKey }) => ({
        url: '/api/demo-request',
        method: 'POST',
        body,
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      // A booking fills a slot, and a 409 says one filled up since the picker asked: either way the days shown
      // are out of date. Other failures changed nothing on the server.
      invalidatesTags: (_result, error) => {
        if (!error) return [SLOTS_TAG];
        return error.status === 409 ? [SLOTS_TAG] : [];
      },
    }),
    validateEmail: build.mutation<EmailValidationResult, { email: string }>({
      query: (body) => ({ url: '/api/validate-email', method: 'POST', body }),
    }),
    /** The booking behind a link's token (the manage page at /booking/{token}). */
    booking: build.query<BookingView, string>({
      query: (token) => ({ url: bookingUrl(token) }),
      providesTags: (_result, _error, token) => [{ type: BOOKING_TAG, id: token }],
    }),
    rescheduleBooking: build.mutation<BookingView, { token: string } & RescheduleInput>({
      query: ({ token, timeSlot }) => ({ url: `${bookingUrl(token)}/reschedule`, method: 'POST', body: { timeSlot } }),
      onQueryStarted: showAnswer,
      invalidatesTags: (_result, error, { token }) => afterBookingChange(token, error),
    }),
    cancelBooking: build.mutation<BookingView, { token: string }>({
      // The API takes a JSON body on every POST; a cancellation has nothing to say.
      query: ({ token }) => ({ url: `${bookingUrl(token)}/cancel`, method: 'POST', body: {} }),
      onQueryStarted: showAnswer,
      invalidatesTags: (_result, error, { token }) => afterBookingChange(token, error),
    }),
  }),
});

function bookingUrl(token: string): string {
  return `/api/bookings/${encodeURIComponent(token)}`;
}

type BookingChangeTags = (typeof SLOTS_TAG | { type: typeof BOOKING_TAG; id: string })[];

/**
 * A reschedule or a cancellation frees a slot (and a reschedule fills one): the days shown are out of date. A 409
 * (the slot filled up, or the booking was cancelled meanwhile) or a 404 says the page's copy is stale: both are read
 * again. Other failures changed nothing on the server.
 */
function afterBookingChange(token: string, error: ApiCallFailure | undefined): BookingChangeTags {
  if (!error) return [SLOTS_TAG];
  return error.status === 409 || error.status === 404 ? [SLOTS_TAG, { type: BOOKING_TAG, id: token }] : [];
}

export const {
  useBookingQuery,
  useCancelBookingMutation,
  useDaySlotsQuery,
  useRescheduleBookingMutation,
  useRouteProspectMutation,
  useRoutingQuestionsQuery,
  useSubmitDemoRequestMutation,
  useValidateEmailMutation,
} = api;
