/**
 * The booking's event in its host's own calendar, over CalDAV (RFC 4791) through tsdav: written (PUT) as the
 * invitation tells it, same UID and SEQUENCE, without the METHOD a stored object must not carry; taken out (DELETE)
 * when the demo is cancelled or handed to another host. Each write is an outbox row of kind `host-calendar`, claimed,
 * retried and swept like an e-mail. Both are idempotent: the resource is named by the event's UID, a PUT replaces it,
 * and a DELETE of one already gone is done.
 */
import { deleteCalendarObject, updateCalendarObject } from 'tsdav';
import type { Host } from '../server-shared/hosts/team.js';

/** How long one write may take before it counts as failed and is tried again. */
export const WRITE_TIMEOUT_MS = 10_000;

export interface CalendarWrite {
  /** The host's address, as bookings and outbox rows name them. */
  hostEmail: string;
  uid: string;
  /** The event to store; null to take it out. */
  ics: string | null;
}

/** Thrown for a write that can never succeed here (the host is not in the team): not tried again. */
export class CalendarRefusal extends Error {
  readonly responseCode = 550;
}

export type WriteHostCalendar = (write: CalendarWrite, signal?: AbortSignal) => Promise<{ response: string }>;

export function createHostCalendarWriter(
  team: readonly Host[] | undefined,
  timeoutMs = WRITE_TIMEOUT_MS,
): WriteHostCalendar {
  const byEmail = new Map((team ?? []).map((host) => [host.email.toLowerCase(), host]));
  return async (write, signal) => {
    const host = byEmail.get(write.hostEmail.toLowerCase());
    if (!host) throw new CalendarRefusal("the host is not in this worker's TEAM_FILE");
    const authorization = `Basic ${Buffer.from(`${host.calendarUsername}:${host.calendarPassword}`).toString('base64')}`;
    const bounded = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
    const authorised: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', authorization);
      return fetch(input, { ...init, headers, signal: bounded, redirect: 'error' });
    };
    const url = new URL(
      `${encodeURIComponent(write.uid)}.ics`,
      host.calendarUrl.endsWith('/') ? host.calendarUrl : `${host.calendarUrl}/`,
    ).href;
    const answer = write.ics
      ? await updateCalendarObject({ calendarObject: { url, data: write.ics }, fetch: authorised })
      : await deleteCalendarObject({ calendarObject: { url }, fetch: authorised });
    await answer.text().catch(() => '');
    const gone = !write.ics && answer.status === 404;
    if (answer.ok || gone)
      return { response: `${answer.status} ${write.ics ? 'stored' : gone ? 'already gone' : 'deleted'}` };
    // A refused login too is tried again: an operator may put the password right, and the write must not be lost.
    throw new Error(`the calendar answered ${answer.status}`);
  };
}
