/** How each process ends: the first SIGTERM or SIGINT closes what it runs, then the process exits 0 (1 if closing failed). */
import type { Logger } from 'pino';

export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
