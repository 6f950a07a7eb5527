/**
 * The sales page's calls (/admin), injected into the one createApi: only the sales page's bundle imports this
 * module, so the landing page's code does not carry them. Changes send the session's CSRF token, which the session
 * answers (the session cookie itself is HttpOnly: scripts never see it).
 */
import type { FunnelReport } from '../../domain/funnel.js';
import type { Attendance, BookingDetail, BookingSummary, ListStatus } from '../../domain/sales.js';
import type { HostShareReport } from '../../domain/routing.js';
import { api } from './api.js';

export const CSRF_HEADER = 'X-CSRF-Token';
const SALES_TAG = 'SalesBooking';

export interface SalesSession {
  csrfToken: string;
  expiresAt: string;
}

/**
 * The list's query parameters as the API takes them (GET /api/admin/bookings and its .csv), as typed in the form;
 * empty ones are left out. The API parses them into its own filters (dates in the booking zone).
 */
export interface BookingListQuery {
  q?: string;
  status?: ListStatus;
  from?: string;
  to?: string;
  host?: string;
  source?: string;
}

interface BookingListPage {
  demoRequests: BookingSummary[];
  next: string | null;
}

/** The filters as a query string (no leading ?), the cursor last. */
export function filterQuery(filters: BookingListQuery, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (typeof value === 'string' && value.trim() !== '') params.set(name, value.trim());
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

export const salesApi = api.enhanceEndpoints({ addTagTypes: [SALES_TAG] }).injectEndpoints({
  endpoints: (build) => ({
    salesSession: build.query<SalesSession, void>({
      query: () => ({ url: '/api/admin/session' }),
    }),
    signIn: build.mutation<SalesSession, { token: string }>({
      query: (body) => ({ url: '/api/admin/session', method: 'POST', body }),
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        try {
          const { data } = await queryFulfilled;
          dispatch(salesApi.util.upsertQueryData('salesSession', undefined, data));
        } catch {
          // The form shows the failure.
        }
      },
    }),
    signOut: build.mutation<null, { csrfToken: string }>({
      query: ({ csrfToken }) => ({
        url: '/api/admin/session',
        method: 'DELETE',
        headers: { [CSRF_HEADER]: csrfToken },
      }),
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        await queryFulfilled.catch(() => undefined);
        // Whatever the answer, the page forgets what it showed.
        dispatch(api.util.resetApiState());
      },
    }),
    /** The bookings the filters select, newest first, a page at a time (keyset: each page's `next` leads on). */
    bookingList: build.infiniteQuery<BookingListPage, BookingListQuery, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.next },
      query: ({ queryArg, pageParam }) => ({ url: `/api/admin/bookings?${filterQuery(queryArg, pageParam)}` }),
      providesTags: [SALES_TAG],
    }),
    bookingDetail: build.query<BookingDetail, string>({
      query: (id) => ({ url: `/api/admin/bookings/${encodeURIComponent(id)}` }),
      providesTags: (_result, _error, id) => [{ type: SALES_TAG, id }],
    }),
    /** The funnel's counts of a range of days (YYYY-MM-DD, both included) and the attendance per source. */
    funnel: build.query<FunnelReport, { from: string; to: string }>({
      query: ({ from, to }) => ({ url: `/api/admin/funnel?${new URLSearchParams({ from, to }).toString()}` }),
      // A mark changes the attendance per source.
      providesTags: [SALES_TAG],
    }),
    markAttendance: build.mutation<BookingDetail, { id: string; attendance: Attendance; csrfToken: string }>({
      query: ({ id, attendance, csrfToken }) => ({
        url: `/api/admin/bookings/${encodeURIComponent(id)}/attendance`,
        method: 'POST',
        body: { attendance },
        headers: { [CSRF_HEADER]: csrfToken },
      }),
      // The list shows the mark too; the booking's own view takes the answer as it is.
      invalidatesTags: (_result, error) => (error ? [] : [SALES_TAG]),
    }),
    /** Each host's share of the demos of the last 28 days, across routes and by route. */
    hostShare: build.query<HostShareReport, void>({
      query: () => ({ url: '/api/admin/hosts/share' }),
      // A reassignment or a cancellation changes the shares.
      providesTags: [SALES_TAG],
    }),
    /** Hands the booking to another host of its route; the answer is the booking as it now stands. */
    reassignBooking: build.mutation<BookingDetail, { id: string; host: string; csrfToken: string }>({
      query: ({ id, host, csrfToken }) => ({
        url: `/api/admin/bookings/${encodeURIComponent(id)}/reassign`,
        method: 'POST',
        body: { host },
        headers: { [CSRF_HEADER]: csrfToken },
      }),
      // The list shows the host, and the hosts' shares count it.
      invalidatesTags: (_result, error) => (error ? [] : [SALES_TAG]),
    }),
  }),
});

export const {
  useSalesSessionQuery,
  useSignInMutation,
  useSignOutMutation,
  useBookingListInfiniteQuery,
  useBookingDetailQuery,
  useMarkAttendanceMutation,
  useReassignBookingMutation,
  useHostShareQuery,
  useFunnelQuery,
} = salesApi;
