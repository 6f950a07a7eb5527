/** A throwaway PostgreSQL database per test run, migrated, dropped at the end. */
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import type { Knex } from 'knex';
import { migrateSchema } from '../api/db.js';
import { knexConfig } from '../knexfile.js';

// Tests may be pointed at another server; the default is the local one with trust auth.
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  db: Knex;
  drop(): Promise<void>;
}

function urlFor(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `converge_test_${randomBytes(5).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: ADMIN_URL, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = urlFor(name);
  const db = knex(knexConfig(url, { min: 0, max: 5 }));
  if (options.migrate !== false) await migrateSchema(db);
  return {
    url,
    name,
    db,
    async drop() {
      await db.destroy();
      const cleaner = knex({ client: 'pg', connection: ADMIN_URL, pool: { min: 0, max: 1 } });
      try {
        await cleaner.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleaner.destroy();
      }
    },
  };
}
