/** Entry point of the worker process (the docker image runs this): stop cleanly on SIGTERM/SIGINT. */
import { createLogger } from '../server-shared/logger.js';
import { closeOnSignals } from '../server-shared/shutdown.js';
import { loadWorkerConfig } from './config.js';
import { startWorker } from './index.js';

const config = loadWorkerConfig();
const logger = createLogger('worker', config.logLevel);

try {
  const worker = await startWorker(config, logger);
  closeOnSignals(logger, worker.close);
} catch (err) {
  logger.fatal({ err }, 'worker failed to start');
  process.exit(1);
}
