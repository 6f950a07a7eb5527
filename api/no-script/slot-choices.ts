/**
 * The slots the booking pages without script offer (api/no-script/routes.ts): the dialog's window, every working day
 * from today to a month from now, a week of it at a time, each day's free slots as the slot list answers them.
 */
import type { Context } from 'koa';
import {
  calendarDayOf,
  formatCalendarDay,
  isWeekend,
  oneMonthAfter,
  parseCalendarDay,
  type CalendarDay,
} from '../../domain/booking.js';
import { FORM_DAYS, FROM_PARAMETER, type SlotChoices } from '../../domain/no-script-pages.js';
import { clientKeyOf } from '../client-network.js';
import type { ChoicesFor } from './form-parts.js';
import type { NoScriptDeps } from './routes.js';

/** The week asked for (the times form's GET); slotChoices keeps it only when it is one of the window's. */
export const fromOf = (ctx: Context): string | undefined => {
  const from = ctx.query[FROM_PARAMETER];
  return typeof from === 'string' && parseCalendarDay(from) ? from : undefined;
};

/**
 * The free slots of up to FORM_DAYS working days that have one, from the week `from` (the window's first without
 * it), as the slot list answers them to this client; `only` the route's, from its day on.
 */
export function slotChoicesReader(deps: Pick<NoScriptDeps, 'now' | 'timeZone' | 'readDay'>) {
  return async (ctx: Context, only?: ChoicesFor, from?: string): Promise<SlotChoices> => {
    const now = deps.now();
    const last = calendarDayOf(oneMonthAfter(now, deps.timeZone), deps.timeZone);
    const lastDate = formatCalendarDay(last);
    const today = calendarDayOf(now, deps.timeZone);
    // The dialog's window: every working day from today to a month from now, a week of it at a time.
    const window: { date: string; day: CalendarDay }[] = [];
    for (let offset = 0; ; offset += 1) {
      const at = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
      const day = { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
      const date = formatCalendarDay(day);
      if (date > lastDate) break;
      if (!isWeekend(day)) window.push({ date, day });
    }
    const weeks = window
      .filter(({ day }, index) => index === 0 || new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay() === 1)
      .map(({ date }) => date);
    const start = only ? formatCalendarDay(only.from) : from && weeks.includes(from) ? from : weeks[0];
    const candidates = window.filter(({ date }) => start === undefined || date >= start);
    const clientKey = clientKeyOf(ctx);
    const days: SlotChoices['days'][number][] = [];
    let calendarsUnreadable = false;
    let salesDesk: string | undefined;
    // A batch of days at a time, until enough have a free slot: most days do, so one batch is the common case.
    for (let batch = 0; batch < candidates.length && days.length < FORM_DAYS; batch += FORM_DAYS) {
      const read = await Promise.all(
        candidates
          .slice(batch, batch + FORM_DAYS)
          .map(({ date, day }) => deps.readDay(date, day, clientKey, only?.route)),
      );
      for (const { answer, hostNames } of read) {
        if (answer.calendarsUnreadable) {
          calendarsUnreadable = true;
          salesDesk = answer.salesDesk;
        }
        const slots = answer.slots
          .filter((slot) => slot.available)
          .map((slot) => {
            const hosts = hostNames?.get(slot.start);
            return hosts ? { start: slot.start, hosts } : { start: slot.start };
          });
        if (slots.length > 0 && days.length < FORM_DAYS) days.push({ date: answer.date, slots });
      }
    }
    return {
      days,
      weeks,
      ...(start ? { from: start } : {}),
      ...(calendarsUnreadable && days.length === 0 ? { calendarsUnreadable, ...(salesDesk ? { salesDesk } : {}) } : {}),
    };
  };
}
