/** GET /api/slots?date=YYYY-MM-DD: a booking-zone day's 17 slots and which of them can still be booked. */
import Router from '@koa/router';
import { availableSlots, parseCalendarDay, slotStartsOf, type DaySlots } from '../../domain/booking.js';
import { ApiError } from '../errors.js';
import type { SlotCounts } from './slot-counts.js';

export function slotRoutes(deps: { slotCounts: SlotCounts; timeZone: string; minNoticeMinutes: number; now: () => Date; slotCapacity: number }): Router {
  const router = new Router();
  router.get('/api/slots', async (ctx) => {
    const date = typeof ctx.query.date === 'string' ? ctx.query.date : '';
    const day = parseCalendarDay(date);
    if (!day) throw new ApiError(400, 'Invalid date', 'Give the day as date=YYYY-MM-DD, for example date=2026-11-24.');
    const starts = slotStartsOf(day, deps.timeZone);
    // What the booking rules allow at all (far enough ahead, inside the window, a weekday); only those are counted.
    const open = new Set(availableSlots(day, deps.now(), deps.timeZone, deps.minNoticeMinutes).map((slot) => slot.iso));
    const taken = open.size > 0 ? await deps.slotCounts.of(date, starts) : new Map<string, number>();
    const answer: DaySlots = {
      date,
      timeZone: deps.timeZone,
      slots: starts.map((start) => {
        const iso = start.toISOString();
        return { start: iso, available: open.has(iso) && (taken.get(iso) ?? 0) < deps.slotCapacity };
      }),
    };
    // Availability changes with every booking: never kept by a cache.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer;
  });
  return router;
}
