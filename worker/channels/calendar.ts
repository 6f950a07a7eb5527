/**
 * The calendar channel: a row of the `host-calendar` kind becomes a write into its host's own calendar over CalDAV
 * (host-calendar.ts), the event as the booking's change tells it, or its removal.
 */
import { UnrecoverableError } from 'bullmq';
import { isDeliveryKind } from '../../server-shared/delivery-kinds.js';
import { bookingUid } from '../../server-shared/invitation.js';
import { KIND_WRITERS, writeOptions, type ComposeDeps } from '../kind-writers.js';
import { CalendarRefusal, type CalendarWrite, type WriteHostCalendar } from '../host-calendar.js';
import { changeOf, type Claimed } from '../delivery-row.js';
import type { Sender } from './sender.js';

export interface CalendarSenderDeps extends ComposeDeps {
  /** Writes into the hosts' calendars; unset (no team), every write is refused for good. */
  writeHostCalendar?: WriteHostCalendar;
}

export function calendarSender(deps: CalendarSenderDeps): Sender<CalendarWrite> {
  return {
    receiver: 'the calendar',
    span: 'caldav write',
    compose({ row, lead }: Claimed): CalendarWrite | null {
      const change = changeOf(row);
      if (!change || !isDeliveryKind(row.kind))
        throw new UnrecoverableError(`a ${row.kind} row is not a calendar write`);
      const kind = KIND_WRITERS[row.kind];
      if (kind.channel !== 'calendar') throw new UnrecoverableError(`a ${row.kind} row is not a calendar write`);
      if (!lead || change.recipient === null) return null;
      const options = writeOptions(deps, lead.id, change.sequence);
      if (!kind.stillTrue(change, lead, options.now)) return null;
      return {
        hostEmail: change.recipient,
        uid: bookingUid(lead.id, deps.mailFrom),
        ics: kind.event({ ...lead, timeSlot: change.time_slot }, change, options),
      };
    },
    async send(write, signal) {
      if (!deps.writeHostCalendar)
        throw new CalendarRefusal("this worker has no TEAM_FILE to find the host's calendar in");
      return deps.writeHostCalendar(write, signal);
    },
  };
}
