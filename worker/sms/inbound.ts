/**
 * What the SMSC sends the worker (issue 40): a delivery receipt becomes its text's row's state (found by the SMSC's
 * message id, kept on the row when the submit was answered). A receipt for a row not yet recorded (the SMSC answers
 * faster than the worker records its try) is refused for now, and the SMSC sends it again.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Inbound } from './smpp-link.js';

export class ReceiptTooEarly extends Error {}

export function inboundRecorder(db: Knex, logger: Logger): (inbound: Inbound) => Promise<void> {
  return async (inbound) => {
    if (inbound.kind === 'message') {
      // Replies (STOP among them) are not read yet: logged without the number or the words.
      logger.info({ length: inbound.text.length }, 'a text from a phone, not read');
      return;
    }
    const updated = await db('deliveries')
      .where({ channel: 'sms', sms_message_id: inbound.messageId })
      .update({ sms_state: inbound.state, sms_state_at: db.fn.now() });
    if (updated === 0) throw new ReceiptTooEarly(`no text recorded as ${inbound.messageId} yet`);
    logger.info({ smsMessageId: inbound.messageId, state: inbound.state }, 'delivery receipt recorded');
  };
}
