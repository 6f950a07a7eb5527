/**
 * The Request Demo funnel: the steps the page counts, anonymously, one beacon per step and page visit
 * (web/features/demo-request/funnel-beacon.ts), and how a visit's UTM source is kept in the daily counts.
 */
export const FUNNEL_PATH = '/api/funnel';

/** In the order a visitor takes them: the steps the page's beacons count. */
export const FUNNEL_STEPS = ['dialogOpened', 'emailAccepted', 'slotChosen', 'booked'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** Counted by the API itself, never by a beacon: a prospect the team file's routes turned away (422, nothing stored). */
export const FUNNEL_DISQUALIFIED = 'disqualified';
/** Every step the daily counts keep: the beacons' in the order a visitor takes them, then the API's own. */
export const COUNTED_STEPS = [...FUNNEL_STEPS, FUNNEL_DISQUALIFIED] as const;
export type CountedStep = (typeof COUNTED_STEPS)[number];

/** The longest utm_source a beacon carries (the page cuts it there; the API refuses a longer one). */
export const FUNNEL_SOURCE_SENT_MAX_LENGTH = 100;
/** The longest source counted under its own name; a longer one counts as FUNNEL_OTHER_SOURCE. */
export const FUNNEL_SOURCE_MAX_LENGTH = 40;
/**
 * What a source that is not a short plain name is counted as, and on the API one that is not known either (listed
 * in FUNNEL_SOURCES or carried by a stored booking: api/funnel/known-sources.ts), so that the counts cannot be
 * flooded with made-up ones.
 */
export const FUNNEL_OTHER_SOURCE = 'other';
/** Up to FUNNEL_SOURCE_MAX_LENGTH characters (a literal, so that a bundle that does not use it drops it). */
const PLAIN_SOURCE = /^[a-z0-9._-]{1,40}$/;

/** What a beacon sends: the step, and the visit's utm_source when it had one. Nothing else. */
export interface FunnelBeacon {
  step: FunnelStep;
  source?: string;
}

/**
 * A utm_source in the form the funnel keeps: lower case, trimmed; null for none; FUNNEL_OTHER_SOURCE for anything but
 * letters, digits, dots, dashes and underscores up to FUNNEL_SOURCE_MAX_LENGTH characters. The bookings' attribution
 * is grouped the same way, so the funnel and the attendance name a source alike. (A beacon's source must also be
 * known to be counted under its name: api/funnel/known-sources.ts.)
 */
export function funnelSource(utmSource: string | null | undefined): string | null {
  const source = (utmSource ?? '').trim().toLowerCase();
  if (source === '') return null;
  return PLAIN_SOURCE.test(source) ? source : FUNNEL_OTHER_SOURCE;
}

export type StepCounts = Record<CountedStep, number>;

/** One day's counts from one source (null: visits without one). */
export interface FunnelDay {
  day: string;
  source: string | null;
  counts: StepCounts;
}

/** The bookings of a range from one source, and how many of them sales marked attended or no-show. */
export interface SourceAttendance {
  source: string | null;
  /** Bookings not cancelled. */
  booked: number;
  attended: number;
  noShow: number;
  /** attended / (attended + noShow); null while none is marked. */
  attendedRate: number | null;
}

/** GET /api/admin/funnel's answer: the days from `from` to `to` (YYYY-MM-DD, both included, the booking zone's). */
export interface FunnelReport {
  from: string;
  to: string;
  steps: CountedStep[];
  days: FunnelDay[];
  attendance: SourceAttendance[];
}
