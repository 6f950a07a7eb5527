/**
 * The form's honeypot: a field hidden from people and screen readers that only a bot fills. Such a request is
 * answered as a real booking of the same body would be, so the bot learns nothing: the same validation (400), the
 * same 409 for a slot the address already holds or that is full (its own catches counted as bookings), the same 201
 * with the host a booking would get, an invitation link and a booking page that open, and a slot list that shows its
 * network the slot as taken for an hour. It takes no real slot and nothing is sent; what its link shows is kept in
 * trapped_bookings until a week after its slot.
 */
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { HONEYPOT_FIELD, type DemoRequestInput } from '../../domain/demo-request.js';
import { canonicalRecipient } from '../email-rules.js';
import { unlessDatabaseDown } from '../db.js';
import { clientKeyOf } from '../client-network.js';
import { invitePathOf } from '../../server-shared/booking-link.js';
import type { DemoRequestDeps } from './book.js';
import { refusalError } from './refusals.js';
import { routedHosts } from './routed-hosts.js';
import { meetingUrlOf } from './meeting.js';
import { storeTrapped } from './trapped-repository.js';
import { newBookingId } from './booking-id.js';

/** Takes the honeypot field off the body before validation; a filled one marks the request as trapped. */
export function honeypot() {
  return async (ctx: Context, next: Next): Promise<void> => {
    const body: unknown = ctx.request.body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, HONEYPOT_FIELD)) {
      const fields = body as Record<string, unknown>;
      const trap = fields[HONEYPOT_FIELD];
      delete fields[HONEYPOT_FIELD];
      if (trap !== '' && trap !== null && trap !== undefined) ctx.state.trapped = true;
    }
    await next();
  };
}

/**
 * After validation: a trapped request gets its booking-like answer here, and goes no further. The slot is asked as a
 * booking asks it, counting the bookings and the trap's own catches (book_trapped), so a bot meets 201 then 409, or
 * a second host, as a person does, without ever taking a real place. What it took is shown as taken to its network.
 */
export function answerTrapped(
  deps: Pick<
    DemoRequestDeps,
    | 'db'
    | 'logger'
    | 'bookingLimits'
    | 'linkSecret'
    | 'timeZone'
    | 'hostCalendars'
    | 'routing'
    | 'followUps'
    | 'contact'
    | 'meetingUrlTemplate'
    | 'bookingOutcome'
  > & {
    /** Told of every catch stored: the slot list of its network shows it at once. */
    trapped?: () => void;
  },
) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.state.trapped !== true) return next();
    const input = ctx.state.body as DemoRequestInput;
    const timeSlot = new Date(input.timeSlot);
    const id = newBookingId();
    // Routed as a booking is: the same 400 or 422, the same hosts and owner.
    const team = await routedHosts(deps, input.email, input.answers, timeSlot);
    const outcome = await unlessDatabaseDown(
      () =>
        storeTrapped(deps.db, {
          id,
          input,
          recipient: canonicalRecipient(input.email),
          invitePath: invitePathOf(id, deps.linkSecret),
          meetingUrl: meetingUrlOf(deps.meetingUrlTemplate),
          slotCapacity: deps.bookingLimits.slotCapacity,
          hosts: team?.hosts,
          ...(team?.owner ? { owner: team.owner } : {}),
          clientNetwork: clientKeyOf(ctx),
        }),
      deps.logger,
      'trapped request not stored',
      'We could not save your request right now. Nothing was stored; please try again in a few minutes.',
    );
    deps.bookingOutcome?.('honeypot');
    if ('reason' in outcome) throw refusalError(outcome);
    deps.trapped?.();
    (ctx.state.log as Logger).warn(
      { ip: ctx.ip, honeypot: HONEYPOT_FIELD, trappedId: id },
      'honeypot filled: answered as a booking, nothing booked or sent',
    );
    ctx.status = 201;
    ctx.body = outcome;
  };
}
