/**
 * Migrations as a release step of their own (a Kubernetes Job, an init container, a one-off
 * `docker compose run --rm api node dist/api/migrate.js`). Settings: DATABASE_URL (+ PGPASSWORD), LOG_LEVEL; nothing else is needed.
 *
 *   node dist/api/migrate.js          brings the schema up to date (knex takes a lock: safe beside another), exit 0
 *   node dist/api/migrate.js --wait   waits until no migration of this image is pending (the API's init container:
 *                                     its pods start only once the Job has migrated), up to MIGRATE_WAIT_SECONDS
 *                                     (600); exit 0, or 1 when the time runs out
 *
 * `node dist/api/main.js --migrate` migrates too, then serves: what docker-compose.yml runs.
 */
import { createLogger } from '../server-shared/logger.js';
import { loadMigrationConfig } from './config.js';
import { createDb, migrateLatest } from './db.js';

const config = loadMigrationConfig();
const logger = createLogger('migrate', config.logLevel);

async function pendingMigrations(): Promise<number> {
  const db = createDb(config.databaseUrl, { min: 0, max: 1 }, logger);
  try {
    const [, pending] = (await db.migrate.list()) as [unknown[], unknown[]];
    return pending.length;
  } finally {
    await db.destroy();
  }
}

async function waitUntilMigrated(): Promise<void> {
  const deadline = Date.now() + config.waitSeconds * 1000;
  for (;;) {
    try {
      const pending = await pendingMigrations();
      if (pending === 0) {
        logger.info('schema up to date');
        return;
      }
      logger.info({ pending }, 'waiting for the migrations to run');
    } catch (err) {
      logger.warn({ err }, 'database not reachable yet');
    }
    if (Date.now() > deadline) throw new Error('the schema was not brought up to date in time');
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
}

try {
  if (process.argv.includes('--wait')) await waitUntilMigrated();
  else {
    const applied = await migrateLatest(config.databaseUrl, logger);
    logger.info({ applied }, applied.length ? `applied ${applied.length} migration(s)` : 'schema up to date');
  }
} catch (err) {
  logger.fatal({ err }, 'migration step failed');
  process.exitCode = 1;
}
