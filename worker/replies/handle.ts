/**
 * One message of the reply mailbox, decided: a REPLY whose UID is a booking's, whose one ATTENDEE and whose From are
 * that booking's prospect (compared as bookings.recipient keeps addresses), with an answer that changes something,
 * authenticated (authenticate.ts), is applied (apply.ts); anything else is ignored, with a reason that names no one.
 */
import type { Knex } from 'knex';
import type { DNSResolver } from 'mailauth';
import { mailDomain } from '../../server-shared/sender.js';
import type { QueuedJob } from '../../server-shared/jobs.js';
import { applyReply, bookingOfReply, type ReplyOutcome } from './apply.js';
import { authenticateReply } from './authenticate.js';
import { canonicalAddress, isActedOn, isReply, readReply, type PartStat } from './itip.js';
import { carriesReplyTag } from './organizer.js';

export type Ignored =
  | 'no-calendar'
  | 'not-a-reply'
  | 'malformed'
  | 'attendees'
  | 'unknown-uid'
  | 'other-attendee'
  | 'other-sender'
  | 'no-answer'
  | 'unauthenticated';

export type Verdict =
  | { ignored: Ignored; method?: string }
  | {
      bookingId: string;
      partstat: PartStat;
      outcome: ReplyOutcome;
      by: 'dkim' | 'spf' | 'tag';
      jobs: QueuedJob[];
    };

export interface HandleDeps {
  db: Knex;
  mailFrom: string;
  linkSecret: string;
  salesNotifyEmail: string | undefined;
  resolver?: DNSResolver;
  now?: () => Date;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The booking's id from the event's UID (invitation.ts's bookingUid), when it is one of ours. */
export function bookingIdOfUid(uid: string, mailFrom: string): string | undefined {
  const match = new RegExp(`^demo-(${UUID})@(.+)$`, 'i').exec(uid.trim());
  if (!match || match[2]!.toLowerCase() !== mailDomain(mailFrom).toLowerCase()) return undefined;
  return match[1]!.toLowerCase();
}

export async function handleReply(deps: HandleDeps, raw: Buffer): Promise<Verdict> {
  const reply = await readReply(raw);
  if (!isReply(reply)) return { ignored: reply.why, ...(reply.method ? { method: reply.method } : {}) };
  const bookingId = bookingIdOfUid(reply.uid, deps.mailFrom);
  const booking = bookingId ? await bookingOfReply(deps.db, bookingId) : undefined;
  if (!bookingId || !booking) return { ignored: 'unknown-uid' };
  if (canonicalAddress(reply.attendee) !== booking.recipient) return { ignored: 'other-attendee' };
  if (canonicalAddress(reply.from) !== booking.recipient) return { ignored: 'other-sender' };
  if (!isActedOn(reply.partstat)) return { ignored: 'no-answer' };
  const fromDomain = booking.recipient.slice(booking.recipient.lastIndexOf('@') + 1);
  const authenticated = await authenticateReply(
    raw,
    fromDomain,
    carriesReplyTag(reply.organizer, bookingId, deps.linkSecret),
    deps.resolver,
  );
  if ('refused' in authenticated) return { ignored: 'unauthenticated' };
  const { outcome, jobs } = await applyReply(
    deps.db,
    {
      bookingId,
      partstat: reply.partstat,
      sequence: reply.sequence,
      stamp: reply.stamp,
      now: deps.now?.() ?? new Date(),
    },
    deps.salesNotifyEmail,
  );
  return { bookingId, partstat: reply.partstat, outcome, by: authenticated.by, jobs };
}
