/** Sends one confirmation. A plain function of its dependencies, so tests call it directly. */
import { UnrecoverableError } from 'bullmq';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { SendConfirmationPayload } from '../domain/jobs.js';
import { withoutAddresses } from '../domain/text.js';
import { renderConfirmation } from './confirmation-email.js';
import { lockConfirmation, markSent, recordFailure } from './confirmation-repository.js';

export interface OutgoingMail {
  from: string;
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  icalEvent: { method: 'REQUEST'; filename: string; content: string };
}

/** What the SMTP server said: its reply line names where a local mail sink stored the message. */
export type SendMail = (mail: OutgoingMail) => Promise<{ messageId?: string; response?: string }>;

export interface ConfirmationDeps {
  db: Knex;
  sendMail: SendMail;
  mailFrom: string;
  timeZone: string;
  publicUrl: string;
  logger: Logger;
  now?: () => Date;
}

export type ConfirmationOutcome = 'sent' | 'already-sent' | 'missing';

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

export async function processConfirmation(
  deps: ConfirmationDeps,
  payload: SendConfirmationPayload,
  signal?: AbortSignal,
): Promise<ConfirmationOutcome> {
  const id = payload.demoRequestId;
  const log = deps.logger.child({ demoRequestId: id });
  let failure: Error | undefined;
  const outcome = await deps.db.transaction(async (trx): Promise<ConfirmationOutcome | undefined> => {
    const request = await lockConfirmation(trx, id);
    if (!request) return 'missing';
    if (request.sentAt) return 'already-sent';
    const email = renderConfirmation(request, {
      timeZone: deps.timeZone,
      mailFrom: deps.mailFrom,
      publicUrl: deps.publicUrl,
      now: deps.now?.() ?? new Date(),
    });
    try {
      const info = await unlessAborted(
        deps.sendMail({
          from: deps.mailFrom,
          to: { name: email.toName, address: request.email },
          subject: email.subject,
          text: email.text,
          html: email.html,
          icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: email.ics },
        }),
        signal,
      );
      await markSent(trx, id);
      log.info({ messageId: info.messageId, smtpResponse: info.response }, 'confirmation sent');
      return 'sent';
    } catch (err) {
      // Kept on the row (the transaction commits) and thrown after: the queue retries a temporary failure with
      // backoff, and gives up on a permanent one.
      failure = describeFailure(err);
      await recordFailure(trx, id, failure.message, failure instanceof UnrecoverableError);
      return undefined;
    }
  });
  if (failure) {
    const permanent = failure instanceof UnrecoverableError;
    log.warn({ error: failure.message }, permanent ? 'confirmation refused for good by the SMTP server; no more tries' : 'confirmation not sent; will retry');
    throw failure;
  }
  if (outcome === undefined) throw new Error('confirmation ended without an outcome');
  if (outcome === 'missing') log.warn('demo request not found; nothing to send');
  if (outcome === 'already-sent') log.info('confirmation already sent; nothing to do');
  return outcome;
}
