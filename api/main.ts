/** Entry point of the API process (the docker image runs this): migrate if asked, serve, stop cleanly on SIGTERM/SIGINT. */
import { createLogger } from '../server-shared/logger.js';
import { closeOnSignals } from '../server-shared/shutdown.js';
import { checkWebhookUrlAddresses } from '../server-shared/webhooks.js';
import { loadApiConfig } from './config.js';
import { migrateLatest } from './db.js';
import { startApiServer } from './server.js';

const config = loadApiConfig();
const logger = createLogger('api', config.logLevel);
// Where the secrets made on this first start are kept (the admin token is read from there); never their values.
if (config.secretsMade.length > 0) logger.info({ files: config.secretsMade }, 'secrets made and kept for later starts');
// WEBHOOK_URL's name resolving to an address every try would refuse stops start-up here, as a bad setting does.
const webhookUrlUnresolved = await checkWebhookUrlAddresses(config.webhooks);
if (webhookUrlUnresolved) logger.warn(webhookUrlUnresolved);

try {
  if (process.argv.includes('--migrate')) {
    const applied = await migrateLatest(config.databaseUrl, logger);
    logger.info({ applied }, applied.length ? 'migrations applied' : 'schema up to date');
  }
  const api = await startApiServer(config, logger);
  logger.info({ url: api.url, metrics: api.metricsUrl ?? 'off' }, 'api listening');
  closeOnSignals(logger, api.close);
} catch (err) {
  logger.fatal({ err }, 'api failed to start');
  process.exit(1);
}
