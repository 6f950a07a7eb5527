/**
 * The invitations' ORGANIZER when a reply mailbox is set: REPLY_MAILBOX_ADDRESS, and in the prospect's own
 * invitation that address with a tag after a "+" (subaddressing, which the mailbox delivers to itself). The tag is an
 * HMAC of the booking's id under the booking link secret: only the prospect's invitation carries it, and a calendar
 * echoes the ORGANIZER in its REPLY (RFC 5546 asks for it), so a reply from a domain that publishes neither DKIM nor
 * SPF is still known to come from someone who holds the invitation.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const TAG_LENGTH = 20;

export function replyTag(bookingId: string, secret: string): string {
  return createHmac('sha256', secret).update(`reply:${bookingId}`).digest('hex').slice(0, TAG_LENGTH);
}

/** The prospect's ORGANIZER address: local+tag@domain. */
export function taggedReplyAddress(address: string, bookingId: string, secret: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, at)}+${replyTag(bookingId, secret)}@${address.slice(at + 1)}`;
}

/** Whether `address` (the ORGANIZER a reply echoes) carries this booking's tag. */
export function carriesReplyTag(address: string, bookingId: string, secret: string): boolean {
  const local = address.slice(0, address.lastIndexOf('@'));
  const given = local.slice(local.lastIndexOf('+') + 1).toLowerCase();
  const expected = replyTag(bookingId, secret);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
