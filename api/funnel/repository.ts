/** The funnel's daily counts (funnel_daily_counts) and the attendance of the bookings per source, for the admin read. */
import {
  COUNTED_STEPS,
  funnelSource,
  type CountedStep,
  type FunnelDay,
  type SourceAttendance,
  type StepCounts,
} from '../../domain/funnel.js';
import type { Db } from '../db.js';

/** The table's '' is "no source": answered as null. */
const NO_SOURCE = '';

/** One more visit reached `step` on `day` (YYYY-MM-DD) from `source` (funnelSource's, null for none). */
export async function countStep(db: Db, day: string, source: string | null, step: CountedStep): Promise<void> {
  await db('funnel_daily_counts')
    .insert({ day, source: source ?? NO_SOURCE, step, count: 1 })
    .onConflict(['day', 'source', 'step'])
    .merge({ count: db.raw('funnel_daily_counts.count + 1') });
}

/**
 * The utm_source of every booking (cancelled ones too) stored in the last `days` days, as each booking wrote it: the
 * sources the funnel counts under their own name (known-sources.ts). A range of the newest-first index.
 */
export async function bookingSourcesSince(db: Db, days: number): Promise<string[]> {
  const rows = (await db('bookings')
    .distinct(db.raw("attribution->>'utm_source' AS source"))
    .where('created_at', '>=', db.raw('now() - make_interval(days => ?)', [days]))
    .whereRaw("attribution->>'utm_source' IS NOT NULL")) as { source: string }[];
  return rows.map((row) => row.source);
}

const noCounts = (): StepCounts => Object.fromEntries(COUNTED_STEPS.map((step) => [step, 0])) as StepCounts;

/** The counts of the days from `from` to `to` (YYYY-MM-DD, both included), a row per day and source that has any. */
export async function funnelDays(db: Db, from: string, to: string): Promise<FunnelDay[]> {
  const rows = (await db('funnel_daily_counts')
    .select(db.raw("to_char(day, 'YYYY-MM-DD') AS day"), 'source', 'step', 'count')
    .whereBetween('day', [from, to])
    .orderBy([{ column: 'day' }, { column: 'source' }])) as {
    day: string;
    source: string;
    step: CountedStep;
    count: string;
  }[];
  const days = new Map<string, FunnelDay>();
  for (const row of rows) {
    const key = `${row.day}\u0000${row.source}`;
    let day = days.get(key);
    if (!day)
      days.set(key, (day = { day: row.day, source: row.source === NO_SOURCE ? null : row.source, counts: noCounts() }));
    day.counts[row.step] = Number(row.count);
  }
  return [...days.values()];
}

/**
 * The bookings not cancelled whose slot starts in [start, end), per source of their attribution (grouped as the
 * funnel groups it): how many, and how many of them sales marked attended or no-show.
 */
export async function attendanceBySource(db: Db, start: Date, end: Date): Promise<SourceAttendance[]> {
  const rows = (await db('bookings')
    .select(
      db.raw("attribution->>'utm_source' AS utm_source"),
      db.raw('count(*) AS booked'),
      db.raw("count(*) FILTER (WHERE attendance = 'attended') AS attended"),
      db.raw("count(*) FILTER (WHERE attendance = 'no_show') AS no_show"),
    )
    // Booked is all but cancelled; the partial index of booked slots finds them.
    .where('status', 'booked')
    .andWhere('time_slot', '>=', start)
    .andWhere('time_slot', '<', end)
    .groupByRaw("attribution->>'utm_source'")) as {
    utm_source: string | null;
    booked: string;
    attended: string;
    no_show: string;
  }[];
  const bySource = new Map<string | null, SourceAttendance>();
  for (const row of rows) {
    const source = funnelSource(row.utm_source);
    const entry = bySource.get(source) ?? { source, booked: 0, attended: 0, noShow: 0, attendedRate: null };
    entry.booked += Number(row.booked);
    entry.attended += Number(row.attended);
    entry.noShow += Number(row.no_show);
    bySource.set(source, entry);
  }
  return [...bySource.values()]
    .map((entry) => ({
      ...entry,
      attendedRate: entry.attended + entry.noShow > 0 ? entry.attended / (entry.attended + entry.noShow) : null,
    }))
    .sort((a, b) => b.booked - a.booked || (a.source ?? '').localeCompare(b.source ?? ''));
}
