import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';

const here = path.dirname(fileURLToPath(import.meta.url));
// Run from source (tsx) the migrations are .ts; from the build (dist/) they are .js.
const extension = path.extname(fileURLToPath(import.meta.url));

export function knexConfig(connectionString: string, pool: Knex.PoolConfig = { min: 0, max: 10 }): Knex.Config {
  return {
    client: 'pg',
    connection: connectionString,
    pool,
    migrations: {
      directory: path.join(here, 'migrations'),
      tableName: 'knex_migrations',
      loadExtensions: [extension],
    },
  };
}
