/** Structured logs: JSON for machines, pretty in a terminal. E-mail addresses and bodies are never logged at info. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(name: string, level = 'info', pretty = Boolean(process.stdout.isTTY)): Logger {
  return pino({
    name,
    level,
    redact: { paths: ['email', '*.email', 'message', '*.message', 'req.headers.cookie'], censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } } : {}),
  });
}
