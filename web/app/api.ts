import { createApi } from '@reduxjs/toolkit/query/react';
import type { DemoRequestInput } from '../../domain/demo-request.js';
import type { EmailValidationResult } from '../../domain/email-messages.js';
import { createBaseQuery, joinQueryKey, type KeyedRead, type QueryKey } from './api-base-query.js';

/** The list of demo requests is not shown anywhere; its tag is invalidated after a submit, as the contract asks. */
export const DEMO_REQUESTS_TAG = '/api/demo-requests';

export interface DemoRequestCreated {
  id: string;
  createdAt: string;
  timeSlot: string;
}

/** The one createApi of the client. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: createBaseQuery(),
  tagTypes: [DEMO_REQUESTS_TAG],
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
    submitDemoRequest: build.mutation<DemoRequestCreated, DemoRequestInput>({
      query: (body) => ({ url: '/api/demo-request', method: 'POST', body }),
      invalidatesTags: [DEMO_REQUESTS_TAG],
    }),
    validateEmail: build.mutation<EmailValidationResult, { email: string }>({
      query: (body) => ({ url: '/api/validate-email', method: 'POST', body }),
    }),
  }),
});

export const { useSubmitDemoRequestMutation, useValidateEmailMutation } = api;
