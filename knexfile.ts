import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';

const here = path.dirname(fileURLToPath(import.meta.url));
// Run from source (tsx) the migrations are .ts; from the build (dist/) they are .js.
const extension = path.extname(fileURLToPath(import.meta.url));

/** Knex's own warnings (a failed connection, say) go to the program's logger instead of the console. */
export interface KnexLogSink {
  warn(message: unknown): void;
  error(message: unknown): void;
}

export function knexConfig(connectionString: string, pool: Knex.PoolConfig = { min: 0, max: 10 }, log?: KnexLogSink): Knex.Config {
  return {
    client: 'pg',
    connection: connectionString,
    pool,
    ...(log
      ? { log: { warn: (message: unknown) => log.warn({ knex: String(message) }), error: (message: unknown) => log.error({ knex: String(message) }), debug: () => {}, deprecate: () => {} } }
      : {}),
    migrations: {
      directory: path.join(here, 'migrations'),
      tableName: 'knex_migrations',
      loadExtensions: [extension],
    },
  };
}
