/** GET /api/slots?date=YYYY-MM-DD: a booking-zone day's 17 slots and which of them can still be booked. */
import Router from '@koa/router';
import { availableSlots, parseCalendarDay, slotStartsOf, type CalendarDay, type DaySlots } from '../../domain/booking.js';
import { KeptAnswers } from '../../domain/kept-answers.js';
import type { Logger } from 'pino';
import { readUnlessDatabaseDown } from '../db.js';
import { ApiError } from '../errors.js';
import type { SlotCounts } from './slot-counts.js';
import type { HostCalendars } from '../../server-shared/hosts/calendars.js';
import { teamSlots, type TeamSlots } from './team-slots.js';

/** Days whose slot starts are kept at most (the calendar shows about a month; a visitor may look further). */
export const SLOT_STARTS_KEPT = 400;

/**
 * A day's slot starts in the booking zone, and their ISO forms, kept per day asked: they depend on the day and the zone
 * alone (worked out through Intl, the route's own cost), where what can be booked depends on the moment and is
 * worked out each time.
 */
export function keptSlotStarts(timeZone: string, kept = SLOT_STARTS_KEPT): (date: string, day: CalendarDay) => { starts: readonly Date[]; isos: readonly string[] } {
  const days = new KeptAnswers<{ starts: readonly Date[]; isos: readonly string[] }>(kept);
  return (date, day) =>
    days.of(date, () => {
      const starts = Object.freeze(slotStartsOf(day, timeZone));
      return { starts, isos: Object.freeze(starts.map((start) => start.toISOString())) };
    });
}

export function slotRoutes(deps: {
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
}): Router {
  const router = new Router();
  const startsOf = keptSlotStarts(deps.timeZone);
  router.get('/api/slots', async (ctx) => {
    const date = typeof ctx.query.date === 'string' ? ctx.query.date : '';
    const day = parseCalendarDay(date);
    if (!day) throw new ApiError(400, 'Invalid date', 'Give the day as date=YYYY-MM-DD, for example date=2026-11-24.');
    const { starts, isos } = startsOf(date, day);
    // What the booking rules allow at all (far enough ahead, inside the window, a weekday); only those are counted.
    const open = new Set(availableSlots(day, deps.now(), deps.timeZone, deps.minNoticeMinutes).map((slot) => slot.iso));
    let available: (iso: string) => boolean;
    let team: TeamSlots | undefined;
    if (deps.team && open.size > 0) {
      const { calendars, bookings } = deps.team;
      const held = await readUnlessDatabaseDown(() => bookings.of(date, starts), deps.logger, 'slots');
      const asked = starts.map((start, index) => ({ start, iso: isos[index]! })).filter(({ iso }) => open.has(iso));
      team = await teamSlots(calendars, asked, held, deps.timeZone);
      const { freeHosts } = team;
      available = (iso) => (freeHosts.get(iso) ?? 0) > 0;
    } else {
      const taken = open.size > 0 ? await readUnlessDatabaseDown(() => deps.slotCounts.of(date, starts), deps.logger, 'slots') : new Map<string, number>();
      available = (iso) => open.has(iso) && (taken.get(iso) ?? 0) < deps.slotCapacity;
    }
    const answer: DaySlots = {
      date,
      timeZone: deps.timeZone,
      slots: isos.map((iso) => ({ start: iso, available: open.has(iso) && available(iso) })),
      ...(team?.calendarsUnreadable ? { calendarsUnreadable: true, ...(deps.salesDesk ? { salesDesk: deps.salesDesk } : {}) } : {}),
    };
    // Availability changes with every booking: never kept by a cache.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });
  return router;
}
