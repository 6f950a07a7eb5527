/**
 * A prospect the routes turned away leaves nothing but one more in the funnel's 'disqualified' count of the day and
 * source, whether the dialog's routing step (POST /api/routing) or a booking (POST /api/demo-request, the form without
 * script) met the route; a count that cannot be stored is logged, and the 422 answered all the same.
 */
import type { Logger } from 'pino';
import { calendarDayOf, formatCalendarDay } from '../../domain/booking.js';
import { FUNNEL_DISQUALIFIED } from '../../domain/funnel.js';
import type { Db } from '../db.js';
import type { KnownFunnelSources } from './known-sources.js';
import { countStep } from './repository.js';

export interface DisqualifiedCountDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  timeZone: string;
  funnelSources?: Pick<KnownFunnelSources, 'counted'>;
}

/** Counts one disqualified prospect of the visit's `utmSource` (none: no source). */
export function disqualifiedCounter(deps: DisqualifiedCountDeps): (utmSource: string | undefined) => Promise<void> {
  return async (utmSource) => {
    try {
      const source = deps.funnelSources ? await deps.funnelSources.counted(utmSource) : null;
      const day = formatCalendarDay(calendarDayOf(deps.now(), deps.timeZone));
      await countStep(deps.db, day, source, FUNNEL_DISQUALIFIED);
    } catch (err) {
      deps.logger.warn({ err }, 'disqualified prospect not counted in the funnel');
    }
  };
}
