/** Entry point of the worker process (the docker image runs this): stop cleanly on SIGTERM/SIGINT. */
import { createLogger } from '../domain/logger.js';
import { loadWorkerConfig } from './config.js';
import { startWorker } from './index.js';

const config = loadWorkerConfig();
const logger = createLogger('worker', config.logLevel);

try {
  const worker = await startWorker(config, logger);
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    worker.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
} catch (err) {
  logger.fatal({ err }, 'worker failed to start');
  process.exit(1);
}
