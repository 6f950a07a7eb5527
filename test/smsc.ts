/**
 * A real SMSC for tests (issue 40): npm `smpp`'s server side on a free port, which takes transceiver binds with its
 * one account, answers enquire_link, keeps every text submitted with the message id it gave, and can throttle the
 * next submits (ESME_RTHROTTLED), drop every bind, and send a delivery receipt or a message from a phone (a STOP).
 */
import type { AddressInfo } from 'node:net';
import smpp, { type PDU, type Session } from 'smpp';

export const SMSC_SYSTEM_ID = 'converge';
export const SMSC_PASSWORD = 'secret';

export interface SubmittedText {
  to: string;
  from: string;
  text: string;
  messageId: string;
  /** Whether the sender asked for a delivery receipt. */
  receipt: boolean;
}

export interface Smsc {
  /** SMPP_URL for it. */
  url: string;
  readonly received: SubmittedText[];
  /** Successful binds so far. */
  readonly binds: () => number;
  /** Enquire_links answered so far. */
  readonly enquireLinks: () => number;
  /** The next `count` submits are answered with `status` (ESME_RTHROTTLED unless told). */
  /** Refuses the next `count` texts (to `to` alone when given, as the SMSC reads the number: digits, no '+'). */
  refuseNext(count: number, status?: number, to?: string): void;
  /** Closes every bound session, as an SMSC restarting does. */
  dropBinds(): void;
  /** Sends a deliver_sm receipt for `messageId`; resolves with the status the client answered it with. */
  sendReceipt(messageId: string, stat?: string): Promise<number>;
  /** Sends a deliver_sm from a phone (`from` without +); resolves with the status the client answered it with. */
  sendMessage(from: string, text: string): Promise<number>;
  stop(): Promise<void>;
}

const textOf = (pdu: PDU): string => {
  const field = (pdu.message_payload ?? pdu.short_message) as { message?: unknown } | string | undefined;
  if (typeof field === 'string') return field;
  const inner = field?.message;
  return typeof inner === 'string' ? inner : Buffer.isBuffer(inner) ? inner.toString('latin1') : '';
};

export async function startSmsc(): Promise<Smsc> {
  const received: SubmittedText[] = [];
  const bound = new Set<Session>();
  let binds = 0;
  let enquireLinks = 0;
  let refusals: { count: number; status: number; to?: string | undefined } = { count: 0, status: smpp.ESME_RTHROTTLED };
  let nextId = 1;

  const server = smpp.createServer((session) => {
    session.on('error', () => {});
    session.on('bind_transceiver', (pdu: PDU) => {
      if (pdu.system_id !== SMSC_SYSTEM_ID || pdu.password !== SMSC_PASSWORD) {
        session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }));
        session.close();
        return;
      }
      binds += 1;
      bound.add(session);
      session.send(pdu.response({ system_id: 'test-smsc' }));
    });
    session.on('close', () => bound.delete(session));
    session.on('enquire_link', (pdu: PDU) => {
      enquireLinks += 1;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: PDU) => {
      if (refusals.count > 0 && (refusals.to === undefined || refusals.to === String(pdu.destination_addr))) {
        refusals.count -= 1;
        session.send(pdu.response({ command_status: refusals.status }));
        return;
      }
      const messageId = `m${String(nextId++).padStart(6, '0')}`;
      received.push({
        to: String(pdu.destination_addr),
        from: String(pdu.source_addr),
        text: textOf(pdu),
        messageId,
        receipt: (Number(pdu.registered_delivery) & 1) === 1,
      });
      session.send(pdu.response({ message_id: messageId }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;

  return {
    url: `smpp://${SMSC_SYSTEM_ID}:${SMSC_PASSWORD}@127.0.0.1:${port}`,
    received,
    binds: () => binds,
    enquireLinks: () => enquireLinks,
    refuseNext(count, status = smpp.ESME_RTHROTTLED, to) {
      refusals = { count, status, to };
    },
    dropBinds() {
      for (const session of bound) session.destroy();
      bound.clear();
    },
    sendReceipt(messageId, stat = 'DELIVRD') {
      const session = [...bound][0];
      if (!session) return Promise.reject(new Error('no bound session to send a receipt on'));
      const date = '2612011200';
      return new Promise((resolve) => {
        session.deliver_sm(
          {
            esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
            short_message: `id:${messageId} sub:001 dlvrd:001 submit date:${date} done date:${date} stat:${stat} err:000 text:`,
            receipted_message_id: messageId,
          },
          (pdu) => resolve(pdu.command_status),
        );
      });
    },
    sendMessage(from, text) {
      const session = [...bound][0];
      if (!session) return Promise.reject(new Error('no bound session to send a message on'));
      return new Promise((resolve) => {
        session.deliver_sm({ source_addr_ton: 1, source_addr_npi: 1, source_addr: from, short_message: text }, (pdu) =>
          resolve(pdu.command_status),
        );
      });
    },
    async stop() {
      for (const session of bound) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
