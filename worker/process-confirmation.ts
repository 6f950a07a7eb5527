/** Sends one confirmation. A plain function of its dependencies, so tests call it directly. */
import { UnrecoverableError } from 'bullmq';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { SendConfirmationPayload } from '../server-shared/jobs.js';
import { withoutAddresses } from '../domain/text.js';
import { CLAIM_LEASE_MS, claimConfirmation, markSent, recordFailure } from './confirmation-repository.js';
import { renderConfirmation } from './email/confirmation.js';
import { invitePathOf } from '../server-shared/booking-link.js';
import { bookingUid } from '../server-shared/invitation.js';
import type { SendMail } from './send-mail.js';

export interface ConfirmationDeps {
  db: Knex;
  sendMail: SendMail;
  mailFrom: string;
  replyTo: string;
  timeZone: string;
  publicUrl: string;
  /** Signs the booking's link (the invitation's download). */
  linkSecret: string;
  logger: Logger;
  now?: () => Date;
}

export type ConfirmationOutcome = 'sent' | 'already-sent' | 'claimed-elsewhere' | 'refused' | 'missing';

/**
 * The error the queue sees: its text without any e-mail address (mail servers quote the recipient), and
 * unrecoverable when the SMTP server refused for good (a 5xx reply), so that it is not retried.
 */
function describeFailure(err: unknown): Error {
  const message = withoutAddresses(err instanceof Error ? err.message : String(err));
  const code = (err as { responseCode?: number } | null)?.responseCode;
  return code !== undefined && code >= 500 && code < 600 ? new UnrecoverableError(message) : new Error(message);
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

/**
 * Claims the confirmation on its row, sends it, and marks it sent the moment the SMTP server accepts. No database
 * transaction or row lock is held while the server is talked to. A worker killed between the server's acceptance
 * and the mark leaves a claim that runs out, and the sweep sends again: at least once, and that window is the only
 * one where a second copy (with the same Message-ID) can go out.
 */
export async function processConfirmation(
  deps: ConfirmationDeps,
  payload: SendConfirmationPayload,
  signal?: AbortSignal,
): Promise<ConfirmationOutcome> {
  const id = payload.demoRequestId;
  const log = deps.logger.child({ demoRequestId: id });
  const claimedAt = Date.now();
  const claim = await claimConfirmation(deps.db, id);
  if (!claim.claimed) {
    // A missing row is the caller's to report: it may belong to another deployment sharing this Redis.
    if (claim.reason !== 'missing') log.info({ reason: claim.reason }, 'confirmation not claimed; nothing to do');
    return claim.reason;
  }
  const { request } = claim;
  const email = renderConfirmation(request, {
    timeZone: deps.timeZone,
    mailFrom: deps.mailFrom,
    publicUrl: deps.publicUrl,
    now: deps.now?.() ?? new Date(),
    inviteUrl: `${deps.publicUrl}${invitePathOf(id, deps.linkSecret)}`,
  });
  let info: Awaited<ReturnType<SendMail>>;
  try {
    info = await unlessAborted(
      deps.sendMail({
        from: deps.mailFrom,
        replyTo: deps.replyTo,
        to: { name: email.toName, address: request.email },
        messageId: `<${bookingUid(id, deps.mailFrom)}>`,
        // RFC 3834: no out-of-office or other auto-reply to this one.
        headers: { 'Auto-Submitted': 'auto-generated' },
        subject: email.subject,
        text: email.text,
        html: email.html,
        icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: email.ics },
      }),
      signal,
    );
  } catch (err) {
    // Kept on the row, the claim let go, and thrown: the queue retries a temporary failure with backoff and gives
    // up on a permanent one.
    const failure = describeFailure(err);
    const permanent = failure instanceof UnrecoverableError;
    await recordFailure(deps.db, id, failure.message, permanent);
    log.warn({ error: failure.message }, permanent ? 'confirmation refused for good by the SMTP server; no more tries' : 'confirmation not sent; will retry');
    throw failure;
  }
  await markSentWhileLeaseLasts(deps.db, id, claimedAt, log, signal);
  log.info({ messageId: info.messageId, smtpResponse: info.response }, 'confirmation sent');
  return 'sent';
}

/** How long before the lease ends the worker stops trying to record a send (and leaves it to the sweep). */
const MARK_MARGIN_MS = 5000;

/**
 * The message has gone out: recording it is what keeps the sweep from sending it again once the lease runs out. So
 * a database that does not answer (a restart, a failover) is tried again until shortly before the lease ends, or
 * until the worker is told to stop.
 */
async function markSentWhileLeaseLasts(db: Knex, id: string, claimedAt: number, log: Logger, signal: AbortSignal | undefined): Promise<void> {
  const deadline = claimedAt + CLAIM_LEASE_MS - MARK_MARGIN_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
    try {
      await markSent(db, id);
      return;
    } catch (err) {
      // A worker shutting down does not wait out an outage: its grace period is shorter than the lease.
      if (signal?.aborted || Date.now() + wait >= deadline) {
        log.error({ err }, 'confirmation sent but not recorded; the sweep may send it again when the claim runs out');
        throw err;
      }
      log.warn({ error: err instanceof Error ? err.message : String(err) }, 'confirmation sent; recording it failed, trying again');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
