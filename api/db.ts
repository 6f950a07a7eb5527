import knex, { type Knex } from 'knex';
import type { ClientBase, QueryResultRow } from 'pg';
import { applyDatabaseFunctions, knexConfig, type KnexLogSink } from '../knexfile.js';
import type { Logger } from 'pino';
import { ServiceUnavailableError } from './errors.js';

export type Db = Knex;

export function createDb(databaseUrl: string, pool?: Knex.PoolConfig, log?: KnexLogSink): Db {
  return knex(knexConfig(databaseUrl, pool, log));
}

/**
 * Runs one statement straight on a pooled connection, prepared by `name` (parsed once per connection, then only
 * bound and executed): for the hot statements, without knex building the query. The connection comes from and goes
 * back to knex's pool, so the pool's size, timeouts and its dropping of broken connections hold as for any query;
 * an unreachable database fails as it does through knex (isConnectionError knows both).
 */
export async function preparedQuery<Row extends QueryResultRow>(
  db: Db,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  // knex's pg dialect pools pg Clients; its typings say `any`.
  const client = (await db.client.acquireConnection()) as ClientBase;
  try {
    return (await client.query<Row>({ name, text, values })).rows;
  } finally {
    await db.client.releaseConnection(client);
  }
}

/**
 * The migrations not yet run, then the SQL functions as they run today (db/functions/*.sql). Gives the migrations
 * it ran.
 */
export async function migrateSchema(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  await applyDatabaseFunctions(db);
  return applied;
}

/** Brings the schema up to date; safe to run from several processes at once (knex and migrateSchema take locks). */
export async function migrateLatest(databaseUrl: string, log?: KnexLogSink): Promise<string[]> {
  const db = createDb(databaseUrl, { min: 0, max: 1 }, log);
  try {
    return await migrateSchema(db);
  } finally {
    await db.destroy();
  }
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  '57P01',
  '57P03',
  '53300',
]);

/** True when the database could not be reached, as opposed to refusing the query. */
export function isConnectionError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, name, message } = err as { code?: string; name?: string; message?: string };
  if (code !== undefined && CONNECTION_ERROR_CODES.has(code)) return true;
  if (name === 'KnexTimeoutError') return true;
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  // pg says "timeout expired" when connectionTimeoutMillis runs out before the server answers; knex says "not
  // queryable" when the ROLLBACK of a transaction cut off by a crash cannot be sent either.
  return (
    typeof message === 'string' &&
    /Connection terminated|connect ECONNREFUSED|^timeout expired$|Client has encountered a connection error and is not queryable/.test(
      message,
    )
  );
}

/**
 * Runs `work`; a database that cannot be reached becomes a 503 whose details are `details` (nothing was stored),
 * logged with `what`. Any other error passes through.
 */
export async function unlessDatabaseDown<T>(
  work: () => Promise<T>,
  logger: Logger,
  what: string,
  details: string,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isConnectionError(err)) throw err;
    logger.error({ err }, `database unreachable: ${what}`);
    throw new ServiceUnavailableError(details);
  }
}

/** What a read answers when the database cannot be reached: the 503 of a write, in words that fit a read. */
export const READ_UNAVAILABLE_DETAILS =
  'We could not reach our records right now. Nothing was changed; please try again in a few minutes.';

/** A read (a booking, the slots, the operations list) through unlessDatabaseDown: a 503 like a write's. */
export function readUnlessDatabaseDown<T>(work: () => Promise<T>, logger: Logger, what: string): Promise<T> {
  return unlessDatabaseDown(work, logger, `${what} not read`, READ_UNAVAILABLE_DETAILS);
}
