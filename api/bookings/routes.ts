/**
 * A booking reached through its link: GET /api/bookings/{token} (what the manage page shows) and
 * GET /api/bookings/{token}/invite.ics (the calendar event to download). A token that was altered, made with another
 * secret or names no booking gets the same 404: the answer tells nothing about which.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { bookingIdOf } from '../../server-shared/booking-link.js';
import { bookingInvitation, type Booking } from '../../server-shared/invitation.js';
import type { Db } from '../db.js';
import { ApiError } from '../errors.js';
import { findBooking } from '../demo-requests/repository.js';

export interface BookingView {
  timeSlot: string;
  status: 'booked' | 'cancelled';
  name: string;
  company: string;
}

export interface BookingLinkDeps {
  db: Db;
  linkSecret: string;
  mailFrom: string;
  now: () => Date;
}

const notFound = () => new ApiError(404, 'Not found', 'There is no booking at this link.');

async function bookingAt(deps: BookingLinkDeps, ctx: Context): Promise<Booking> {
  const id = bookingIdOf(String(ctx.params.token ?? ''), deps.linkSecret);
  const booking = id ? await findBooking(deps.db, id) : undefined;
  if (!booking) throw notFound();
  // What a booking's link shows is the prospect's own: no cache keeps it.
  ctx.set('Cache-Control', 'no-store');
  return booking;
}

export function bookingRoutes(deps: BookingLinkDeps): Router {
  const router = new Router();
  router.get('/api/bookings/:token', async (ctx) => {
    const booking = await bookingAt(deps, ctx);
    const view: BookingView = { timeSlot: booking.timeSlot.toISOString(), status: 'booked', name: booking.name, company: booking.company };
    ctx.body = view;
  });
  router.get('/api/bookings/:token/invite.ics', async (ctx) => {
    const booking = await bookingAt(deps, ctx);
    ctx.type = 'text/calendar; charset=utf-8; method=PUBLISH';
    ctx.attachment('invite.ics');
    ctx.body = bookingInvitation(booking, { mailFrom: deps.mailFrom, now: deps.now(), method: 'PUBLISH' });
  });
  return router;
}
