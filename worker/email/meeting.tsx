/**
 * What the e-mails say of the meeting itself: whom the prospect will meet ("You will meet Dana Whitfield, Solutions
 * Engineer") and the video room. A booking without a host (no team) names nobody; one made before rooms were given
 * has no room.
 */
import { singleLine } from '../../domain/text.js';
import type { Booking } from '../../server-shared/invitation.js';
import { Button, Paragraph, part } from './parts.js';

export function hostLine(booking: Booking): string | undefined {
  if (!booking.host) return undefined;
  const title = singleLine(booking.host.title);
  return `You will meet ${singleLine(booking.host.name)}${title ? `, ${title}` : ''}.`;
}

/** The button into the video room, and (`address`) the room's address under it for those who copy it. */
export const JoinCall = part(
  ({ room, address = false }: { room: string; address?: boolean }) => (
    <p>
      <Button href={room} label="Join the video call" />
      {address && (
        <>
          <br />
          <span style={{ fontSize: '13px' }}>{room}</span>
        </>
      )}
    </p>
  ),
  ({ room }) => `Video call: ${room}`,
);

/** Whom the prospect meets, and the video room; `join`: with the room (not for a cancelled demo). */
export function Meeting({ booking, join = true }: { booking: Booking; join?: boolean }) {
  const host = hostLine(booking);
  const room = join && booking.meetingUrl ? booking.meetingUrl : undefined;
  return (
    <>
      {host && <Paragraph>{host}</Paragraph>}
      {room && <JoinCall room={room} address />}
    </>
  );
}
