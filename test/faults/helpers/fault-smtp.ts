/**
 * An SMTP server (npm smtp-server) that a fault test can make slow or take down:
 * - `answerDelayMs`: the final reply to DATA comes that long after the whole message has arrived. The message
 *   counts as received the moment it has arrived, as with a real mail server that queues it before answering;
 *   whether the answer still found the client connected is recorded too.
 * - `goDown()`: stops listening and drops every open connection, so the next connection is refused (ECONNREFUSED);
 *   `comeBack()` listens again on the same port.
 * Messages are counted by their Message-ID, which is how duplicates are found.
 */
import type { Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  messageId: string;
  to: string[];
  at: number;
  /** The 250 went out on a live connection: the client knows the message was taken. */
  answered: boolean;
  /** The whole message, kept only when the server was started with `keepRaw` (scenarios that read the content). */
  raw?: string;
}

export interface FaultSmtp {
  url: string;
  port: number;
  messages: ReceivedMessage[];
  answerDelayMs: number;
  /** Connections refused or dropped while down, and connections accepted in all. */
  connections: number;
  goDown(): Promise<void>;
  comeBack(): Promise<void>;
  /** Messages per Message-ID. */
  countsById(): Map<string, number>;
  /**
   * Distinct Message-IDs, copies beyond the first, and messages taken in whose 250 never reached the client (it hung
   * up, or was killed, while waiting for the answer).
   */
  summary(): {
    received: number;
    distinct: number;
    duplicates: number;
    duplicateIds: string[];
    notAcknowledged: number;
  };
  close(): Promise<void>;
}

const MESSAGE_ID = /^Message-ID:\s*(<[^>\r\n]+>)/im;

export async function startFaultSmtp(options: { answerDelayMs?: number; keepRaw?: boolean } = {}): Promise<FaultSmtp> {
  const messages: ReceivedMessage[] = [];
  const closedSessions = new Set<string>();
  const pendingAnswers = new Set<NodeJS.Timeout>();
  let server: SMTPServer | undefined;
  let sockets = new Set<Socket>();
  let port = 0;

  const state = {
    answerDelayMs: options.answerDelayMs ?? 0,
    connections: 0,
  };

  const listen = async (onPort: number) => {
    const instance = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // Many workers connect at once in the volume scenarios.
      maxClients: 1000,
      onClose(session) {
        closedSessions.add(session.id);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const headerEnd = raw.search(/\r?\n\r?\n/);
          const messageId = MESSAGE_ID.exec(headerEnd > 0 ? raw.slice(0, headerEnd) : raw)?.[1] ?? '(none)';
          const message: ReceivedMessage = {
            messageId,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            at: Date.now(),
            answered: false,
            ...(options.keepRaw ? { raw } : {}),
          };
          messages.push(message);
          const answer = () => {
            message.answered = !closedSessions.has(session.id);
            callback(null, `Queued as ${messageId}`);
          };
          if (state.answerDelayMs <= 0) return answer();
          const timer = setTimeout(() => {
            pendingAnswers.delete(timer);
            answer();
          }, state.answerDelayMs);
          pendingAnswers.add(timer);
        });
      },
    });
    instance.on('error', () => {});
    const own = new Set<Socket>();
    instance.server.on('connection', (socket: Socket) => {
      state.connections += 1;
      own.add(socket);
      socket.once('close', () => own.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      instance.server.once('error', reject);
      instance.listen(onPort, '127.0.0.1', () => {
        instance.server.off('error', reject);
        resolve();
      });
    });
    server = instance;
    sockets = own;
    const address = instance.server.address();
    port = typeof address === 'object' && address ? address.port : onPort;
  };

  /** Stops accepting and drops what is connected, like a server that crashed. */
  const takeDown = async () => {
    const instance = server;
    if (!instance) return;
    server = undefined;
    const closed = new Promise<void>((resolve) => instance.server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await listen(0);

  const fault: FaultSmtp = {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    messages,
    get answerDelayMs() {
      return state.answerDelayMs;
    },
    set answerDelayMs(ms: number) {
      state.answerDelayMs = ms;
    },
    get connections() {
      return state.connections;
    },
    goDown: takeDown,
    async comeBack() {
      if (!server) await listen(port);
    },
    countsById() {
      const counts = new Map<string, number>();
      for (const message of messages) counts.set(message.messageId, (counts.get(message.messageId) ?? 0) + 1);
      return counts;
    },
    summary() {
      const counts = fault.countsById();
      const duplicateIds = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
      return {
        received: messages.length,
        distinct: counts.size,
        duplicates: messages.length - counts.size,
        duplicateIds,
        notAcknowledged: messages.filter((message) => !message.answered).length,
      };
    },
    async close() {
      for (const timer of pendingAnswers) clearTimeout(timer);
      pendingAnswers.clear();
      await takeDown();
    },
  };
  return fault;
}
