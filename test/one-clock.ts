/**
 * The one clock's property tests share this: the cases (every zone the platform names, instants beside the
 * daylight-saving changes of 2026–2030) and the independent reading they are checked against. The reading is
 * Intl.DateTimeFormat's own, numeric parts of an instant, never the code under test.
 */
import fc from 'fast-check';

/** Fixed, so a failure is the same on every machine; bounded, so the tests stay well inside the unit budget. */
export const CLOCK_RUNS: fc.Parameters<unknown> = { seed: 20260329, numRuns: 300 };

export const ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

const FIRST = Date.UTC(2026, 0, 1);
const LAST = Date.UTC(2031, 0, 1);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A zone's wall clock at an instant, as Intl reads it; weekday 0 = Sunday. */
export interface Reading {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const readers = new Map<string, Intl.DateTimeFormat>();

export function reading(instant: Date | number, zone: string): Reading {
  let reader = readers.get(zone);
  if (!reader) {
    reader = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      hourCycle: 'h23',
    });
    readers.set(zone, reader);
  }
  const parts: Record<string, string> = {};
  for (const part of reader.formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday!),
  };
}

/** The reading's calendar day, month 1–12. */
export const dayOf = (instant: Date | number, zone: string) => {
  const { year, month, day } = reading(instant, zone);
  return { year, month, day };
};

/** Minutes the zone's clock is ahead of UTC at the instant (to the minute: no zone keeps seconds today). */
export function offsetMinutes(instant: number, zone: string): number {
  const r = reading(instant, zone);
  const wall = Date.UTC(r.year, r.month - 1, r.day, r.hour, r.minute, r.second);
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / MINUTE);
}

const transitionsByZone = new Map<string, number[]>();

/**
 * The instants at which the zone's offset changes in 2026–2030, give or take two months (the first instant of the new
 * offset). Found by reading the offset every week (no zone changes twice within one) and halving each interval it
 * changes in down to the minute.
 */
export function transitions(zone: string): readonly number[] {
  let found = transitionsByZone.get(zone);
  if (found) return found;
  found = [];
  const step = 7 * DAY;
  // A margin either side, for the month a booking window reaches past the years' ends.
  let before = offsetMinutes(FIRST - 60 * DAY, zone);
  for (let at = FIRST - 60 * DAY + step; at <= LAST + 60 * DAY; at += step) {
    const now = offsetMinutes(at, zone);
    if (now === before) continue;
    let low = at - step;
    let high = at;
    while (high - low > MINUTE) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE) * MINUTE;
      if (offsetMinutes(middle, zone) === before) low = middle;
      else high = middle;
    }
    found.push(high);
    before = now;
  }
  transitionsByZone.set(zone, found);
  return found;
}

export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/**
 * The instants at which the zone's clock reads the wall time, earliest first: one, two where the clock is turned back
 * over it, none where it is turned forward over it. Every offset in force within a day of it is tried.
 * (No offset lies beyond fourteen hours of UTC, so the instant is within a day of the wall time read as UTC.)
 */
export function instantsReading(wall: Wall, zone: string): number[] {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const offsets = new Set([offsetMinutes(asUtc - 26 * HOUR, zone), offsetMinutes(asUtc + 26 * HOUR, zone)]);
  for (const change of transitions(zone)) {
    if (Math.abs(change - asUtc) < 26 * HOUR) offsets.add(offsetMinutes(change, zone));
  }
  return [...offsets]
    .map((offset) => asUtc - offset * MINUTE)
    .filter((instant) => {
      const r = reading(instant, zone);
      return (
        r.year === wall.year &&
        r.month === wall.month &&
        r.day === wall.day &&
        r.hour === wall.hour &&
        r.minute === wall.minute
      );
    })
    .sort((a, b) => a - b);
}

/**
 * Where the clock is turned forward over the wall time: the instant it would read with the offset in force before
 * the change (RFC 5545, 3.3.5, and Temporal's "compatible": later by the length of the gap).
 */
export function instantAcrossGap(wall: Wall, zone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  const change = transitions(zone).find((at) => Math.abs(at - asUtc) < 2 * DAY);
  if (change === undefined) throw new Error(`no change of ${zone}'s offset near ${new Date(asUtc).toISOString()}`);
  return asUtc - offsetMinutes(change - MINUTE, zone) * MINUTE;
}

/** The instant the zone's clock reads the wall time, the earliest where it reads it twice, across a gap if none. */
export function expectedInstant(wall: Wall, zone: string): number {
  return instantsReading(wall, zone)[0] ?? instantAcrossGap(wall, zone);
}

/** The end of the booking window: the same reading a month on, the day clamped to the month's last. */
export function windowEndOf(now: Date, zone: string): number {
  const r = reading(now, zone);
  const next = addDays({ year: r.year, month: r.month, day: 1 }, 32);
  const last = new Date(Date.UTC(next.year, next.month, 0)).getUTCDate();
  const wall = { year: next.year, month: next.month, day: Math.min(r.day, last), hour: r.hour, minute: r.minute };
  return expectedInstant(wall, zone) + r.second * 1000 + now.getUTCMilliseconds();
}

/** HH:MM of a reading. */
export const clockOf = (r: Reading) => `${String(r.hour).padStart(2, '0')}:${String(r.minute).padStart(2, '0')}`;

/** The calendar day `days` after the given one. */
export function addDays(day: { year: number; month: number; day: number }, days: number) {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Whether the zone's clock reads two offsets in 2026–2030, by a reading at the middle of each month. */
function keepsChanging(zone: string): boolean {
  const first = offsetMinutes(FIRST, zone);
  for (let month = 0; month < 60; month += 1) {
    if (offsetMinutes(Date.UTC(2026, month, 15), zone) !== first) return true;
  }
  return false;
}

/** Whether the zone's clock is off UTC's by part of an hour at some time of year (Kathmandu, Adelaide, Lord Howe). */
const partHour = (zone: string) =>
  offsetMinutes(Date.UTC(2026, 0, 15), zone) % 60 !== 0 || offsetMinutes(Date.UTC(2026, 6, 15), zone) % 60 !== 0;

/**
 * Every zone; those whose clock changes, and those off by part of an hour (whose slots straddle another zone's
 * change of a whole hour), more often: the rest have less to be wrong about.
 */
const changingZone = fc.constantFrom(...ZONES.filter(keepsChanging));
const partHourZone = fc.constantFrom(...ZONES.filter(partHour));
const zone = fc.oneof(
  { arbitrary: changingZone, weight: 2 },
  { arbitrary: partHourZone, weight: 1 },
  { arbitrary: fc.constantFrom(...ZONES), weight: 1 },
);

/**
 * An instant near a change of the zone's offset in 2026–2030 (within two days either side), or anywhere in those
 * years for a zone that keeps one offset; to the quarter hour, as no zone changes off it.
 */
export const instantNear = (of: string): fc.Arbitrary<number> => {
  const changes = transitions(of);
  const anywhere = fc.integer({ min: 0, max: (LAST - FIRST) / (15 * MINUTE) - 1 }).map((q) => FIRST + q * 15 * MINUTE);
  if (changes.length === 0) return anywhere;
  // Within two days, and within the hour and a half either side where a slot straddles the change.
  const quarters = fc.oneof(fc.integer({ min: -2 * 96, max: 2 * 96 }), fc.integer({ min: -6, max: 6 }));
  const near = fc
    .tuple(fc.constantFrom(...changes), quarters)
    .map(([change, quarters]) => change + quarters * 15 * MINUTE);
  return fc.oneof({ arbitrary: near, weight: 4 }, { arbitrary: anywhere, weight: 1 });
};

/** The three zones a booking meets: the booking zone's grid, the visitor's clock, the host's working hours. */
export interface ClockCase {
  bookingZone: string;
  visitorZone: string;
  hostZone: string;
  /** A booking-zone day beside a change of one of the three zones' offsets. */
  day: { year: number; month: number; day: number };
  /** Which slot of the day, 0–16. */
  slotIndex: number;
  /** When the visitor books, in minutes before the slot (negative: after it). */
  bookedMinutesBefore: number;
}

export const clockCase: fc.Arbitrary<ClockCase> = fc
  .tuple(zone, zone, zone, fc.integer({ min: 0, max: 2 }))
  .chain(([bookingZone, visitorZone, hostZone, which]) =>
    fc
      .tuple(
        instantNear([bookingZone, visitorZone, hostZone][which]!),
        fc.option(fc.integer({ min: 0, max: 16 }), { freq: 2 }),
        fc.integer({ min: -120, max: 33 * 24 * 60 }),
      )
      .map(([at, slotIndex, bookedMinutesBefore]) => ({
        bookingZone,
        visitorZone,
        hostZone,
        day: dayOf(at, bookingZone),
        // Half the time the slot nearest the change, where a slot straddles it or a clock crosses midnight.
        slotIndex: slotIndex ?? slotHolding(at, bookingZone),
        bookedMinutesBefore,
      })),
  );

/** The slot of the booking zone's day that holds the instant (the first or last where it is outside 07:00–23:59). */
const slotHolding = (at: number, bookingZone: string) => Math.min(16, Math.max(0, reading(at, bookingZone).hour - 7));

/**
 * A case whose slot holds a change of the host's clock: the slot of a zone off by part of an hour (or any zone, for
 * a change at the half hour such as Lord Howe's) that the host's clock is turned forward or back in.
 */
export const straddlingCase: fc.Arbitrary<ClockCase> = fc
  .tuple(fc.oneof(partHourZone, zone), zone, changingZone)
  .chain(([bookingZone, visitorZone, hostZone]) =>
    fc
      .tuple(fc.constantFrom(...transitions(hostZone)), fc.integer({ min: -120, max: 33 * 24 * 60 }))
      .map(([change, bookedMinutesBefore]) => ({
        bookingZone,
        visitorZone,
        hostZone,
        day: dayOf(change, bookingZone),
        slotIndex: slotHolding(change, bookingZone),
        bookedMinutesBefore,
      })),
  );

/**
 * A host's working hours on their clock: some weekdays, a start and a later end to the quarter hour; half the time
 * every day, with the start or the end within an hour and a half of the host's reading of `slot` (a slot's start).
 */
export const workingHours = (timeZone: string, slot: Date) => {
  const read = reading(slot, timeZone);
  const atSlot = Math.floor((read.hour * 60 + read.minute) / 15);
  const quarter = fc.oneof(
    fc.integer({ min: 0, max: 96 }),
    fc.integer({ min: -6, max: 10 }).map((q) => Math.min(96, Math.max(0, atSlot + q))),
  );
  const days = fc.oneof(
    fc.constant<number[]>([1, 2, 3, 4, 5, 6, 7]),
    fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
  );
  const clock = (quarters: number) =>
    `${String(Math.floor(quarters / 4)).padStart(2, '0')}:${String((quarters % 4) * 15).padStart(2, '0')}`;
  return fc.tuple(days, quarter, quarter).map(([weekdays, a, b]) => {
    const [from, to] = a === b ? (a === 96 ? [95, 96] : [a, a + 1]) : [Math.min(a, b), Math.max(a, b)];
    return { days: weekdays, start: clock(from), end: clock(to), timeZone };
  });
};

export { MINUTE, HOUR, DAY };
