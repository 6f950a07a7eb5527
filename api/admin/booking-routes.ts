/**
 * The bookings for operations and the sales page, behind the operations token or the sales page's session
 * (sessions.ts): the list (`GET /api/demo-requests`, newest first by keyset, with search and filters), its CSV export
 * (the same filters, streamed page by page), one booking with its history, and marking after the demo whether the
 * prospect came (each mark a webhook event).
 */
import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type * as oas from 'openapi3-ts/oas31';
import { ATTRIBUTION_MAX_LENGTH } from '../../domain/attribution.js';
import { formatCalendarDay, parseCalendarDay, zonedTimeToInstant, calendarDayOf } from '../../domain/booking.js';
import { aliasOf } from '../route-alias.js';
import { readUnlessDatabaseDown, unlessDatabaseDown, type Db } from '../db.js';
import { enqueueStored, type DeliveryQueue } from '../delivery-queue.js';
import { ApiError } from '../errors.js';
import { validateBody } from '../validation.js';
import { LIST_STATUSES, type ListStatus } from '../../domain/sales.js';
import {
  listBookings,
  SearchTooBroad,
  type BookingFilters,
  type BookingPage,
  type ListPosition,
} from './bookings-list.js';
import { bookingsCsv, EXPORT_PAGE } from './bookings-csv.js';
import type { RoutingQuestion } from '../../domain/routing.js';
import { markAttendance, readBookingDetail, type TeamMember } from './repository.js';
import {
  adminOrSession,
  answer,
  bodyRefusals,
  json,
  refused,
  sessionRefusals,
  unchanged,
  unreadable,
  uuidParameter,
  type OpenApiPart,
} from '../openapi-parts.js';
import { csrfParameter, csrfRefusal } from './sessions.js';
import { bookingDetailSchema, demoRequestListSchema, markSchema, type MarkRequest } from './schemas.js';

export const LIST_LIMIT = 100;
export const SEARCH_MAX_LENGTH = 200;

/** The `next` cursor of the operations list: its page's last position, as opaque text. */
export function cursorOf(position: ListPosition): string {
  return Buffer.from(`${position.createdAt} ${position.id}`).toString('base64url');
}

const POSITION =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z) ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The position a `cursor` names; a 400 for anything no page of the list gave. */
function positionOf(cursor: string): ListPosition {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw new ApiError(400, 'Invalid cursor', 'The cursor must be the `next` value of an earlier page of this list.');
  return { createdAt: match[1]!, id: match[2]! };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const invalidFilter = (field: string, message: string) =>
  new ApiError(400, 'Invalid filter', message, { [field]: message });

/** One text parameter of the query (the first when repeated), trimmed; undefined when absent or empty. */
function textParameter(ctx: Context, name: string, maxLength: number): string | undefined {
  const raw = ctx.query[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (value.length > maxLength) throw invalidFilter(name, `${name} must be at most ${maxLength} characters.`);
  return value;
}

/**
 * The list's filters from the query: q (a prefix of the name, company, e-mail address or its domain), status,
 * from and to (days, YYYY-MM-DD, of the slot in the booking zone, both included), host (an e-mail address) and
 * source (utm_source).
 */
export function filtersOf(ctx: Context, timeZone: string): BookingFilters {
  const filters: BookingFilters = {};
  const search = textParameter(ctx, 'q', SEARCH_MAX_LENGTH);
  if (search) filters.search = search;
  const status = textParameter(ctx, 'status', 20);
  if (status !== undefined) {
    if (!(LIST_STATUSES as readonly string[]).includes(status))
      throw invalidFilter('status', `status must be one of ${LIST_STATUSES.join(', ')}.`);
    filters.status = status as ListStatus;
  }
  const dayOf = (name: 'from' | 'to') => {
    const text = textParameter(ctx, name, 10);
    if (text === undefined) return undefined;
    const day = parseCalendarDay(text);
    if (!day) throw invalidFilter(name, `${name} must be a day written YYYY-MM-DD.`);
    return day;
  };
  const from = dayOf('from');
  const to = dayOf('to');
  if (from) filters.slotFrom = zonedTimeToInstant(from, 0, timeZone);
  // The day after `to`, at midnight in the booking zone: `to` is included.
  if (to) filters.slotTo = zonedTimeToInstant({ ...to, day: to.day + 1 }, 0, timeZone);
  const host = textParameter(ctx, 'host', 320);
  if (host) filters.host = host;
  const source = textParameter(ctx, 'source', ATTRIBUTION_MAX_LENGTH);
  if (source) filters.source = source;
  return filters;
}

const noBooking = () => new ApiError(404, 'Not found', 'There is no booking with this id.');

/** A page of the list, or a 422 that says what to do when its search could not be read in time (SearchTooBroad). */
async function listPage(
  db: Db,
  limit: number,
  after: ListPosition | undefined,
  filters: BookingFilters,
): Promise<BookingPage> {
  try {
    return await listBookings(db, limit, after, filters);
  } catch (err) {
    if (!(err instanceof SearchTooBroad)) throw err;
    throw new ApiError(
      422,
      'Search too broad',
      'Too many bookings start with this search, most of them long ago, to list them in time. Type more of the name, the company or the address, or add a filter.',
      { q: 'Type more of it, or add a filter.' },
    );
  }
}

export interface AdminBookingDeps {
  db: Db;
  queue: DeliveryQueue;
  logger: Logger;
  timeZone: string;
  now: () => Date;
  /** The operations token or the sales page's session (sessions.ts). */
  requireAdmin: (ctx: Context, next: Next) => Promise<void>;
  /** The team's hosts (TEAM_FILE), whom a booking may be handed to; none without a team. */
  team?: readonly TeamMember[];
  /** The team file's questions, whose labels the booking's answers are shown with; none without them. */
  questions?: readonly RoutingQuestion[];
}

/** The operations list of the bookings, beside each booking's own path (/api/admin/bookings/:id). */
export const BOOKING_LIST_PATH = '/api/admin/bookings';
/** The list's first path, kept as an alias. */
export const DEMO_REQUEST_LIST_PATH = '/api/demo-requests';

export function adminBookingRoutes(deps: AdminBookingDeps): Router {
  const router = new Router();
  const noStore = async (ctx: Context, next: Next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
  // The bookings, newest first, and where each confirmation stands; `next` is the cursor of the page after
  // (?cursor=), null on the last page. The filters (filtersOf) narrow it.
  const list = [
    deps.requireAdmin,
    noStore,
    async (ctx: Context) => {
      const { cursor } = ctx.query;
      const after = typeof cursor === 'string' && cursor !== '' ? positionOf(cursor) : undefined;
      const filters = filtersOf(ctx, deps.timeZone);
      const page = await readUnlessDatabaseDown(
        () => listPage(deps.db, LIST_LIMIT, after, filters),
        deps.logger,
        'demo requests',
      );
      ctx.body = { demoRequests: page.bookings, next: page.next ? cursorOf(page.next) : null };
    },
  ] as const;
  router.get(BOOKING_LIST_PATH, ...list);
  router.get(DEMO_REQUEST_LIST_PATH, ...aliasOf(list));

  const csvExport = [
    deps.requireAdmin,
    noStore,
    async (ctx: Context) => {
      const filters = filtersOf(ctx, deps.timeZone);
      // The first page is read before answering, so a database that is down is a 503, not a cut-off file.
      const first = await readUnlessDatabaseDown(
        () => listPage(deps.db, EXPORT_PAGE, undefined, filters),
        deps.logger,
        'export',
      );
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set(
        'Content-Disposition',
        `attachment; filename="bookings-${formatCalendarDay(calendarDayOf(deps.now(), deps.timeZone))}.csv"`,
      );
      ctx.body = Readable.from(bookingsCsv(deps.db, filters, first, deps.timeZone));
    },
  ] as const;
  router.get(`${BOOKING_LIST_PATH}.csv`, ...csvExport);
  router.get(`${DEMO_REQUEST_LIST_PATH}.csv`, ...aliasOf(csvExport));

  router.get('/api/admin/bookings/:id', deps.requireAdmin, noStore, async (ctx) => {
    const id = ctx.params.id ?? '';
    if (!UUID.test(id)) throw noBooking();
    const booking = await readUnlessDatabaseDown(
      () => readBookingDetail(deps.db, id, deps.team, deps.questions),
      deps.logger,
      'booking',
    );
    if (!booking) throw noBooking();
    ctx.body = booking;
  });

  router.post(
    '/api/admin/bookings/:id/attendance',
    deps.requireAdmin,
    noStore,
    validateBody<MarkRequest>({
      schema: markSchema,
      messages: () => 'attendance must be attended or no_show.',
      summary: 'Invalid mark',
    }),
    async (ctx) => {
      const id = ctx.params.id ?? '';
      if (!UUID.test(id)) throw noBooking();
      const { attendance } = ctx.state.body;
      const marked = await unlessDatabaseDown(
        () => markAttendance(deps.db, id, attendance, deps.now()),
        deps.logger,
        'attendance not marked',
        'We could not reach our records right now. Nothing was changed; please try again in a few minutes.',
      );
      if (marked.outcome === 'refused') {
        if (marked.refusal === 'not-found') throw noBooking();
        if (marked.refusal === 'cancelled')
          throw new ApiError(
            409,
            'Booking cancelled',
            'This demo was cancelled, so it can be marked neither attended nor no-show.',
          );
        throw new ApiError(409, 'Demo not held yet', "This demo's time has not come yet: mark it once it has started.");
      }
      await enqueueStored(deps.queue, marked.jobs, deps.logger.child({ bookingId: id }));
      if (marked.outcome === 'marked') deps.logger.info({ bookingId: id, attendance }, 'booking attendance marked');
      const booking = await readUnlessDatabaseDown(
        () => readBookingDetail(deps.db, id, deps.team, deps.questions),
        deps.logger,
        'booking',
      );
      ctx.body = booking;
    },
  );
  return router;
}

const listFilterParameters: oas.ParameterObject[] = [
  {
    name: 'q',
    in: 'query',
    required: false,
    description: 'A prefix, in any case, of the name, the company, the e-mail address or its domain.',
    schema: { type: 'string', maxLength: SEARCH_MAX_LENGTH },
  },
  {
    name: 'status',
    in: 'query',
    required: false,
    description: 'booked: not cancelled and not marked yet; cancelled; attended; no_show.',
    schema: { type: 'string', enum: [...LIST_STATUSES] },
  },
  {
    name: 'from',
    in: 'query',
    required: false,
    description: 'Slots on this day (in the booking zone) or later.',
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'to',
    in: 'query',
    required: false,
    description: 'Slots on this day (in the booking zone) or earlier.',
    schema: { type: 'string', format: 'date' },
  },
  {
    name: 'host',
    in: 'query',
    required: false,
    description: "The host's e-mail address (with a team).",
    schema: { type: 'string' },
  },
  {
    name: 'source',
    in: 'query',
    required: false,
    description: "The attribution's utm_source, exactly.",
    schema: { type: 'string' },
  },
];

const alias = (path: string) => `The first path of ${path}, kept as an alias: the same route.`;

const listOperation: oas.OperationObject = {
  summary:
    'For operations and the sales page: the bookings, newest first, 100 a page, and where each confirmation stands; the filters all apply together. Absent when no ADMIN_TOKEN is set.',
  ...adminOrSession,
  parameters: [
    ...listFilterParameters,
    {
      name: 'cursor',
      in: 'query',
      required: false,
      description: 'The `next` of the page before; absent for the first page. Any page answers as fast as the first.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    '200': answer('Newest first; `next` leads to the page after.', 'DemoRequestList'),
    '400': refused('The cursor is not one this list gave, or a filter is not valid (`fields` says which).'),
    '422': refused(
      'The search (`q`) matches more than 5,000 bookings, most of them long ago, and the page could not be read within 5 s: type more of it, or add a filter.',
    ),
    ...sessionRefusals,
    '503': unreadable,
  },
};

const exportOperation: oas.OperationObject = {
  summary:
    'For operations and the sales page: every booking the filters select, newest first, as CSV (streamed); a cell starting with =, +, - or @ is written with a leading apostrophe.',
  ...adminOrSession,
  parameters: listFilterParameters,
  responses: {
    '200': {
      description: 'RFC 4180 CSV, every cell quoted, one header line.',
      content: { 'text/csv': { schema: { type: 'string' } } },
    },
    '400': refused('A filter is not valid (`fields` says which).'),
    '422': refused(
      'The search (`q`) matches more than 5,000 bookings, most of them long ago, and its first page could not be read within 5 s: type more of it, or add a filter.',
    ),
    ...sessionRefusals,
    '503': unreadable,
  },
};

export const adminBookingsOpenApi: OpenApiPart = {
  paths: {
    [BOOKING_LIST_PATH]: { get: { operationId: 'listBookings', ...listOperation } },
    [DEMO_REQUEST_LIST_PATH]: {
      get: { operationId: 'listDemoRequests', ...listOperation, description: alias(BOOKING_LIST_PATH) },
    },
    [`${BOOKING_LIST_PATH}.csv`]: { get: { operationId: 'exportBookings', ...exportOperation } },
    [`${DEMO_REQUEST_LIST_PATH}.csv`]: {
      get: { operationId: 'exportDemoRequests', ...exportOperation, description: alias(`${BOOKING_LIST_PATH}.csv`) },
    },
    '/api/admin/bookings/{id}': {
      get: {
        operationId: 'bookingDetail',
        summary:
          "For operations and the sales page: one booking with its history (booked, moves, reassignments, cancellation, marks), its e-mails and its webhook deliveries, the prospect's answers and how its host was chosen (`routing`), and the hosts it may be handed to.",
        ...adminOrSession,
        parameters: [uuidParameter('id', "The booking's id.")],
        responses: {
          '200': answer('The booking.', 'BookingDetail'),
          '404': refused('No such booking.'),
          ...sessionRefusals,
          '503': unreadable,
        },
      },
    },
    '/api/admin/bookings/{id}/attendance': {
      post: {
        operationId: 'markAttendance',
        summary:
          "After the demo's time: mark it attended or no-show (a correction may change the mark). Each new mark raises booking.attended or booking.no_show; the same mark again changes nothing.",
        ...adminOrSession,
        parameters: [uuidParameter('id', "The booking's id."), csrfParameter],
        requestBody: { required: true, content: json('AttendanceMark') },
        responses: {
          '200': answer('The booking as it now stands.', 'BookingDetail'),
          ...bodyRefusals,
          ...csrfRefusal,
          '404': refused('No such booking.'),
          '409': refused('The booking is cancelled, or its time has not come yet.'),
          ...sessionRefusals,
          '503': unchanged,
        },
      },
    },
  },
  components: {
    schemas: { DemoRequestList: demoRequestListSchema, BookingDetail: bookingDetailSchema, AttendanceMark: markSchema },
  },
};
