/** "Add to calendar" links for an event: Google Calendar's and Outlook's own compose pages, filled in. */
import { slotEnd, SLOT_DURATION_MINUTES } from './booking.js';
import { brand } from './brand.js';
import { singleLine } from './text.js';

export interface CalendarEvent {
  title: string;
  details: string;
  start: Date;
  end: Date;
}

/** A booked demo as calendars show it: the same title and description in the invitation and in every link. */
export function demoEvent(company: string, start: Date): CalendarEvent {
  return {
    title: `${brand.product} demo for ${singleLine(company)}`,
    details: `A ${SLOT_DURATION_MINUTES}-minute walkthrough of ${brand.product}: unified messaging, AI agents and network APIs. To move or cancel it, use the "Reschedule or cancel" link in the confirmation e-mail.`,
    start,
    end: slotEnd(start),
  };
}

/** 20261124T090000Z: iCalendar's UTC date-time, which Google Calendar's `dates` takes too. */
export const compactUtc = (instant: Date): string => instant.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');

export function googleCalendarLink(event: CalendarEvent): string {
  const query = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${compactUtc(event.start)}/${compactUtc(event.end)}`,
    details: event.details,
  });
  return `https://calendar.google.com/calendar/render?${query.toString()}`;
}

/** Outlook on the web for work accounts (Microsoft 365), where an enterprise buyer's calendar lives. */
export function outlookCalendarLink(event: CalendarEvent): string {
  const query = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: event.title,
    startdt: event.start.toISOString(),
    enddt: event.end.toISOString(),
    body: event.details,
  });
  return `https://outlook.office.com/calendar/0/deeplink/compose?${query.toString()}`;
}
