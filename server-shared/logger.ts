/** Structured logs: JSON for machines, pretty in a terminal. E-mail addresses and bodies are never logged at info. */
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Lines are written without blocking the event loop (a request or a send never waits on a slow log pipe), and in
 * batches: one write once this much is pending, rather than one per line under load.
 */
export const LOG_BATCH_BYTES = 8192;
/**
 * A quiet process writes what it has at least this often, so a line is never held back for long. pino also writes
 * what is still pending synchronously when the process exits, so a last line before exit(1) is kept.
 */
export const LOG_FLUSH_MS = 250;

export function createLogger(name: string, level = 'info', pretty = Boolean(process.stdout.isTTY)): Logger {
  const options = {
    name,
    level,
    // A safety net: no log line is meant to carry these. `err.message` is not among them: errors must stay readable.
    redact: {
      paths: ['email', '*.email', 'body', '*.body', 'req.headers.cookie', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  };
  if (pretty) return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } });
  return pino(options, pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }));
}
