/** A real SMTP server inside the test: it keeps every message, parsed, and can refuse the next few. */
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime, { type Email } from 'postal-mime';

export interface ReceivedMail {
  envelopeTo: string[];
  raw: string;
  parsed: Email;
}

export interface SmtpSink {
  url: string;
  messages: ReceivedMail[];
  /** Refuse the next `count` messages: by default with a temporary 451 error. */
  failNext(count: number, reply?: { code: number; message: string }): void;
  refused: number;
  /** Client connections open now. */
  openConnections(): number;
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  let toRefuse = 0;
  let refusal = { code: 451, message: 'Mailbox temporarily unavailable' };
  const sink: Partial<SmtpSink> = {};
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (toRefuse > 0) {
          toRefuse -= 1;
          sink.refused = (sink.refused ?? 0) + 1;
          const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        PostalMime.parse(raw).then(
          (parsed) => {
            messages.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, parsed });
            callback();
          },
          (err: unknown) => callback(err as Error),
        );
      });
    },
  });
  let open = 0;
  server.server.on('connection', (socket: Socket) => {
    open += 1;
    socket.once('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return Object.assign(sink, {
    openConnections: () => open,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refused: 0,
    failNext(count: number, reply = { code: 451, message: 'Mailbox temporarily unavailable' }) {
      toRefuse = count;
      refusal = reply;
    },
    async waitForMessages(count: number, timeoutMs = 15000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} e-mail(s), got ${messages.length} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as SmtpSink;
}
