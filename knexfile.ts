import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

const here = path.dirname(fileURLToPath(import.meta.url));
const migrationsDir = path.join(here, 'migrations');
/** The SQL functions as they run today, one file each (db/functions/*.sql; the build copies them into dist/). */
const functionsDir = path.join(here, 'db', 'functions');
// Run from source (tsx) the migrations are .ts; from the build (dist/) they are .js.
const extension = path.extname(fileURLToPath(import.meta.url));

interface MigrationModule {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * The migrations folder, with each migration named without its extension: a database migrated from source
 * and then served by the build (or the other way round) sees the same history.
 */
const migrationFolder: Knex.MigrationSource<string> = {
  async getMigrations() {
    const files = await readdir(migrationsDir);
    return files
      .filter((file) => file.endsWith(extension) && !file.endsWith(`.d${extension}`) && !file.includes('.test.'))
      .sort();
  },
  getMigrationName: (file) => file.slice(0, -extension.length),
  getMigration: async (file) => (await import(pathToFileURL(path.join(migrationsDir, file)).href)) as MigrationModule,
};

/** Knex's own warnings (a failed connection, say) go to the program's logger instead of the console. */
export interface KnexLogSink {
  warn(message: unknown): void;
  error(message: unknown): void;
}

export function knexConfig(
  connectionString: string,
  pool: Knex.PoolConfig = { min: 0, max: 10 },
  log?: KnexLogSink,
): Knex.Config {
  return {
    client: 'pg',
    connection: {
      connectionString,
      // A server that accepts connections but never answers must fail a request in seconds, not hold it.
      connectionTimeoutMillis: 5000,
      // Every query of the product reads a page or a few rows through an index. At 10M bookings the planner gave the
      // operations list's first page a parallel plan whose two worker processes took 45 of its 55 ms to start, for
      // an index scan of 0.2 ms (BENCHMARKS.md, "Ten million bookings"): no parallel plans on these connections.
      options: '-c max_parallel_workers_per_gather=0',
    },
    acquireConnectionTimeout: 5000,
    pool,
    ...(log
      ? {
          log: {
            warn: (message: unknown) => log.warn({ knex: String(message) }),
            error: (message: unknown) => log.error({ knex: String(message) }),
            debug: () => {},
            deprecate: () => {},
          },
        }
      : {}),
    migrations: { migrationSource: migrationFolder, tableName: 'knex_migrations' },
  };
}

/**
 * Applies db/functions/*.sql, in name order, in one transaction under an advisory lock (two processes migrating at
 * once take turns). Each file replaces its functions (CREATE OR REPLACE), so applying it again changes nothing.
 */
export async function applyDatabaseFunctions(db: Knex): Promise<void> {
  const files = (await readdir(functionsDir)).filter((file) => file.endsWith('.sql')).sort();
  const sources = await Promise.all(files.map((file) => readFile(path.join(functionsDir, file), 'utf8')));
  await db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended('apply-database-functions', 0))");
    for (const source of sources) await trx.raw(source);
  });
}
