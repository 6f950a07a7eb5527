/**
 * What the SMSC sends the worker (issue 40). A delivery receipt becomes its text's row's state (found by the SMSC's
 * message id, kept on the row when the submit was answered), with its webhook event (sms.delivered, sms.failed)
 * stored by the same statement (sms_receipt_record, db/functions/sms.sql); a receipt for a row not yet recorded (the SMSC answers
 * faster than the worker records its try) is refused for now, and the SMSC sends it again. A message saying STOP (or
 * one of its usual variants) opts its number out of every text at once: kept in sms_opt_outs, its texts still to
 * send dropped, and confirmed once, on its first STOP.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { brand } from '../../domain/brand.js';
import { deliveryJob, type QueuedJob } from '../../server-shared/jobs.js';
import type { SmsMetrics } from '../metrics.js';
import type { Inbound } from './smpp-link.js';

export class ReceiptTooEarly extends Error {}

/** The words that opt a number out, alone in the message (any case, spaces and a final full stop aside). */
export const STOP_WORDS = ['STOP', 'STOPP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'];

export const OPTED_OUT_TEXT = `${brand.product}: you will get no more texts from us. Your bookings stand; their e-mails still come.`;

/** The sender's number as the texts' rows keep it (E.164), from an SMPP source address. */
const e164 = (address: string) => `+${address.replace(/^\+/, '')}`;

export function isStop(text: string): boolean {
  return STOP_WORDS.includes(text.trim().replace(/\.$/, '').toUpperCase());
}

export function inboundRecorder(
  db: Knex,
  logger: Logger,
  confirm: (to: string, text: string) => Promise<unknown>,
  enqueue: (job: QueuedJob) => Promise<void>,
  metrics?: Pick<SmsMetrics, 'receiptRecorded'>,
): (inbound: Inbound) => Promise<void> {
  return async (inbound) => {
    if (inbound.kind === 'message') {
      if (!isStop(inbound.text) || !/^\+?[0-9]{6,15}$/.test(inbound.from)) {
        logger.info({ length: inbound.text.length }, 'a text from a phone, not a STOP');
        return;
      }
      const phone = e164(inbound.from);
      const first = await db.transaction(async (trx) => {
        const inserted = (await trx('sms_opt_outs')
          .insert({ phone })
          .onConflict('phone')
          .ignore()
          .returning('phone')) as unknown[];
        await trx('deliveries')
          .where({ channel: 'sms', recipient: phone })
          .whereNull('sent_at')
          .whereNull('failed_at')
          .whereNull('dropped_at')
          .update({ dropped_at: trx.fn.now() });
        return inserted.length > 0;
      });
      logger.info({ first }, 'a number opted out of the texts');
      // Confirmed once; a confirmation the SMSC does not take is not tried again (the opt-out stands regardless).
      if (first)
        void confirm(phone, OPTED_OUT_TEXT).catch((err: unknown) =>
          logger.warn({ err }, 'the opt-out confirmation was not sent'),
        );
      return;
    }
    const { rows } = (await db.raw('SELECT * FROM sms_receipt_record(?, ?)', [inbound.messageId, inbound.state])) as {
      rows: { recorded: number; webhooks: { id: string; due: number | string }[] }[];
    };
    const [recorded] = rows;
    if (!recorded || recorded.recorded === 0) throw new ReceiptTooEarly(`no text recorded as ${inbound.messageId} yet`);
    metrics?.receiptRecorded(inbound.state);
    logger.info({ smsMessageId: inbound.messageId, state: inbound.state }, 'delivery receipt recorded');
    // Stored with the receipt; the sweep stands behind a job lost here.
    for (const webhook of recorded.webhooks) await enqueue(deliveryJob(webhook.id, Number(webhook.due)));
  };
}
