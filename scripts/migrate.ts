/**
 * `npm run migrate`: brings the schema of DATABASE_URL up to date and says what it applied. (`npm start` and the
 * API image migrate by themselves; this is for a database the programs do not start against, or a release step.)
 */
import { loadMigrationConfig } from '../api/config.js';
import { migrateLatest } from '../api/db.js';
import { createLogger } from '../server-shared/logger.js';
import { redactUrl } from './dev-services/config.js';

const config = loadMigrationConfig();
const logger = createLogger('migrate', config.logLevel);

try {
  const applied = await migrateLatest(config.databaseUrl, logger);
  logger.info(
    { database: redactUrl(config.databaseUrl), applied },
    applied.length ? `applied ${applied.length} migration(s)` : 'schema already up to date',
  );
} catch (err) {
  logger.fatal(
    `migrations failed on ${redactUrl(config.databaseUrl)}: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exitCode = 1;
}
