/**
 * How many bookings each slot of a day holds, as GET /api/slots reads it: kept for a moment per day, so that a
 * calendar opened by many visitors costs one query a day and a moment, not one a visitor. Any booking, move or
 * cancellation made by this process forgets everything at once, so its own answers are never behind its own
 * bookings. Another API process's bookings show within `ttlMs`; the booking itself checks the slot's capacity
 * under its lock, so a slot shown free a moment too long is refused as taken, never overbooked.
 */

export interface SlotCounts<Read = ReadonlyMap<string, number>> {
  /** The bookings of each of the day's slots (slots with none are left out); `day` names the day. */
  of(day: string, starts: readonly Date[]): Promise<Read>;
  /** Called after a booking, move or cancellation is committed. */
  changed(): void;
}

/** A second: the calendar lags another process's bookings by that much at most. */
export const SLOT_COUNTS_TTL_MS = 1000;
/** Days kept at most; the calendar shows about a month. */
const MAX_DAYS = 64;

/** `read` asks the database (bookingsPerSlot; with a team, also hostBookingsAround, kept the same way). */
export function createSlotCounts<Read = ReadonlyMap<string, number>>(
  read: (starts: readonly Date[]) => Promise<Read>,
  ttlMs = SLOT_COUNTS_TTL_MS,
  now: () => number = Date.now,
): SlotCounts<Read> {
  const days = new Map<string, { at: number; counts: Promise<Read> }>();
  // Bumped by every change: a query that began before a change is not kept after it.
  let generation = 0;
  return {
    of(day, starts) {
      const at = now();
      const kept = days.get(day);
      if (kept && at - kept.at < ttlMs) return kept.counts;
      const started = generation;
      const counts = read(starts);
      if (days.size >= MAX_DAYS) days.clear();
      const entry = { at, counts };
      days.set(day, entry);
      counts.then(
        () => {
          if (generation !== started && days.get(day) === entry) days.delete(day);
        },
        // A failed query is not kept: the next request asks again.
        () => {
          if (days.get(day) === entry) days.delete(day);
        },
      );
      return counts;
    },
    changed() {
      generation += 1;
      days.clear();
    },
  };
}
