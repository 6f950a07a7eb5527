/**
 * GET /api/slots?date=YYYY-MM-DD: a booking-zone day's 17 slots and which of them can still be booked, to the client
 * asking (the honeypot's catches of its network count for it alone: trapped-slots.ts). With &route=<key> (POST
 * /api/routing's), a slot counts as free only while the owner or a host of that route is.
 */
import Router from '@koa/router';
import {
  availableSlots,
  parseCalendarDay,
  slotStartsOf,
  type CalendarDay,
  type DaySlots,
} from '../../domain/booking.js';
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import { readUnlessDatabaseDown } from '../db.js';
import { ApiError } from '../errors.js';
import type { SlotCounts } from './slot-counts.js';
import type { HostCalendars } from '../hosts/calendars.js';
import { teamSlots, type TeamSlots } from './team-slots.js';
import { clientKeyOf } from '../client-network.js';
import { HOST_BOOKINGS_MARGIN_MS } from '../bookings/repository.js';
import type { TrappedSlot, TrappedSlots } from './trapped-slots.js';
import { answer, refused, unreadable, type OpenApiPart } from '../openapi-parts.js';
import { daySlotsSchema } from './schemas.js';
import { STALE_ROUTE_MESSAGE, type KeyedRoute } from '../routing/route-key.js';

/** The slots' counts with what a network's catches took added, as they would be had the catches been bookings. */
function countsWithTrapped(
  counts: ReadonlyMap<string, number>,
  trapped: readonly TrappedSlot[],
): ReadonlyMap<string, number> {
  if (trapped.length === 0) return counts;
  const added = new Map(counts);
  for (const { timeSlot } of trapped) added.set(timeSlot.toISOString(), (added.get(timeSlot.toISOString()) ?? 0) + 1);
  return added;
}

/** The hosts' booked slots with what a network's catches took added, each to the host it was given. */
function hostsWithTrapped(
  held: ReadonlyMap<string, readonly number[]>,
  trapped: readonly TrappedSlot[],
): ReadonlyMap<string, readonly number[]> {
  if (trapped.length === 0) return held;
  const added = new Map(held);
  for (const { timeSlot, hostEmail } of trapped)
    if (hostEmail !== null) added.set(hostEmail, [...(added.get(hostEmail) ?? []), timeSlot.getTime()]);
  return added;
}

/** Days whose slot starts are kept at most (the calendar shows about a month; a visitor may look further). */
export const SLOT_STARTS_KEPT = 400;

/**
 * A day's slot starts in the booking zone, and their ISO forms, kept per day asked: they depend on the day and the zone
 * alone (worked out through Intl, the route's own cost), where what can be booked depends on the moment and is
 * worked out each time.
 */
export function keptSlotStarts(
  timeZone: string,
  kept = SLOT_STARTS_KEPT,
): (date: string, day: CalendarDay) => { starts: readonly Date[]; isos: readonly string[] } {
  const days = new LRUCache<string, { starts: readonly Date[]; isos: readonly string[] }, CalendarDay>({
    max: kept,
    memoMethod: (_date, _stale, { context: day }) => {
      const starts = Object.freeze(slotStartsOf(day, timeZone));
      return { starts, isos: Object.freeze(starts.map((start) => start.toISOString())) };
    },
  });
  return (date, day) => days.memo(date, { context: day });
}

export interface SlotDeps {
  slotCounts: SlotCounts;
  timeZone: string;
  minNoticeMinutes: number;
  now: () => Date;
  slotCapacity: number;
  logger: Logger;
  /** The team (TEAM_FILE): a slot is then offered while one host is free in it, whatever slotCapacity says. */
  team?: { calendars: HostCalendars; bookings: SlotCounts<ReadonlyMap<string, readonly number[]>> };
  /** Named in the answer when no host's calendar can be read (SALES_NOTIFY_EMAIL). */
  salesDesk?: string;
  /** What the honeypot's catches took, shown to their own network for an hour; none when unset. */
  trapped?: TrappedSlots;
  /** The hosts' e-mails (the owner first) a route key leads to, or undefined for a key refused; none without routing. */
  routeOf?: (key: string) => KeyedRoute | undefined;
}

/** A slot list asked with a route key that does not hold (altered, too old, or from before the team changed). */
export function staleRoute(): ApiError {
  return new ApiError(400, 'Invalid route', STALE_ROUTE_MESSAGE);
}

/** A day's slots as GET /api/slots answers them, and with a team the names of the hosts free in each slot. */
export interface DaySlotsRead {
  answer: DaySlots;
  /** With a team: who could give the demo at each slot offered, by its ISO start (the database picks among them). */
  hostNames?: ReadonlyMap<string, readonly string[]>;
}

/**
 * A booking-zone day's slots and which of them can be booked, for the client `clientKey` (clientKeyOf): what the slot
 * list answers, and what the booking page without script offers (api/no-script/routes.ts). With `route` (a route
 * key's hosts), only they count.
 */
export function daySlotsReader(
  deps: SlotDeps,
): (date: string, day: CalendarDay, clientKey: string, route?: KeyedRoute) => Promise<DaySlotsRead> {
  const startsOf = keptSlotStarts(deps.timeZone);
  return async (date, day, clientKey, route) => {
    const { starts, isos } = startsOf(date, day);
    // What the booking rules allow at all (far enough ahead, inside the window, a weekday); only those are counted.
    const open = new Set(
      availableSlots(day, deps.now(), deps.timeZone, deps.minNoticeMinutes, starts).map((slot) => slot.iso),
    );
    let available: (iso: string) => boolean;
    let team: TeamSlots | undefined;
    // What this client's network took through the honeypot lately, read beside the counts (nothing for most).
    const trappedAround = (margin: number) => {
      const { trapped } = deps;
      if (!trapped) return Promise.resolve([]);
      const from = new Date(starts[0]!.getTime() - margin);
      const to = new Date(starts[starts.length - 1]!.getTime() + margin);
      return readUnlessDatabaseDown(() => trapped.of(clientKey, from, to), deps.logger, 'slots');
    };
    if (deps.team && open.size > 0) {
      const { calendars, bookings } = deps.team;
      const [held, trapped] = await Promise.all([
        readUnlessDatabaseDown(() => bookings.of(date, starts), deps.logger, 'slots'),
        trappedAround(HOST_BOOKINGS_MARGIN_MS),
      ]);
      const asked = starts.map((start, index) => ({ start, iso: isos[index]! })).filter(({ iso }) => open.has(iso));
      team = await teamSlots(calendars, asked, hostsWithTrapped(held, trapped), deps.timeZone, route?.hosts);
      const { freeHosts } = team;
      available = (iso) => (freeHosts.get(iso)?.length ?? 0) > 0;
    } else {
      const [counts, trapped] =
        open.size > 0
          ? await Promise.all([
              readUnlessDatabaseDown(() => deps.slotCounts.of(date, starts), deps.logger, 'slots'),
              trappedAround(0),
            ])
          : [new Map<string, number>(), []];
      const taken = countsWithTrapped(counts, trapped);
      available = (iso) => open.has(iso) && (taken.get(iso) ?? 0) < deps.slotCapacity;
    }
    const answer: DaySlots = {
      date,
      timeZone: deps.timeZone,
      slots: isos.map((iso) => ({ start: iso, available: open.has(iso) && available(iso) })),
      ...(team?.calendarsUnreadable
        ? { calendarsUnreadable: true, ...(deps.salesDesk ? { salesDesk: deps.salesDesk } : {}) }
        : {}),
    };
    return team ? { answer, hostNames: team.freeHosts } : { answer };
  };
}

export function slotRoutes(deps: SlotDeps): Router {
  const router = new Router();
  const readDay = daySlotsReader(deps);
  router.get('/api/slots', async (ctx) => {
    const date = typeof ctx.query.date === 'string' ? ctx.query.date : '';
    const day = parseCalendarDay(date);
    if (!day) throw new ApiError(400, 'Invalid date', 'Give the day as date=YYYY-MM-DD, for example date=2026-11-24.');
    const key = ctx.query.route;
    let route: KeyedRoute | undefined;
    if (key !== undefined) {
      route = typeof key === 'string' && deps.team ? deps.routeOf?.(key) : undefined;
      if (!route) throw staleRoute();
    }
    const { answer } = await readDay(date, day, clientKeyOf(ctx), route);
    // Availability changes with every booking: never kept by a cache.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });
  return router;
}

export const slotsOpenApi: OpenApiPart = {
  paths: {
    '/api/slots': {
      get: {
        operationId: 'daySlots',
        summary: "A booking-zone day's 17 hourly slots and which can still be booked.",
        parameters: [
          { name: 'date', in: 'query', required: true, schema: { type: 'string', format: 'date' } },
          {
            name: 'route',
            in: 'query',
            required: false,
            description:
              "A route key (POST /api/routing): a slot is then available only while the account's owner or a host of the route is free.",
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': answer('The slots.', 'DaySlots'),
          '400': refused(
            `The date is not a YYYY-MM-DD day, or the route key does not hold (altered, too old, or made before the team changed): "${STALE_ROUTE_MESSAGE}".`,
          ),
          '503': unreadable,
        },
      },
    },
  },
  components: { schemas: { DaySlots: daySlotsSchema } },
};
