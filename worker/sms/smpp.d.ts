/** The part of npm `smpp` this project uses: the package ships no types of its own. */
declare module 'smpp' {
  import { EventEmitter } from 'node:events';
  import { Server as NetServer, type Socket } from 'node:net';

  /** A PDU's fields as the package names them (the SMPP specification's names). */
  export type PduFields = Record<string, unknown>;

  export class PDU {
    constructor(command: string, options?: PduFields);
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(options?: PduFields): PDU;
    isResponse(): boolean;
  }

  type Shortcut = (options: PduFields, responseCallback?: (pdu: PDU) => void) => boolean;

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver: Shortcut;
    submit_sm: Shortcut;
    deliver_sm: Shortcut;
    enquire_link: Shortcut;
    unbind: Shortcut;
  }

  export class Server extends NetServer {
    sessions: Session[];
  }

  export function connect(
    options: { host: string; port: number; auto_enquire_link_period?: number },
    listener?: () => void,
  ): Session;
  export function createServer(listener: (session: Session) => void): Server;

  export const ESME_ROK: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RMSGQFUL: number;
  export const ESME_RINVDSTADR: number;
  export const ESME_RINVBNDSTS: number;
  export const ESM_CLASS: { MC_DELIVERY_RECEIPT: number };
}
