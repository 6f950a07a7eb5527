/** Structured logs: JSON for machines, pretty in a terminal. E-mail addresses and bodies are never logged at info. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(name: string, level = 'info', pretty = Boolean(process.stdout.isTTY)): Logger {
  return pino({
    name,
    level,
    // A safety net: no log line is meant to carry these. `err.message` is not among them: errors must stay readable.
    redact: {
      paths: ['email', '*.email', 'body', '*.body', 'req.headers.cookie', 'req.headers.authorization'],
      censor: '[redacted]',
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } } : {}),
  });
}
