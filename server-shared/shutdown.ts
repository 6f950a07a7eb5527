/**
 * How each process ends: the first SIGTERM or SIGINT closes what it runs, sends the spans still buffered (when tracing
 * is on), then the process exits 0 (1 if closing failed).
 */
import type { Logger } from 'pino';
import { stopTracing } from './telemetry.js';
import { settlesWithin } from './time-limits.js';

/** A collector that does not answer must not hold up the exit: spans not sent by then are lost. */
const TRACES_FLUSH_LIMIT_MS = 2000;
const flushTraces = () => settlesWithin(stopTracing(), TRACES_FLUSH_LIMIT_MS);

export function closeOnSignals(logger: Logger, close: () => Promise<void>): void {
  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    close().then(
      () => flushTraces().finally(() => process.exit(0)),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        void flushTraces().finally(() => process.exit(1));
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
