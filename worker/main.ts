/** Entry point of the worker process (the docker image runs this): stop cleanly on SIGTERM/SIGINT. */
import { createLogger } from '../server-shared/logger.js';
import { closeOnSignals } from '../server-shared/shutdown.js';
import { loadWorkerConfig } from './config.js';
import { startWorker } from './index.js';

const config = loadWorkerConfig();
const logger = createLogger('worker', config.logLevel);
// Where the secrets made on this first start are kept (the admin token is read from there); never their values.
if (config.secretsMade.length > 0) logger.info({ files: config.secretsMade }, 'secrets made and kept for later starts');

try {
  const worker = await startWorker(config, logger);
  closeOnSignals(logger, worker.close);
} catch (err) {
  logger.fatal({ err }, 'worker failed to start');
  process.exit(1);
}
