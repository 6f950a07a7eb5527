/**
 * Structured logs: JSON for machines, pretty in a terminal. No line carries an e-mail address, a person's name or a
 * booking link's token; a line about a booking carries its `bookingId`, and a line written while a span is active
 * (tracing on) its `traceId` and `spanId`, so one booking's lines in the API and the worker are found together.
 */
import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';
import { withoutAddresses } from '../domain/text.js';

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

/** The active span's ids; none while tracing is off (no SDK: no span is ever active). */
export function traceFields(): { traceId: string; spanId: string } | Record<string, never> {
  const context = trace.getActiveSpan()?.spanContext();
  return context ? { traceId: context.traceId, spanId: context.spanId } : {};
}

/**
 * Errors as pino writes them, less what could echo a person's data: PostgreSQL's `detail` (which quotes the values of
 * a row a constraint refused), and any address in the message or the stack (an SMTP server quotes the recipient).
 */
function errorWithoutPersonalData(err: Error): Record<string, unknown> {
  const { detail: _detail, ...serialized } = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const key of ['message', 'stack'] as const) {
    const text = serialized[key];
    if (typeof text === 'string') serialized[key] = withoutAddresses(text);
  }
  return serialized;
}

export function createLogger(name: string, level = 'info', pretty = Boolean(process.stdout.isTTY)): Logger {
  const options = {
    name,
    level,
    mixin: traceFields,
    serializers: { err: errorWithoutPersonalData },
    // A safety net: no log line is meant to carry these. `err.message` is not among them: errors must stay readable.
    redact: {
      paths: ['email', '*.email', 'body', '*.body', 'req.headers.cookie', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  };
  if (pretty)
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } },
    });
  return pino(
    options,
    pino.destination({ dest: 1, sync: false, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
}
