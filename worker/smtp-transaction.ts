/**
 * The message transactions of a pooled SMTP connection, once nodemailer's SMTPConnection has set its session up
 * (greeting, EHLO, TLS from the start or STARTTLS, AUTH). Each message takes two writes: MAIL FROM, RCPT TO and DATA
 * together when the server offers PIPELINING (RFC 2920), else one command at a time; then, on the server's 354, the
 * message, dot-stuffed, with its ending. nodemailer's own send passes the message through a stream that stuffs it a
 * byte at a time and writes its ending apart, a cost the worker pays for every message it sends.
 */
import type { Socket } from 'node:net';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { ComposedMime } from './mime.js';

/** A refusal or failure of one message, with the server's reply and its code when there is one. */
export class SmtpError extends Error {
  readonly responseCode?: number;
  constructor(
    message: string,
    readonly code: string,
    readonly response?: string,
    readonly command?: string,
  ) {
    super(response ? `${message}: ${response}` : message);
    const responseCode = response ? Number(/^\d{3}/.exec(response)?.[0]) : NaN;
    if (Number.isInteger(responseCode)) this.responseCode = responseCode;
  }
}

/** The message as it goes after DATA: line breaks as CRLF, a dot starting a line doubled, and the ending line. */
export function dataOf(raw: string): string {
  // As nodemailer's stream writes it: a bare CR or LF becomes CRLF, and a dot after one is stuffed like any other.
  const lines = /\r(?!\n)|(?<!\r)\n/.test(raw) ? raw.replace(/\r\n|\r|\n/g, '\r\n') : raw;
  const stuffed = lines.startsWith('.') || lines.includes('\n.') ? lines.replace(/(^|\n)\./g, '$1..') : lines;
  return stuffed.endsWith('\r\n') ? `${stuffed}.\r\n` : `${stuffed}\r\n.\r\n`;
}

/** What nodemailer keeps of a session that the typings leave out: its socket handlers and the server's extensions. */
interface SessionInternals {
  _socket?: unknown;
  _supportedExtensions?: unknown;
  _onSocketData?: unknown;
  _onSocketError?: unknown;
  _onConnectionSocketError?: unknown;
  _onSocketClose?: unknown;
  _onSocketEnd?: unknown;
  _onSocketTimeout?: unknown;
}

type Listener = (...args: unknown[]) => void;
const isListener = (value: unknown): value is Listener => typeof value === 'function';

/** Reply bytes as UTF-8 text, or as they came when they are not UTF-8 (nodemailer reads replies the same way). */
function asText(bytes: string): string {
  if (!/[\x80-\xff]/.test(bytes)) return bytes;
  const text = Buffer.from(bytes, 'latin1').toString('utf8');
  return text.includes('\ufffd') ? bytes : text;
}

/** A reply longer than this without its end is no SMTP server talking. */
const MAX_REPLY_CHARS = 64 * 1024;

export type SendDone = (err: Error | null, response?: string) => void;

export interface SmtpTransactions {
  /** Sends one message; one at a time. After a failure the connection is not to be used again. */
  send(message: ComposedMime, done: SendDone): void;
  /** Lets go of the socket: nodemailer's close() ends it. */
  detach(): void;
}

/**
 * Takes a set-up session's socket from nodemailer for the pool's own transactions. `onGone` hears of the socket's
 * end (closed, failed, timed out, or a server that said something out of turn); a send in hand has failed by then.
 */
export function takeOverSession(connection: SMTPConnection, onGone: (err: Error) => void): SmtpTransactions {
  const session = connection as unknown as SessionInternals;
  const socket = session._socket as Socket | false | null | undefined;
  const handlers = {
    data: session._onSocketData,
    error: session._onSocketError,
    connectionError: session._onConnectionSocketError,
    close: session._onSocketClose,
    end: session._onSocketEnd,
    timeout: session._onSocketTimeout,
  };
  const extensions = session._supportedExtensions;
  if (!socket || socket.destroyed || !Array.isArray(extensions) || !Object.values(handlers).every(isListener)) {
    // A nodemailer that keeps its session otherwise: failing here fails the connection's opening, visibly.
    throw new Error('SMTP session cannot be taken over: nodemailer keeps its socket otherwise than expected');
  }
  socket.removeListener('data', handlers.data as Listener);
  socket.removeListener('error', handlers.error as Listener);
  socket.removeListener('error', handlers.connectionError as Listener);
  socket.removeListener('close', handlers.close as Listener);
  socket.removeListener('end', handlers.end as Listener);
  socket.removeListener('timeout', handlers.timeout as Listener);

  const pipelining = extensions.includes('PIPELINING');
  const smtpUtf8 = extensions.includes('SMTPUTF8');
  /** Reply lines received and not yet ended by a last line ("250 …" after "250-…"). */
  let replyLines: string[] = [];
  let partial = '';
  /** Handlers of the replies still due, in the order of the commands sent. */
  const expected: ((reply: string) => void)[] = [];
  let current: SendDone | undefined;
  let gone = false;

  const end = (err: Error | null, response?: string) => {
    const done = current;
    current = undefined;
    done?.(err, response);
  };

  const goneWith = (err: Error) => {
    if (gone) return;
    gone = true;
    expected.length = 0;
    end(err);
    onGone(err);
  };

  const onReply = (reply: string) => {
    const handle = expected.shift();
    // 421: the server is closing the connection (RFC 5321 4.2), whatever the command was.
    if (reply.startsWith('421')) return goneWith(new SmtpError('Server is closing the connection', 'ECONNECTION', reply));
    if (!handle) return goneWith(new SmtpError('Unexpected reply from the SMTP server', 'EPROTOCOL', reply));
    handle(reply);
  };

  const onData = (chunk: Buffer) => {
    const text = partial + chunk.toString('latin1');
    let start = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
      const line = text.slice(start, at > start && text.charCodeAt(at - 1) === 0x0d ? at - 1 : at);
      start = at + 1;
      if (line === '') continue;
      replyLines.push(line);
      // "250-…" goes on; "250 …" or "250" alone is the reply's last line.
      if (line.charCodeAt(3) === 0x2d) continue;
      const reply = replyLines.join('\n');
      replyLines = [];
      onReply(asText(reply));
      if (gone) return;
    }
    partial = text.slice(start);
    if (partial.length + replyLines.length * 80 > MAX_REPLY_CHARS) goneWith(new SmtpError('Server reply exceeds the maximum size', 'EPROTOCOL'));
  };

  const listeners = {
    data: onData,
    error: (err: Error) => goneWith(err),
    close: () => goneWith(new SmtpError('Connection closed unexpectedly', 'ECONNECTION')),
    end: () => goneWith(new SmtpError('Connection closed by the server', 'ECONNECTION')),
    timeout: () => goneWith(new SmtpError('Timeout', 'ETIMEDOUT')),
  };
  socket.on('data', listeners.data);
  socket.on('error', listeners.error);
  socket.on('close', listeners.close);
  socket.on('end', listeners.end);
  socket.on('timeout', listeners.timeout);

  const write = (text: string) => {
    socket.write(text);
  };

  return {
    send(message, done) {
      if (gone) return done(new SmtpError('Connection closed', 'ECONNECTION'));
      if (current) return done(new Error('a message is already being sent over this connection'));
      const from = message.envelope.from.trim();
      const to = message.envelope.to.map((address) => address.trim());
      // An address is written into a command line: nothing in it may end the line or the address.
      if (/[\r\n<>]/.test(from)) return done(new SmtpError(`Invalid sender ${JSON.stringify(from)}`, 'EENVELOPE', undefined, 'API'));
      const invalid = to.find((address) => !address || /[\r\n<>]/.test(address));
      if (invalid !== undefined || to.length === 0) {
        return done(new SmtpError(to.length ? `Invalid recipient ${JSON.stringify(invalid)}` : 'No recipients defined', 'EENVELOPE', undefined, 'API'));
      }
      current = done;

      // As nodemailer writes them: SMTPUTF8 when an address goes beyond ASCII and the server takes it.
      const utf8 = smtpUtf8 && /[\x80-\uffff]/.test([from, ...to].join(''));
      const commands = [`MAIL FROM:<${from}>${utf8 ? ' SMTPUTF8' : ''}`, ...to.map((address) => `RCPT TO:<${address}>`), 'DATA'];
      let failure: SmtpError | undefined;
      let accepted = 0;
      let refusal: string | undefined;

      const onMail = (reply: string) => {
        if (!reply.startsWith('2')) failure = new SmtpError('Mail command failed', 'EENVELOPE', reply, 'MAIL FROM');
      };
      const onRcpt = (reply: string) => {
        if (reply.startsWith('2')) accepted += 1;
        else refusal = reply;
      };
      const noneAccepted = () => new SmtpError("Can't send mail - all recipients were rejected", 'EENVELOPE', refusal, 'RCPT TO');
      const onDataReply = (reply: string) => {
        // After a failure a server that answered DATA with 354 still waits for a message: the connection, which the
        // pool lets go after any failed send, ends instead.
        if (failure) return end(failure);
        if (accepted === 0) return end(noneAccepted());
        if (!reply.startsWith('2') && !reply.startsWith('3')) return end(new SmtpError('Data command failed', 'EENVELOPE', reply, 'DATA'));
        expected.push((final) => (final.startsWith('2') ? end(null, final) : end(new SmtpError('Message failed', 'EMESSAGE', final, 'DATA'))));
        write(dataOf(message.raw));
      };

      if (pipelining) {
        expected.push(onMail, ...to.map(() => onRcpt), onDataReply);
        write(`${commands.join('\r\n')}\r\n`);
        return;
      }
      // One command at a time: a refused sender ends the transaction at once, a refused recipient lets the others
      // go on, and DATA is sent once a recipient was accepted.
      const step = (index: number) => {
        write(`${commands[index]}\r\n`);
        expected.push((reply) => {
          if (index === commands.length - 1) return onDataReply(reply);
          if (index === 0) onMail(reply);
          else onRcpt(reply);
          if (failure) return end(failure);
          if (index === commands.length - 2 && accepted === 0) return end(noneAccepted());
          step(index + 1);
        });
      };
      step(0);
    },
    detach() {
      gone = true;
      expected.length = 0;
      socket.removeListener('data', listeners.data);
      socket.removeListener('close', listeners.close);
      socket.removeListener('end', listeners.end);
      socket.removeListener('timeout', listeners.timeout);
      // Kept until the socket is gone: an error while it closes is nobody's concern, but must not go unhandled.
      socket.removeListener('error', listeners.error);
      socket.on('error', () => {});
    },
  };
}
