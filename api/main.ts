/** Entry point of the API process (the docker image runs this): migrate if asked, serve, stop cleanly on SIGTERM/SIGINT. */
import { createLogger } from '../server-shared/logger.js';
import { closeOnSignals } from '../server-shared/shutdown.js';
import { loadApiConfig } from './config.js';
import { migrateLatest } from './db.js';
import { startApiServer } from './server.js';

const config = loadApiConfig();
const logger = createLogger('api', config.logLevel);

try {
  if (process.argv.includes('--migrate')) {
    const applied = await migrateLatest(config.databaseUrl, logger);
    logger.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
  }
  const api = await startApiServer(config, logger);
  logger.info({ url: api.url }, 'api listening');
  closeOnSignals(logger, api.close);
} catch (err) {
  logger.fatal({ err }, 'api failed to start');
  process.exit(1);
}
