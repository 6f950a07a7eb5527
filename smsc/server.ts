/**
 * The SMSC the project runs where no operator's is configured (issue 40): npm `smpp`'s server side, taking
 * transceiver binds with its one account, answering enquire_link, giving each submitted text a message id, sending a
 * delivery receipt when asked (or when told, in the tests), and messages from a phone (a STOP); slow to answer when
 * told (the tests' faults). The tests drive it directly (test/smsc.ts); `npm start` embeds it and `docker compose` runs
 * it as a service (smsc/main.ts), both writing each text to a folder (smsc/folder.ts).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import smpp, { type PDU, type Session } from 'smpp';

/** A text as the SMSC received it in a submit_sm. */
export interface SubmittedText {
  /** The destination as submitted: digits, '+' in front when its type of number is international. */
  to: string;
  /** The sender as submitted: an alphanumeric id, or digits ('+' in front when international). */
  from: string;
  text: string;
  messageId: string;
  /** Whether the sender asked for a delivery receipt (registered_delivery). */
  receipt: boolean;
  /** data_coding: 0 (the SMSC's default, GSM-7), 1 (IA5), 3 (Latin-1), 8 (UCS-2). */
  dataCoding: number;
  /** Sent as message_payload (a text longer than one part, for the SMSC to split) rather than short_message. */
  payload: boolean;
  submittedAt: Date;
}

export interface SmscOptions {
  systemId: string;
  password: string;
  /** Where it listens: 127.0.0.1 and a free port unless told. */
  host?: string;
  port?: number;
  /**
   * Called with each text before its submit is answered; a rejection answers ESME_RMSGQFUL (try again later), so
   * a text the SMSC could not keep is never acknowledged.
   */
  onText?: (text: SubmittedText) => Promise<void> | void;
  /** Sends a DELIVRD receipt this long after each text that asks for one; unset, receipts go only by sendReceipt(). */
  receiptAfterMs?: number;
  /**
   * Answers each submit this long after keeping its text, as a slow SMSC does (the tests' faults): a bind dropped
   * meanwhile leaves the text kept and never answered, which the sender can only try again.
   */
  answerDelayMs?: number;
  logger?: Logger;
}

export interface Smsc {
  /** SMPP_URL for it (the host it listens on, 127.0.0.1 when that is every address). */
  url: string;
  port: number;
  /** Successful binds so far. */
  readonly binds: () => number;
  /** Sessions bound now. */
  readonly bound: () => number;
  /** Enquire_links answered so far. */
  readonly enquireLinks: () => number;
  /** The texts kept whose submit has not been answered (waiting out answerDelayMs, or their bind gone first). */
  readonly unanswered: () => SubmittedText[];
  /** Refuses the next `count` texts (to `to` alone when given, written as SubmittedText.to) with `status`. */
  refuseNext(count: number, status?: number, to?: string): void;
  /** Closes every bound session, as an SMSC restarting does. */
  dropBinds(): void;
  /** Sends a deliver_sm receipt for `messageId`; resolves with the status the client answered it with. */
  sendReceipt(messageId: string, stat?: string): Promise<number>;
  /** Sends a deliver_sm from a phone (`from` with or without +); resolves with the status the client answered. */
  sendMessage(from: string, text: string): Promise<number>;
  stop(): Promise<void>;
}

/** Tries of an automatic receipt the client refuses (each after twice the wait of the one before), then it is given up. */
const RECEIPT_TRIES = 5;

const textOf = (pdu: PDU): string => {
  const field = (pdu.message_payload ?? pdu.short_message) as { message?: unknown } | string | undefined;
  if (typeof field === 'string') return field;
  const inner = field?.message;
  return typeof inner === 'string' ? inner : Buffer.isBuffer(inner) ? inner.toString('latin1') : '';
};

/** An address as submitted, '+' in front when its type of number (TON 1) says international. */
const addressOf = (pdu: PDU, which: 'source' | 'destination'): string => {
  const address = String(pdu[`${which}_addr`] ?? '');
  const ton = Number(pdu[which === 'source' ? 'source_addr_ton' : 'dest_addr_ton']);
  return ton === 1 ? `+${address.replace(/^\+/, '')}` : address;
};

/** The receipt's timestamp field, YYMMDDhhmm (SMPP 3.4, appendix B). */
const receiptDate = (at: Date) => at.toISOString().replace(/\D/g, '').slice(2, 12);

export async function startSmsc(options: SmscOptions): Promise<Smsc> {
  const log = options.logger;
  const bound = new Set<Session>();
  /** Every open session, bound or not: closed on stop(), so that the server's close does not wait for them. */
  const open = new Set<Session>();
  let binds = 0;
  let enquireLinks = 0;
  let refusals: { count: number; status: number; to?: string | undefined } = { count: 0, status: smpp.ESME_RTHROTTLED };
  // Ids unique across restarts (a receipt must never name another run's text): this run's prefix, then a count.
  const run = randomBytes(4).toString('hex');
  let nextId = 1;
  const timers = new Set<NodeJS.Timeout>();
  let stopping = false;
  const unanswered = new Set<SubmittedText>();

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const anyBound = () => [...bound][0];

  const deliver = (session: Session, fields: Record<string, unknown>) =>
    new Promise<number>((resolve) => {
      if (!session.deliver_sm(fields, (pdu) => resolve(pdu.command_status))) resolve(smpp.ESME_RMSGQFUL);
    });

  const sendReceipt = (messageId: string, stat = 'DELIVRD', session = anyBound()): Promise<number> => {
    if (!session) return Promise.reject(new Error('no bound session to send a receipt on'));
    const date = receiptDate(new Date());
    return deliver(session, {
      esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
      short_message: `id:${messageId} sub:001 dlvrd:001 submit date:${date} done date:${date} stat:${stat} err:000 text:`,
      receipted_message_id: messageId,
    });
  };

  /** The automatic receipt: on the session that submitted while it is bound, else any; sent again while refused. */
  const receiptLater = (messageId: string, session: Session, delayMs: number, tries = 1) =>
    later(delayMs, () => {
      if (stopping) return;
      const on = bound.has(session) ? session : anyBound();
      const again = (why: string) => {
        if (tries < RECEIPT_TRIES) receiptLater(messageId, session, delayMs * 2, tries + 1);
        else log?.warn({ messageId, why }, 'delivery receipt given up');
      };
      if (!on) return again('no bound session');
      void sendReceipt(messageId, 'DELIVRD', on).then((status) => {
        if (status === smpp.ESME_ROK) log?.info({ messageId }, 'delivery receipt DELIVRD taken');
        else again(`answered with status 0x${status.toString(16)}`);
      });
    });

  const server = smpp.createServer((session) => {
    open.add(session);
    session.on('error', (err: Error) => log?.warn({ err: err.message }, 'SMPP session error'));
    session.on('bind_transceiver', (pdu: PDU) => {
      if (pdu.system_id !== options.systemId || pdu.password !== options.password) {
        log?.warn({ systemId: pdu.system_id }, 'bind refused: wrong system_id or password');
        session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }));
        session.close();
        return;
      }
      binds += 1;
      bound.add(session);
      log?.info({ systemId: pdu.system_id, bound: bound.size }, 'transceiver bound');
      session.send(pdu.response({ system_id: 'converge-smsc' }));
    });
    session.on('close', () => {
      open.delete(session);
      if (bound.delete(session)) log?.info({ bound: bound.size }, 'transceiver unbound');
    });
    session.on('enquire_link', (pdu: PDU) => {
      enquireLinks += 1;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: PDU) => {
      if (!bound.has(session)) {
        session.send(pdu.response({ command_status: smpp.ESME_RINVBNDSTS }));
        return;
      }
      const to = addressOf(pdu, 'destination');
      if (refusals.count > 0 && (refusals.to === undefined || refusals.to === to)) {
        refusals.count -= 1;
        session.send(pdu.response({ command_status: refusals.status }));
        return;
      }
      const text: SubmittedText = {
        to,
        from: addressOf(pdu, 'source'),
        text: textOf(pdu),
        messageId: `${run}-${String(nextId++).padStart(6, '0')}`,
        receipt: (Number(pdu.registered_delivery) & 1) === 1,
        dataCoding: Number(pdu.data_coding ?? 0),
        payload: pdu.message_payload !== undefined,
        submittedAt: new Date(),
      };
      const answer = () => {
        // A session already closed takes no answer: the text stays kept and unanswered.
        if (!session.send(pdu.response({ message_id: text.messageId }))) return;
        unanswered.delete(text);
        if (text.receipt && options.receiptAfterMs !== undefined)
          receiptLater(text.messageId, session, options.receiptAfterMs);
      };
      Promise.resolve(options.onText?.(text)).then(
        () => {
          unanswered.add(text);
          if (options.answerDelayMs) later(options.answerDelayMs, answer);
          else answer();
        },
        (err: unknown) => {
          log?.error({ err }, 'a text could not be kept; answered ESME_RMSGQFUL');
          session.send(pdu.response({ command_status: smpp.ESME_RMSGQFUL }));
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = !options.host || options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  const credentials = `${encodeURIComponent(options.systemId)}:${encodeURIComponent(options.password)}`;

  return {
    url: `smpp://${credentials}@${host}:${port}`,
    port,
    binds: () => binds,
    bound: () => bound.size,
    enquireLinks: () => enquireLinks,
    unanswered: () => [...unanswered],
    refuseNext(count, status = smpp.ESME_RTHROTTLED, to) {
      refusals = { count, status, to };
    },
    dropBinds() {
      for (const session of bound) session.destroy();
      bound.clear();
    },
    sendReceipt: (messageId, stat) => sendReceipt(messageId, stat),
    sendMessage(from, text) {
      const session = anyBound();
      if (!session) return Promise.reject(new Error('no bound session to send a message on'));
      return deliver(session, {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: from.replace(/^\+/, ''),
        short_message: text,
      });
    },
    async stop() {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      for (const session of open) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
