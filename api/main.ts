/** Entry point of the API process (the docker image runs this): migrate, serve, stop cleanly on SIGTERM/SIGINT. */
import { loadApiConfig } from './config.js';
import { migrateLatest } from './db.js';
import { createLogger } from '../domain/logger.js';
import { startApiServer } from './server.js';

const config = loadApiConfig();
const logger = createLogger('api', config.logLevel);

try {
  if (process.argv.includes('--migrate')) {
    const applied = await migrateLatest(config.databaseUrl);
    logger.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
  }
  const api = await startApiServer(config, logger);
  logger.info({ url: api.url }, 'api listening');
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    api.close().then(
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
  logger.fatal({ err }, 'api failed to start');
  process.exit(1);
}
