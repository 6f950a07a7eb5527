/**
 * What the e-mails say of the meeting itself: whom the prospect will meet ("You will meet Dana Whitfield, Solutions
 * Engineer") and the video room, in text and in HTML. A booking without a host (no team) names nobody; one made
 * before rooms were given has no room.
 */
import { escapeHtml, singleLine } from '../../domain/text.js';
import type { Booking } from '../../server-shared/invitation.js';
import { button } from './layout.js';

export function hostLine(booking: Booking): string | undefined {
  if (!booking.host) return undefined;
  const title = singleLine(booking.host.title);
  return `You will meet ${singleLine(booking.host.name)}${title ? `, ${title}` : ''}.`;
}

/** The lines and HTML of the meeting; `join`: with the video room (not for a cancelled demo). */
export function meetingParts(booking: Booking, join = true): { text: string[]; html: string } {
  const host = hostLine(booking);
  const room = join && booking.meetingUrl ? booking.meetingUrl : undefined;
  const text = [...(host ? [host] : []), ...(room ? [`Video call: ${room}`] : [])];
  const html = [
    ...(host ? [`    <p>${escapeHtml(host)}</p>`] : []),
    ...(room
      ? [`    <p>${button(room, 'Join the video call')}<br><span style="font-size:13px">${escapeHtml(room)}</span></p>`]
      : []),
  ].join('\n');
  return { text: text.length > 0 ? [...text, ''] : [], html };
}
