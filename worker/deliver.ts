/**
 * Sends one row of the outbox: claims it, sends it by its channel (an e-mail, a host-calendar write), marks it sent.
 * A plain function of its dependencies, so tests call it directly; every kind (kind-writers.ts) goes through here.
 */
import type { Contact } from '../domain/brand.js';
import type { OrderGroup } from '../server-shared/delivery-kinds.js';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { UnrecoverableError } from 'bullmq';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { withoutAddresses } from '../domain/text.js';
import {
  CLAIM_LEASE_MS,
  behindEarlierEmail,
  claim,
  markDropped,
  markSent,
  recordFailure,
  releaseClaim,
  type Claim,
  type ClaimRefusal,
  type Claimed,
  type EmailRow,
  type Postponed,
} from './outbox.js';
import type { WorkerMetrics } from './metrics.js';
import { CalendarRefusal, type CalendarWrite, type WriteHostCalendar } from './host-calendar.js';
import type { OutgoingMail, SendMail } from './send-mail.js';
import { OUTCOME, inSpan } from './spans.js';

export interface DeliveryDeps {
  db: Knex;
  sendMail: SendMail;
  /** Counts what each row came to (METRICS_PORT); none when unset. */
  metrics?: WorkerMetrics;
  /** Writes a booking's event into its host's calendar (the `host-calendar` rows); unset: no team, such a row fails for good. */
  writeHostCalendar?: WriteHostCalendar;
  mailFrom: string;
  replyTo: string;
  timeZone: string;
  publicUrl: string;
  /** How buyers reach the sales desk (CONTACT_EMAIL, CONTACT_PHONE), in every e-mail's footer; the brand's own when unset. */
  contact?: Contact;
  /** Signs the booking's links (its manage page and the invitation's download). */
  linkSecret: string;
  logger: Logger;
  now?: () => Date;
}

export type DeliveryOutcome = 'sent' | ClaimRefusal | Postponed;

/** The message as a kind composes it; the sender, the reply address and the auto-reply header are added here. */
export type Composed = Omit<OutgoingMail, 'from' | 'replyTo' | 'headers'> & { replyTo?: OutgoingMail['replyTo'] };

/** What an outbox row comes to: a message to send, or a write into a host's calendar. */
export type Composition = { channel: 'email'; message: Composed } | { channel: 'calendar'; write: CalendarWrite };

export interface Delivery {
  /** The outbox row's id. */
  id: string;
  log: Logger;
  /** The message for the claimed row, or null when it is no longer true (it is then dropped, never sent). */
  compose(email: Claimed): Composition | null;
  /** The ordered line the row belongs to, if any (the registry's `order`). */
  orderOf(row: EmailRow): OrderGroup | undefined;
}

/**
 * The error the queue sees: its text without any e-mail address (mail servers quote the recipient), and
 * unrecoverable when the SMTP server refused for good (a 5xx reply), so that it is not retried.
 */
function describeFailure(err: unknown): Error {
  const message = withoutAddresses(err instanceof Error ? err.message : String(err));
  const code = (err as { responseCode?: number } | null)?.responseCode;
  return code !== undefined && code >= 500 && code < 600 ? new UnrecoverableError(message) : new Error(message);
}

/*
 * The delivery's spans (tracing on; without an SDK these calls do nothing): `deliver email` over what follows the claim
 * (the wait for an earlier row, the send and the mark), and beneath it `smtp send` or `caldav write` over the transport's work. Their attributes name the row, its
 * booking and kind, and the outcome; never an address (the failure's text is the one the row keeps, without them).
 */
/** The row's attributes on its spans. */
const EMAIL_ID = 'converge.email.id';
const BOOKING_ID = 'converge.booking.id';
const EMAIL_KIND = 'converge.email.kind';

/** Marks `span` failed with the error's text as the row keeps it (no address), and whether it is for good. */
function spanFailed(span: Span, err: unknown): void {
  const failure = describeFailure(err);
  span.setAttribute(
    OUTCOME,
    failure instanceof UnrecoverableError || err instanceof UnrecoverableError ? 'refused' : 'failed',
  );
  const code = (err as { responseCode?: number } | null)?.responseCode;
  if (code !== undefined) span.setAttribute('smtp.response_code', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
}

/** An error thrown for a claimed row carries its booking's id, for the queue's `job failed` line about it. */
function withBooking(err: Error, bookingId: string): Error {
  return Object.assign(err, { bookingId });
}

/** The booking a failed delivery was about, when the failure came from a claimed row. */
export function bookingIdOfFailure(err: Error): string | undefined {
  const bookingId: unknown = (err as { bookingId?: unknown }).bookingId;
  return typeof bookingId === 'string' ? bookingId : undefined;
}

/** Stops waiting for the SMTP server when the worker shuts down; the send then counts as failed and is retried. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(`send abandoned: ${String(signal.reason ?? 'worker shutting down')}`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A signal that aborts with the job's, or after `ms`; `done` lets go of both. */
function whileClaimHolds(signal: AbortSignal | undefined, ms: number): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('the claim on the row runs out'), Math.max(0, ms));
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Claims the e-mail on its row, sends it, and marks it sent the moment the SMTP server accepts. No database
 * transaction or row lock is held while the server is talked to. A worker killed between the server's acceptance
 * and the mark leaves a claim that runs out, and the sweep sends again: at least once, and that window is the only
 * one where a second copy (with the same Message-ID) can go out.
 */
export async function deliver(deps: DeliveryDeps, delivery: Delivery, signal?: AbortSignal): Promise<DeliveryOutcome> {
  const claimedAt = Date.now();
  const claimed = await claim(deps.db, delivery.id);
  if (claimed.claimed && claimed.channel === 'webhook') {
    await releaseClaim(deps.db, delivery.id);
    throw new UnrecoverableError(`delivery ${delivery.id} is a webhook's, not an e-mail or a calendar write`);
  }
  return deliverClaimed(deps, delivery, claimed, claimedAt, signal);
}

/** An e-mail's or calendar write's claim (outbox.ts's claim), or its refusal. */
export type BookingClaim = Exclude<Claim, { claimed: true; channel: 'webhook' }>;

/** Goes on from the claim of the row, made at `claimedAt`: the send and the mark (or why not), in its span. */
export function deliverClaimed(
  deps: DeliveryDeps,
  delivery: Delivery,
  claimed: BookingClaim,
  claimedAt: number,
  signal?: AbortSignal,
): Promise<DeliveryOutcome> {
  return inSpan(
    'deliver email',
    { attributes: { [EMAIL_ID]: delivery.id } },
    (span) => deliverRow(deps, delivery, claimed, claimedAt, span, signal),
    (outcome) => outcome,
    spanFailed,
  );
}

async function deliverRow(
  deps: DeliveryDeps,
  delivery: Delivery,
  claimed: BookingClaim,
  claimedAt: number,
  span: Span,
  signal: AbortSignal | undefined,
): Promise<DeliveryOutcome> {
  const { id } = delivery;
  if (!claimed.claimed) {
    // A missing row is the caller's to report: it may belong to another deployment sharing this Redis.
    if (claimed.reason !== 'missing')
      delivery.log.info({ reason: claimed.reason, bookingId: claimed.bookingId }, 'e-mail not claimed; nothing to do');
    if (claimed.bookingId) span.setAttribute(BOOKING_ID, claimed.bookingId);
    return claimed.reason;
  }
  const { row } = claimed.email;
  span.setAttributes({ [BOOKING_ID]: row.booking_id, [EMAIL_KIND]: row.kind });
  const log = delivery.log.child({ kind: row.kind, bookingId: row.booking_id });
  const label = row.kind;
  // A message never overtakes one its prospect should read first: asked once the row is held, before anything goes.
  if (await behindEarlierEmail(deps.db, row, delivery.orderOf(row))) {
    await releaseClaim(deps.db, id);
    log.info(`${label} waits for an earlier e-mail about its booking`);
    return 'waiting';
  }
  let composed: Composition | null;
  try {
    composed = delivery.compose(claimed.email);
  } catch (err) {
    // A row this worker cannot write (a kind its registry does not know) stays, refused, for operations to see.
    const failure = describeFailure(err);
    await recordFailure(
      deps.db,
      id,
      failure.message,
      failure instanceof UnrecoverableError || err instanceof UnrecoverableError,
    );
    deps.metrics?.delivered(row.kind, 'refused');
    log.error({ error: failure.message }, `${label} cannot be written`);
    throw withBooking(err instanceof Error ? err : failure, row.booking_id);
  }
  if (!composed) {
    await markDropped(deps.db, id);
    deps.metrics?.delivered(row.kind, 'dropped');
    log.info(`${label} no longer applies; dropped`);
    return 'dropped';
  }
  // Messages of the jobs in hand wait their turn for one of the pooled connections: a send still unfinished shortly
  // before the claim runs out is given up (never sent, if it was still waiting), so that no send outlives its claim.
  const sending = whileClaimHolds(signal, claimedAt + CLAIM_LEASE_MS - MARK_MARGIN_MS - Date.now());
  let info: { messageId?: string; response?: string };
  try {
    const transport = composed;
    info = await inSpan(
      transport.channel === 'calendar' ? 'caldav write' : 'smtp send',
      { kind: SpanKind.CLIENT, attributes: { [EMAIL_KIND]: row.kind } },
      () => unlessAborted(send(deps, transport, sending.signal), sending.signal),
      () => 'sent',
      spanFailed,
    );
  } catch (err) {
    // Kept on the row, the claim let go, and thrown: the queue retries a temporary failure with backoff and gives
    // up on a permanent one.
    const failure = describeFailure(err);
    const permanent = failure instanceof UnrecoverableError;
    await recordFailure(deps.db, id, failure.message, permanent);
    deps.metrics?.delivered(row.kind, permanent ? 'refused' : 'failed');
    const server = composed.channel === 'calendar' ? 'the calendar' : 'the SMTP server';
    log.warn(
      { error: failure.message },
      permanent ? `${label} refused for good by ${server}; no more tries` : `${label} not sent; will retry`,
    );
    throw withBooking(failure, row.booking_id);
  } finally {
    sending.done();
  }
  await markSentWhileLeaseLasts(deps.db, id, claimedAt, log, label, signal).catch((err: unknown) => {
    throw withBooking(err instanceof Error ? err : new Error(String(err)), row.booking_id);
  });
  deps.metrics?.delivered(row.kind, 'sent', row.created_at);
  log.info(
    composed.channel === 'calendar'
      ? { calendarResponse: info.response }
      : { messageId: info.messageId, smtpResponse: info.response && withoutAddresses(info.response) },
    `${label} sent`,
  );
  return 'sent';
}

/** Hands the row's work to its transport: the mailer, or the host's calendar. */
function send(
  deps: DeliveryDeps,
  composed: Composition,
  signal: AbortSignal,
): Promise<{ messageId?: string; response?: string }> {
  if (composed.channel === 'calendar') {
    if (!deps.writeHostCalendar)
      return Promise.reject(new CalendarRefusal("this worker has no TEAM_FILE to find the host's calendar in"));
    return deps.writeHostCalendar(composed.write, signal);
  }
  return deps.sendMail(
    {
      from: deps.mailFrom,
      replyTo: deps.replyTo,
      // RFC 3834: no out-of-office or other auto-reply to this one.
      headers: { 'Auto-Submitted': 'auto-generated' },
      ...composed.message,
    },
    signal,
  );
}

/** How long before the lease ends the worker stops trying to record a send (and leaves it to the sweep). */
const MARK_MARGIN_MS = 5000;

/**
 * The message has gone out: recording it is what keeps the sweep from sending it again once the lease runs out. So
 * a database that does not answer (a restart, a failover) is tried again until shortly before the lease ends, or
 * until the worker is told to stop.
 */
async function markSentWhileLeaseLasts(
  db: Knex,
  id: string,
  claimedAt: number,
  log: Logger,
  label: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const deadline = claimedAt + CLAIM_LEASE_MS - MARK_MARGIN_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
    try {
      await markSent(db, id);
      return;
    } catch (err) {
      // A worker shutting down does not wait out an outage: its grace period is shorter than the lease.
      if (signal?.aborted || Date.now() + wait >= deadline) {
        log.error({ err }, `${label} sent but not recorded; the sweep may send it again when the claim runs out`);
        throw err;
      }
      log.warn(
        { error: err instanceof Error ? err.message : String(err) },
        `${label} sent; recording it failed, trying again`,
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
