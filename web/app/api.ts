import { createApi } from '@reduxjs/toolkit/query/react';
import type { DaySlots } from '../../domain/booking.js';
import { IDEMPOTENCY_HEADER, type DemoRequestCreated, type DemoRequestInput, type HONEYPOT_FIELD } from '../../domain/demo-request.js';
import type { EmailValidationResult } from '../../domain/email-messages.js';
import { baseQuery, joinQueryKey, type KeyedRead, type QueryKey } from './api-base-query.js';

/** The list of demo requests is not shown anywhere; its tag is invalidated after a submit, as the contract asks. */
export const DEMO_REQUESTS_TAG = '/api/demo-requests';
/** A booking-zone day's slots, one tag per day (id YYYY-MM-DD). */
export const SLOTS_TAG = 'Slots';

/** What the form posts: the request, and the honeypot field when something filled it. */
export type DemoRequestBody = DemoRequestInput & Partial<Record<typeof HONEYPOT_FIELD, string>>;

export interface DemoRequestSubmission {
  body: DemoRequestBody;
  /** The same for a retry of the same submission, so the API books it once (see idempotency-key.ts). */
  idempotencyKey: string;
}

/** The one createApi of the client. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [DEMO_REQUESTS_TAG, SLOTS_TAG],
  // Cached data never goes stale and nothing refetches on its own.
  keepUnusedDataFor: Infinity,
  refetchOnFocus: false,
  refetchOnReconnect: false,
  refetchOnMountOrArgChange: false,
  endpoints: (build) => ({
    /** The default reader: GETs the key's segments joined with "/"; pass { queryKey, on401 } to get null on 401. */
    read: build.query<unknown, QueryKey | KeyedRead>({
      query: (key) => key,
      providesTags: (_result, _error, key) => {
        const segments = Array.isArray(key) ? key : (key as KeyedRead).queryKey;
        return joinQueryKey(segments) === DEMO_REQUESTS_TAG ? [DEMO_REQUESTS_TAG] : [];
      },
    }),
    /** Which slots of a booking-zone day (YYYY-MM-DD) can still be booked. */
    daySlots: build.query<DaySlots, string>({
      query: (date) => ({ url: `/api/slots?date=${encodeURIComponent(date)}` }),
      providesTags: (_result, _error, date) => [{ type: SLOTS_TAG, id: date }],
    }),
    submitDemoRequest: build.mutation<DemoRequestCreated, DemoRequestSubmission>({
      query: ({ body, idempotencyKey }) => ({
        url: '/api/demo-request',
        method: 'POST',
        body,
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
      // A booking fills a slot, and a 409 says one filled up since the picker asked: either way the days shown
      // are out of date. Other failures changed nothing on the server.
      invalidatesTags: (_result, error) => {
        if (!error) return [DEMO_REQUESTS_TAG, SLOTS_TAG];
        return error.status === 409 ? [SLOTS_TAG] : [];
      },
    }),
    validateEmail: build.mutation<EmailValidationResult, { email: string }>({
      query: (body) => ({ url: '/api/validate-email', method: 'POST', body }),
    }),
  }),
});

export const { useDaySlotsQuery, useSubmitDemoRequestMutation, useValidateEmailMutation } = api;
