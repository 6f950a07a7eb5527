/**
 * The sms channel (issue 40): a row of an `sms-*` kind becomes a text to the number the prospect consented to (the
 * row's recipient, E.164), written by its kind's template (sms/texts.ts) on the prospect's clock, and submitted over
 * the worker's SMPP bind (sms/smpp-link.ts). The SMSC's message id is kept on the row, for its delivery receipt. A
 * throttled SMSC (ESME_RTHROTTLED, ESME_RMSGQFUL) or a dropped bind is a failure tried again by the kind's backoff;
 * any other error status refuses the text for good.
 */
import { UnrecoverableError } from 'bullmq';
import smpp from 'smpp';
import { isDeliveryKind } from '../../server-shared/delivery-kinds.js';
import { managePathOf } from '../../server-shared/booking-link.js';
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
  /** Counts each try of a text by its kind and outcome (METRICS_PORT). */
  metrics?: WorkerMetrics;
}

export interface TextMessage {
  /** The row's kind, for the count of its tries. */
  kind: string;
  to: string;
  text: string;
}

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
      return {
        kind: row.kind,
        to: change.recipient,
        text: kind.text(
          { ...lead, timeSlot: change.time_slot },
          {
            zone: lead.visitorTimeZone ?? deps.timeZone,
            manageUrl: `${deps.publicUrl}${managePathOf(lead.id, deps.linkSecret)}`,
          },
        ),
      };
    },
    async send(message, signal) {
      const counted = (outcome: TextOutcome) => deps.metrics?.textTried(message.kind, outcome);
      if (!deps.sms) {
        counted('refused');
        throw new SendFailure('this worker has no SMPP_URL to send texts through', { ends: 'message' });
      }
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
    },
  };
}
