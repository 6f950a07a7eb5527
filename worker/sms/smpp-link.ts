/**
 * The worker's bind to the SMSC (issue 40), through npm `smpp`'s client: one transceiver bind, kept alive with
 * enquire_link, bound again after a drop (waiting longer after each failed try), submit_sm answered with the SMSC's
 * message id or its error status, and every deliver_sm (a delivery receipt, or a message from a phone) handed on and
 * answered once handled, so that the SMSC sends again what this worker did not record.
 */
import smpp, { type PDU, type Session } from 'smpp';
import type { Logger } from 'pino';
import type { SmsSettings } from '../../server-shared/sms-settings.js';
import type { SmsMetrics } from '../metrics.js';
import { textSize } from './texts.js';

/** What the SMSC sent to this worker. */
export type Inbound =
  { kind: 'receipt'; messageId: string; state: string } | { kind: 'message'; from: string; text: string };

export interface SmppLinkOptions {
  settings: SmsSettings;
  logger: Logger;
  /** Handles a deliver_sm; it is answered once this settles (a failure answers with a temporary error). */
  onInbound(inbound: Inbound): Promise<void>;
  /** Told each bind and each drop of a bound session (METRICS_PORT). */
  metrics?: Pick<SmsMetrics, 'bindChanged'>;
  enquireLinkMs?: number;
  /** The wait before the first rebind after a drop; doubled after each failed one, up to `rebindMaxMs`. */
  rebindFirstMs?: number;
  rebindMaxMs?: number;
  /** How long a submit waits for a bind, and then for its answer. */
  submitTimeoutMs?: number;
}

/** The SMSC answered a submit_sm with an error status. */
export class SmppRefusal extends Error {
  constructor(readonly status: number) {
    super(`the SMSC answered submit_sm with status 0x${status.toString(16).padStart(4, '0')}`);
  }
}

/** The bind is not there (dropped, or not yet bound): nothing was handed to the SMSC, or its answer was lost. */
export class SmppUnbound extends Error {}

/** A receipt's state by its `stat:` word (SMPP 3.4, appendix B), as the row keeps it. */
export const RECEIPT_STATES: Record<string, string> = {
  DELIVRD: 'delivered',
  EXPIRED: 'expired',
  DELETED: 'deleted',
  UNDELIV: 'undeliverable',
  ACCEPTD: 'accepted',
  UNKNOWN: 'unknown',
  REJECTD: 'rejected',
  ENROUTE: 'enroute',
};

/** A deliver_sm's text, whatever the package made of it. */
function textOf(pdu: PDU): string {
  const message = pdu.short_message as { message?: unknown } | string | Buffer | undefined;
  if (typeof message === 'string') return message;
  if (Buffer.isBuffer(message)) return message.toString('latin1');
  const inner = message?.message;
  return typeof inner === 'string' ? inner : Buffer.isBuffer(inner) ? inner.toString('latin1') : '';
}

/** A deliver_sm as this worker reads it: a receipt (esm_class says so), else a message from a phone. */
export function inboundOf(pdu: PDU): Inbound | null {
  const text = textOf(pdu);
  if ((Number(pdu.esm_class) & smpp.ESM_CLASS.MC_DELIVERY_RECEIPT) !== 0) {
    const messageId =
      (typeof pdu.receipted_message_id === 'string' && pdu.receipted_message_id) || /\bid:(\S+)/i.exec(text)?.[1];
    const stat = /\bstat:(\w+)/i.exec(text)?.[1]?.toUpperCase();
    if (!messageId || !stat) return null;
    return { kind: 'receipt', messageId, state: RECEIPT_STATES[stat] ?? stat.toLowerCase() };
  }
  return { kind: 'message', from: String(pdu.source_addr ?? ''), text };
}

export class SmppLink {
  private session: Session | undefined;
  private bound = false;
  private closed = false;
  private rebindMs: number;
  private rebindTimer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();
  /** The submits awaiting an answer, failed when the bind drops (their callbacks would never come). */
  private readonly inFlight = new Set<(error: Error) => void>();
  /** Window slots free; past the window a submit waits for an answer to come back, as the SMSC expects. */
  private freeSlots: number;
  private readonly slotWaiters: (() => void)[] = [];

  constructor(private readonly options: SmppLinkOptions) {
    this.rebindMs = options.rebindFirstMs ?? 1000;
    this.freeSlots = options.settings.window;
  }

  /** Connects and binds; from then on keeps the bind (or tries to) until close(). */
  start(): void {
    this.open();
  }

  get isBound(): boolean {
    return this.bound;
  }

  private open(): void {
    const { settings, logger } = this.options;
    const session = smpp.connect({
      host: settings.host,
      port: settings.port,
      auto_enquire_link_period: this.options.enquireLinkMs ?? 30_000,
    });
    this.session = session;
    session.on('connect', () => {
      session.bind_transceiver(
        { system_id: settings.systemId, password: settings.password, interface_version: 0x34 },
        (pdu) => {
          if (pdu.command_status !== smpp.ESME_ROK) {
            logger.error({ status: pdu.command_status }, 'the SMSC refused the bind');
            session.destroy();
            return;
          }
          this.bound = true;
          this.options.metrics?.bindChanged(true);
          this.rebindMs = this.options.rebindFirstMs ?? 1000;
          logger.info('bound to the SMSC');
          for (const wake of this.waiters) wake();
        },
      );
    });
    session.on('deliver_sm', (pdu: PDU) => {
      const inbound = inboundOf(pdu);
      // A receipt or message recorded is answered; one that could not be is refused for now, so the SMSC sends it again.
      void (inbound ? this.options.onInbound(inbound) : Promise.resolve()).then(
        () => session.send(pdu.response()),
        (err: unknown) => {
          logger.error({ err }, 'a deliver_sm not recorded; the SMSC will send it again');
          session.send(pdu.response({ command_status: smpp.ESME_RMSGQFUL }));
        },
      );
    });
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('error', (err: Error) => logger.warn({ err: err.message }, 'the SMSC connection failed'));
    session.on('close', () => {
      if (this.session !== session) return;
      // An unbind of this worker's own (close) is no drop.
      if (this.bound && !this.closed) this.options.metrics?.bindChanged(false);
      this.bound = false;
      for (const fail of this.inFlight) fail(new SmppUnbound('the bind dropped before the SMSC answered'));
      this.inFlight.clear();
      if (this.closed) return;
      logger.warn({ inMs: this.rebindMs }, 'the SMSC bind dropped; binding again');
      this.rebindTimer = setTimeout(() => this.open(), this.rebindMs);
      this.rebindMs = Math.min(this.rebindMs * 2, this.options.rebindMaxMs ?? 30_000);
    });
  }

  /** Waits for the bind, for `ms` at most. */
  private whenBound(ms: number, signal: AbortSignal): Promise<Session> {
    if (this.bound && this.session) return Promise.resolve(this.session);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        signal.removeEventListener('abort', wake);
      };
      const wake = () => {
        done();
        if (this.bound && this.session) resolve(this.session);
        else reject(new SmppUnbound('not bound to the SMSC'));
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
      signal.addEventListener('abort', wake);
    });
  }

  /** Takes a slot of the window, waiting `ms` at most; resolves with its release. */
  private windowSlot(ms: number, signal: AbortSignal): Promise<() => void> {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.slotWaiters.shift();
      if (next) next();
      else this.freeSlots += 1;
    };
    if (this.freeSlots > 0) {
      this.freeSlots -= 1;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const give = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', giveUp);
        resolve(release);
      };
      const giveUp = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', giveUp);
        const at = this.slotWaiters.indexOf(give);
        if (at >= 0) this.slotWaiters.splice(at, 1);
        reject(new SmppUnbound("the SMSC's window stayed full"));
      };
      const timer = setTimeout(giveUp, ms);
      signal.addEventListener('abort', giveUp);
      this.slotWaiters.push(give);
    });
  }

  /** Submits one text; resolves with the SMSC's message id. */
  async submit(to: string, text: string, signal: AbortSignal): Promise<string> {
    const timeoutMs = this.options.submitTimeoutMs ?? 10_000;
    const release = await this.windowSlot(timeoutMs, signal);
    try {
      return await this.submitInWindow(to, text, signal, timeoutMs);
    } finally {
      release();
    }
  }

  private async submitInWindow(to: string, text: string, signal: AbortSignal, timeoutMs: number): Promise<string> {
    const session = await this.whenBound(timeoutMs, signal);
    const from = this.options.settings.from;
    const numeric = /^\+?[0-9]+$/.test(from);
    // A text longer than one part goes as message_payload, which the SMSC splits.
    const body = textSize(text).parts === 1 ? { short_message: text } : { message_payload: text };
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => finish(new SmppUnbound('the SMSC did not answer the submit')), timeoutMs);
      const finish = (error: Error | null, messageId?: string) => {
        clearTimeout(timer);
        this.inFlight.delete(fail);
        if (error) reject(error);
        else resolve(messageId ?? '');
      };
      const fail = (error: Error) => finish(error);
      this.inFlight.add(fail);
      const sent = session.submit_sm(
        {
          source_addr_ton: numeric ? 1 : 5,
          source_addr_npi: numeric ? 1 : 0,
          source_addr: from.replace(/^\+/, ''),
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          destination_addr: to.replace(/^\+/, ''),
          registered_delivery: 1,
          ...body,
        },
        (pdu) =>
          pdu.command_status === smpp.ESME_ROK
            ? finish(null, String(pdu.message_id ?? ''))
            : finish(new SmppRefusal(pdu.command_status)),
      );
      if (!sent) finish(new SmppUnbound('the SMSC connection is not writable'));
    });
  }

  /** Unbinds and closes; no rebind after. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.rebindTimer);
    const session = this.session;
    if (!session) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => session.destroy(() => resolve()), 1000);
      if (!this.bound || !session.unbind({}, () => session.close(() => (clearTimeout(timer), resolve())))) {
        clearTimeout(timer);
        session.destroy(() => resolve());
      }
    });
  }
}
