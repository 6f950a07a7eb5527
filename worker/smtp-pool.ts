/**
 * A few SMTP connections kept open, each handed one whole message at a time: nodemailer's SMTPConnection sets each
 * session up (the greeting, EHLO, STARTTLS or a TLS socket from the start, AUTH), smtp-transaction.ts then sends the
 * messages over it (the envelope pipelined, the message in one write), and this pool does what the worker needs of
 * nodemailer's own pool and nothing more: no message normalisation, no compiling of the raw message again, no
 * requeueing. A message is tried once: when its connection fails, its send fails.
 */
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type { ComposedMime } from './mime.js';
import { takeOverSession, type SmtpTransactions } from './smtp-transaction.js';

export interface SmtpPoolOptions {
  connections: number;
  /** Messages a connection carries before it is closed and another opened. */
  maxMessages?: number;
  connectionTimeout?: number;
  greetingTimeout?: number;
  socketTimeout?: number;
}

const REOPEN_AFTER_MS = 1000;

interface Waiting {
  message: ComposedMime;
  resolve(response: string): void;
  reject(err: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Pooled {
  connection: SMTPConnection;
  /** The session's transactions, once it is set up: the connection is ready from then on. */
  transactions?: SmtpTransactions;
  busy: boolean;
  /** Ends the message being handed over, once: its send's callback, or the connection's end if that comes first. */
  finish?: (err: Error | null, response?: string) => void;
  messages: number;
  gone: boolean;
}

/** The SMTPConnection options an SMTP URL stands for (smtp:// or smtps://, user and password, query settings). */
export function connectionOptionsOf(url: string): { options: SMTPConnection.Options; auth?: SMTPConnection.AuthenticationCredentials } {
  const { auth, ...options } = parseConnectionUrl(url) as SMTPConnection.Options & { auth?: { user?: string; pass?: string } };
  if (!auth || (!auth.user && !auth.pass)) return { options };
  return { options, auth: { user: auth.user, credentials: { user: auth.user ?? '', pass: auth.pass } } };
}

export function createSmtpPool(url: string, poolOptions: SmtpPoolOptions) {
  const { options, auth } = connectionOptionsOf(url);
  const connectionOptions: SMTPConnection.Options = {
    ...options,
    connectionTimeout: poolOptions.connectionTimeout,
    greetingTimeout: poolOptions.greetingTimeout,
    socketTimeout: poolOptions.socketTimeout,
  };
  const maxMessages = poolOptions.maxMessages ?? 1000;
  const waiting: Waiting[] = [];
  const pool = new Set<Pooled>();
  let closed = false;

  const leave = (entry: Waiting) => {
    if (entry.onAbort) entry.signal?.removeEventListener('abort', entry.onAbort);
  };

  const drop = (pooled: Pooled) => {
    if (pooled.gone) return;
    pooled.gone = true;
    pool.delete(pooled);
    pooled.transactions?.detach();
    pooled.connection.close();
  };

  /** After a connection could not be opened beside others that serve, no other is tried for a while. */
  let noOpenBefore = 0;

  /** A connection could not be opened: while no other connection is open, the messages waiting fail with it. */
  const failedToOpen = (pooled: Pooled, err: Error) => {
    if (pooled.gone) return;
    drop(pooled);
    if ([...pool].some((other) => other.transactions)) {
      // The messages wait for the connections that serve; a server refusing more connections is not asked again at
      // once for each message that ends.
      noOpenBefore = Date.now() + REOPEN_AFTER_MS;
      setTimeout(pump, REOPEN_AFTER_MS).unref();
      return pump();
    }
    for (const entry of waiting.splice(0)) {
      leave(entry);
      entry.reject(err);
    }
  };

  const open = () => {
    const pooled: Pooled = { connection: new SMTPConnection(connectionOptions), busy: false, messages: 0, gone: false };
    pool.add(pooled);
    // A failure while a message is handed over reaches that send's callback; one before the connection is ready
    // fails the connection; one on an idle connection (the server hanging up) just lets it go.
    pooled.connection.on('error', (err: Error) => {
      if (!pooled.transactions) failedToOpen(pooled, err);
      else if (!pooled.busy) drop(pooled);
    });
    pooled.connection.once('end', () => {
      pooled.finish?.(new Error('SMTP connection closed while a message was handed over'));
      if (!pooled.transactions) failedToOpen(pooled, new Error('SMTP connection closed before it was ready'));
      else drop(pooled);
      pump();
    });
    pooled.connection.connect((err) => {
      if (pooled.gone) return;
      if (err) return failedToOpen(pooled, err);
      const ready = () => {
        try {
          pooled.transactions = takeOverSession(pooled.connection, () => {
            drop(pooled);
            pump();
          });
        } catch (takeOverErr) {
          return failedToOpen(pooled, takeOverErr as Error);
        }
        pump();
      };
      if (!auth) return ready();
      pooled.connection.login(auth, (loginErr) => {
        if (pooled.gone) return;
        if (loginErr) return failedToOpen(pooled, loginErr);
        ready();
      });
    });
  };

  const hand = (pooled: Pooled, transactions: SmtpTransactions, entry: Waiting) => {
    leave(entry);
    pooled.busy = true;
    const finish = (err: Error | null, response?: string) => {
      if (pooled.finish !== finish) return;
      pooled.finish = undefined;
      pooled.busy = false;
      pooled.messages += 1;
      // A connection that failed a send is not trusted with another.
      if (err || pooled.messages >= maxMessages) drop(pooled);
      if (err) entry.reject(err);
      else entry.resolve(response ?? '');
      pump();
    };
    pooled.finish = finish;
    transactions.send(entry.message, finish);
  };

  function pump() {
    if (closed) return;
    for (const pooled of pool) {
      if (!waiting.length) return;
      if (pooled.transactions && !pooled.busy && !pooled.gone) hand(pooled, pooled.transactions, waiting.shift() as Waiting);
    }
    if (Date.now() < noOpenBefore) return;
    const opening = [...pool].filter((pooled) => !pooled.transactions).length;
    for (let more = Math.min(waiting.length - opening, poolOptions.connections - pool.size); more > 0; more--) open();
  }

  return {
    /**
     * Hands the message to the next free connection; answers with the server's reply line. `signal` takes a message
     * still waiting for a connection out of the queue: it is then never sent.
     */
    send(message: ComposedMime, signal?: AbortSignal): Promise<string> {
      return new Promise<string>((resolve, reject) => {
        if (closed) return reject(new Error('SMTP pool closed'));
        const entry: Waiting = { message, resolve, reject, signal };
        if (signal) {
          if (signal.aborted) return reject(new Error(`send abandoned: ${String(signal.reason)}`));
          entry.onAbort = () => {
            const at = waiting.indexOf(entry);
            if (at < 0) return;
            waiting.splice(at, 1);
            reject(new Error(`send abandoned: ${String(signal.reason)}`));
          };
          signal.addEventListener('abort', entry.onAbort, { once: true });
        }
        waiting.push(entry);
        pump();
      });
    },
    close() {
      closed = true;
      for (const entry of waiting.splice(0)) {
        leave(entry);
        entry.reject(new Error('SMTP pool closed'));
      }
      for (const pooled of [...pool]) drop(pooled);
    },
  };
}
