/** "Add to calendar" links for an event: Google Calendar's and Outlook's own compose pages, filled in. */
import { slotEnd, SLOT_DURATION_MINUTES } from './booking.js';
import { brand } from './brand.js';
import { singleLine } from './text.js';

export interface CalendarEvent {
  title: string;
  details: string;
  start: Date;
  end: Date;
  /** Where to join: the video room, which calendars show as the event's location. */
  location?: string;
}

/**
 * A booked demo as calendars show it: the same title, description and video room in the invitation and in every
 * link, so an event added through a link can be joined from the calendar as one imported from the .ics.
 */
export function demoEvent(company: string, start: Date, meetingUrl?: string | null): CalendarEvent {
  const about = `A ${SLOT_DURATION_MINUTES}-minute walkthrough of ${brand.product}: unified messaging, AI agents and network APIs. To move or cancel it, use the "Reschedule or cancel" link in the confirmation e-mail.`;
  return {
    title: `${brand.product} demo for ${singleLine(company)}`,
    details: meetingUrl ? `Join the video call: ${meetingUrl}\n\n${about}` : about,
    start,
    end: slotEnd(start),
    ...(meetingUrl ? { location: meetingUrl } : {}),
  };
}

/** 20261124T090000Z: iCalendar's UTC date-time, which Google Calendar's `dates` takes too. */
export const compactUtc = (instant: Date): string =>
  instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

export function googleCalendarLink(event: CalendarEvent): string {
  const query = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${compactUtc(event.start)}/${compactUtc(event.end)}`,
    details: event.details,
    ...(event.location ? { location: event.location } : {}),
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
    ...(event.location ? { location: event.location } : {}),
  });
  return `https://outlook.office.com/calendar/0/deeplink/compose?${query.toString()}`;
}
