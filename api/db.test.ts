import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { migrateSchema } from './db.js';

describe('migrations', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  after(async () => {
    await database.drop();
  });

  it('run up, down and up again cleanly', async () => {
    const { db } = database;
    await migrateSchema(db);
    expect(await db.schema.hasTable('bookings')).to.equal(true);
    expect(await db.schema.hasTable('users')).to.equal(true);
    await db.migrate.rollback(undefined, true);
    expect(await db.schema.hasTable('bookings')).to.equal(false);
    expect(await db.schema.hasTable('users')).to.equal(false);
    await migrateSchema(db);
    expect(await db.schema.hasTable('bookings')).to.equal(true);
    // Applying the functions' file again changes nothing, and book_demo is gone for good.
    await migrateSchema(db);
    const { rows } = await db.raw("SELECT proname FROM pg_proc WHERE proname IN ('book', 'book_demo') ORDER BY proname");
    expect(rows.map((row: { proname: string }) => row.proname)).to.deep.equal(['book']);
  });

  it('gives rows a database-made id, a creation time and a pending confirmation', async () => {
    const [row] = await database.db('bookings')
      .insert({ name: 'Ada', email: 'ada@acme.com', company: 'Acme', time_slot: new Date('2026-12-01T09:00:00Z') })
      .returning('*');
    expect(row.id).to.match(/^[0-9a-f-]{36}$/);
    expect(row.created_at).to.be.instanceOf(Date);
    expect(row).to.include({ confirmation_sent_at: null, confirmation_attempts: 0, confirmation_last_error: null, phone: null, message: null });
  });

  it('serves the outbox sweep from a partial index', async () => {
    const { rows } = await database.db.raw(
      "select indexdef from pg_indexes where tablename = 'bookings' and indexname = 'bookings_pending_confirmation_idx'",
    );
    expect(rows[0]?.indexdef).to.contain('WHERE (confirmation_sent_at IS NULL)');
  });

  it('keeps usernames unique and refuses a plain-text password', async () => {
    const users = () => database.db('users');
    await users().insert({ username: 'ops', password_hash: '$scrypt$ln=15,r=8,p=1$c2FsdA$aGFzaA' });
    let duplicate: unknown;
    await users().insert({ username: 'ops', password_hash: '$scrypt$x' }).catch((err: unknown) => (duplicate = err));
    expect(duplicate).to.have.property('code', '23505');
    let plain: unknown;
    await users().insert({ username: 'dev', password_hash: 'hunter2' }).catch((err: unknown) => (plain = err));
    expect(plain).to.have.property('constraint', 'users_password_is_hash');
  });
});

describe('migration history', () => {
  it('names migrations without their extension, so source and build share one history', async () => {
    const database = await createTestDatabase();
    try {
      const names = (await database.db('knex_migrations').orderBy('id').pluck('name')) as string[];
      expect(names).to.deep.equal([
        '20261122100000_create_demo_requests',
        '20261122100100_create_users',
        '20261122120000_add_confirmation_failed_at',
        '20261123100000_add_booking_guards',
        '20261123110000_add_confirmation_lease',
        '20261123120000_add_attribution',
        '20261124100000_add_booking_changes',
        '20261125100000_add_book_demo_function',
        '20261126100000_bound_book_demo_checks',
        '20261127100000_book_demo_own_bookings_first',
        '20261128100000_add_confirmation_dropped_at',
        '20261128110000_count_canonical_recipients',
        '20261128120000_add_trapped_demo_requests',
        '20261129100000_book_in_functions_file',
        '20261129110000_name_the_entity_booking',
      ]);
    } finally {
      await database.drop();
    }
  });
});
