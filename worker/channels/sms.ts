/**
 * The sms channel (issue 40): a row of an `sms-*` kind becomes a text to the number the prospect consented to (the
 * row's recipient, E.164), written by its kind's template (sms/texts.ts) on the prospect's clock with the booking's
 * short link (api/bookings/sms-link.ts), and submitted over the worker's SMPP bind (sms/smpp-link.ts). The SMSC's message id is kept on the row, for its delivery receipt. A
 * throttled SMSC (ESME_RTHROTTLED, ESME_RMSGQFUL) or a dropped bind is a failure tried again by the kind's backoff;
 * any other error status refuses the text for good, and raises its sms.failed event with the refusal's record.
 */
import { UnrecoverableError } from 'bullmq';
import smpp from 'smpp';
import { isDeliveryKind } from '../../server-shared/delivery-kinds.js';
import type { Knex } from 'knex';
import { smsLinkCode, smsLinkDigest, smsLinkPath } from '../../server-shared/booking-link.js';
import { deliveryJob, type QueuedJob } from '../../server-shared/jobs.js';
import { KIND_WRITERS, type ComposeDeps } from '../kind-writers.js';
import { changeOf, type Claimed } from '../delivery-row.js';
import type { TextOutcome, WorkerMetrics } from '../metrics.js';
import { SmppRefusal } from '../sms/smpp-link.js';
import { textSize } from '../sms/texts.js';
import { SendFailure, type Sender } from './sender.js';

/** What submits a text: the SMPP bind, or a test's stand-in. */
export interface TextSubmitter {
  submit(to: string, text: string, signal: AbortSignal): Promise<string>;
}

export interface SmsSenderDeps extends ComposeDeps {
  /** The bind to the SMSC; unset (no SMPP_URL), a text is refused for good. */
  sms?: TextSubmitter;
  /** Where the text's short link is made sure of before it goes. */
  db: Knex;
  /** Queues a text's sms.failed webhook deliveries once stored; unset: the sweep finds them. */
  enqueue?(job: QueuedJob): Promise<void>;
  /** Counts each try of a text by its kind and outcome (METRICS_PORT). */
  metrics?: WorkerMetrics;
}

export interface TextMessage {
  /** The row's kind, for the count of its tries. */
  kind: string;
  to: string;
  text: string;
  /** The booking and the digest of the short link code the text carries. */
  link: { bookingId: string; digest: string };
}

/**
 * The short link the text carries opens its booking: book() stored its digest, unless the link secret was rotated
 * since (the code is then the new secret's) or the booking is older than the short links. Never for a booking whose
 * personal data is gone.
 */
const KEEP_LINK_SQL = `INSERT INTO sms_links (digest, booking_id)
  SELECT ?, b.id FROM bookings b WHERE b.id = ? AND b.anonymised_at IS NULL
  ON CONFLICT (digest) DO NOTHING`;

/** How long a throttled SMSC is left alone before the next try (the queue's backoff may wait longer). */
const THROTTLED_PAUSE_MS = 1000;

export function smsSender(deps: SmsSenderDeps): Sender<TextMessage> {
  return {
    receiver: 'the SMSC',
    span: 'smpp submit',
    compose({ row, lead }: Claimed, now: Date): TextMessage | null {
      const change = changeOf(row);
      if (!change || !isDeliveryKind(row.kind)) throw new UnrecoverableError(`a ${row.kind} row is not a text`);
      const kind = KIND_WRITERS[row.kind];
      if (kind.channel !== 'sms') throw new UnrecoverableError(`a ${row.kind} row is not a text`);
      if (!lead || change.recipient === null || !kind.stillTrue(change, lead, now)) return null;
      const code = smsLinkCode(lead.id, deps.linkSecret);
      return {
        kind: row.kind,
        to: change.recipient,
        text: kind.text(
          { ...lead, timeSlot: change.time_slot },
          { zone: lead.visitorTimeZone ?? deps.timeZone, smsLink: `${deps.publicUrl}${smsLinkPath(code)}` },
        ),
        link: { bookingId: lead.id, digest: smsLinkDigest(code) },
      };
    },
    async send(message, signal) {
      const counted = (outcome: TextOutcome) => deps.metrics?.textTried(message.kind, outcome);
      if (!deps.sms) {
        counted('refused');
        throw new SendFailure('this worker has no SMPP_URL to send texts through', { ends: 'message' });
      }
      await deps.db.raw(KEEP_LINK_SQL, [message.link.digest, message.link.bookingId]);
      try {
        const messageId = await deps.sms.submit(message.to, message.text, signal);
        counted('sent');
        const size = textSize(message.text);
        return {
          response: `accepted as ${messageId}`,
          fields: { smsMessageId: messageId, smsParts: size.parts, smsEncoding: size.encoding },
        };
      } catch (err) {
        if (!(err instanceof SmppRefusal)) {
          counted('unbound');
          throw err;
        }
        if (err.status === smpp.ESME_RTHROTTLED || err.status === smpp.ESME_RMSGQFUL) {
          counted('throttled');
          throw new SendFailure(err.message, { retryAfterMs: THROTTLED_PAUSE_MS, status: err.status });
        }
        counted('refused');
        throw new SendFailure(err.message, { ends: 'message', status: err.status });
      }
    },
    async record(trx, { row }, tried) {
      const messageId = tried.fields.smsMessageId;
      if (tried.outcome === 'sent' && typeof messageId === 'string')
        await trx('deliveries').where({ id: row.id }).update({ sms_message_id: messageId });
      if (tried.outcome === 'refused') {
        const { rows } = (await trx.raw('SELECT sms_text_refused(?) AS webhooks', [row.id])) as {
          rows: { webhooks: { id: string; due: number | string }[] }[];
        };
        const jobs = (rows[0]?.webhooks ?? []).map((webhook) => deliveryJob(webhook.id, Number(webhook.due)));
        // Queued once the refusal is committed; the sweep stands behind a job lost here.
        if (deps.enqueue && jobs.length > 0)
          void trx.executionPromise
            .then(() => Promise.all(jobs.map((job) => deps.enqueue!(job))))
            .catch(() => undefined);
      }
    },
  };
}
