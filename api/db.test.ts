import { expect } from 'chai';
import knex, { type Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { migrateSchema } from './db.js';
import { timeOfTimeOrderedId } from '../test/time-ordered-id.js';

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
    const { rows } = await db.raw(
      "SELECT proname FROM pg_proc WHERE proname IN ('book', 'book_demo') ORDER BY proname",
    );
    expect(rows.map((row: { proname: string }) => row.proname)).to.deep.equal(['book']);
  });

  it("plans no parallel workers on the product's connections, where the server's own default would", async () => {
    // Parallel plans made as cheap as they can be, so that the server's default (2 workers a gather) takes one.
    const plan = async (client: Knex) =>
      client.transaction(async (trx) => {
        for (const setting of ['parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size'])
          await trx.raw(`SET LOCAL ${setting} = 0`);
        const { rows } = (await trx.raw('EXPLAIN SELECT count(*) FROM bookings')) as {
          rows: { 'QUERY PLAN': string }[];
        };
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    const plain = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
    try {
      expect(await plan(plain)).to.contain('Gather');
    } finally {
      await plain.destroy();
    }
    expect(await plan(database.db)).not.to.contain('Gather');
  });

  it('gives rows a database-made id and a creation time', async () => {
    const [row] = await database
      .db('bookings')
      .insert({ name: 'Ada', email: 'ada@acme.com', company: 'Acme', time_slot: new Date('2026-12-01T09:00:00Z') })
      .returning('*');
    expect(row.id).to.match(/^[0-9a-f-]{36}$/);
    expect(row.created_at).to.be.instanceOf(Date);
    expect(row).to.include({ phone: null, message: null, status: 'booked', sequence: 0 });
  });

  it('makes the ids of the rows that grow with the bookings in the order of time (UUID version 7)', async () => {
    const before = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const [booking] = await database
        .db('bookings')
        .insert({
          name: `Ada ${i}`,
          email: `ada${i}@acme.com`,
          company: 'Acme',
          time_slot: new Date('2026-12-01T09:00:00Z'),
        })
        .returning('id');
      const [email] = await database
        .db('deliveries')
        .insert({
          channel: 'email',
          booking_id: booking.id,
          kind: 'confirmation',
          time_slot: new Date('2026-12-01T09:00:00Z'),
          sequence: 0,
        })
        .returning('id');
      ids.push(booking.id, email.id);
      // The next pair in a later millisecond: within one, the order of version 7 ids is the random bits'.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const after = Date.now();
    // Version 7, variant 10, and the first 48 bits the time it was made, in milliseconds.
    for (const id of ids) expect(timeOfTimeOrderedId(id)).to.be.within(before - 1000, after + 1000);
    const bookings = ids.filter((_, i) => i % 2 === 0);
    expect([...bookings].sort()).to.deep.equal(bookings);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('serves the outbox sweep from a partial index of the rows still to send', async () => {
    const { rows } = await database.db.raw(
      "select indexdef from pg_indexes where tablename = 'deliveries' and indexname = 'deliveries_open_idx'",
    );
    expect(rows[0]?.indexdef).to.contain('WHERE ((sent_at IS NULL) AND (failed_at IS NULL) AND (dropped_at IS NULL))');
  });

  it('takes deliveries of any kind and channel into the outbox: no list of them in the schema', async () => {
    const [booking] = await database
      .db('bookings')
      .insert({ name: 'Ada', email: 'ada@acme.com', company: 'Acme', time_slot: new Date('2026-12-01T09:00:00Z') })
      .returning('id');
    await database.db('deliveries').insert({
      channel: 'fax',
      booking_id: booking.id,
      kind: 'survey',
      time_slot: new Date('2026-12-01T09:00:00Z'),
      sequence: 0,
    });
    expect(await database.db('deliveries').where({ booking_id: booking.id }).pluck('kind')).to.deep.equal(['survey']);
  });

  it('keeps usernames unique and refuses a plain-text password', async () => {
    const users = () => database.db('users');
    await users().insert({ username: 'ops', password_hash: '$scrypt$ln=15,r=8,p=1$c2FsdA$aGFzaA' });
    let duplicate: unknown;
    await users()
      .insert({ username: 'ops', password_hash: '$scrypt$x' })
      .catch((err: unknown) => (duplicate = err));
    expect(duplicate).to.have.property('code', '23505');
    let plain: unknown;
    await users()
      .insert({ username: 'dev', password_hash: 'hunter2' })
      .catch((err: unknown) => (plain = err));
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
        '20261130100000_one_email_outbox',
        '20261130110000_booking_host_and_meeting',
        '20261201100000_scale_indexes_and_retention',
        '20261201200000_webhooks',
        '20261201300000_email_previous_slot',
        '20261202100000_booking_attendance',
        '20261202200000_admin_sessions',
        '20261202210000_sales_list_indexes',
        '20261202300000_funnel_daily_counts',
        '20261202400000_booking_visitor_time_zone',
        '20261203100000_time_ordered_ids',
        '20261204200000_trapped_bookings_as_booked',
        '20261205100000_one_outbox_for_every_delivery',
        '20261206100000_drop_outbox_compatibility_views',
        '20261207100000_booking_routing',
        '20261207200000_routed_host_choice',
        '20261208100000_host_answers',
        '20261208200000_prospect_replies',
        '20261208300000_sms_texts',
        '20261209100000_sms_limits',
        '20261209200000_sms_links',
      ]);
    } finally {
      await database.drop();
    }
  });
});

describe("the migration that lets the honeypot's catches meet their slot as bookings", () => {
  it('rolls back to the table and functions of before, and forward again to one of each function', async () => {
    const database = await createTestDatabase();
    const { db } = database;
    const signatures = async () =>
      (
        (await db.raw(
          "SELECT p.oid::regprocedure::text AS signature FROM pg_proc p WHERE p.proname IN ('book_trapped', 'booking_slot_refusal', 'booking_choose_host') ORDER BY 1",
        )) as { rows: { signature: string }[] }
      ).rows.map((row) => row.signature);
    const added = ['recipient', 'host_email', 'client_network'];
    try {
      // The routed choice of host gave two of these functions their signatures of today: rolled back first.
      await db.migrate.down({ name: '20261207200000_routed_host_choice' });
      await db.migrate.down({ name: '20261204200000_trapped_bookings_as_booked' });
      for (const column of added) expect(await db.schema.hasColumn('trapped_bookings', column), column).to.equal(false);
      expect(await signatures()).to.deep.equal([]);
      await migrateSchema(db);
      for (const column of added) expect(await db.schema.hasColumn('trapped_bookings', column), column).to.equal(true);
      expect(await signatures()).to.deep.equal([
        'book_trapped(uuid,text,text,text,text,timestamp with time zone,integer,jsonb,text,text,text,text)',
        'booking_choose_host(timestamp with time zone,jsonb,uuid,text,boolean,text)',
        'booking_slot_refusal(text,timestamp with time zone,integer,boolean)',
      ]);
    } finally {
      await database.drop();
    }
  });
});

describe('the migration to one outbox', () => {
  it('moves each confirmation, in whatever state, into the outbox with its booking, and back when rolled back', async () => {
    const database = await createTestDatabase();
    const { db } = database;
    try {
      // The outbox as it was then: booking_emails a table of its own.
      await db.migrate.down({ name: '20261206100000_drop_outbox_compatibility_views' });
      await db.migrate.down({ name: '20261205100000_one_outbox_for_every_delivery' });
      await db.migrate.down({ name: '20261130110000_booking_host_and_meeting' });
      await db.migrate.down({ name: '20261130100000_one_email_outbox' });
      const slot = new Date('2026-12-01T09:00:00Z');
      const states = [
        {},
        {
          confirmation_sent_at: new Date('2026-11-20T10:00:00Z'),
          confirmation_attempts: 2,
          confirmation_last_error: null,
        },
        {
          confirmation_failed_at: new Date('2026-11-20T11:00:00Z'),
          confirmation_attempts: 1,
          confirmation_last_error: '550 refused',
        },
        { confirmation_dropped_at: new Date('2026-11-20T12:00:00Z'), status: 'cancelled', sequence: 1 },
        {
          confirmation_claimed_until: new Date('2026-11-20T13:00:00Z'),
          confirmation_attempts: 3,
          confirmation_last_error: '451 later',
        },
      ];
      const ids = (
        await db('bookings')
          .insert(
            states.map((state, i) => ({
              name: `P${i}`,
              email: `p${i}@acme.com`,
              company: 'Acme',
              time_slot: slot,
              ...state,
            })),
          )
          .returning('id')
      ).map((row: { id: string }) => row.id);
      await db.migrate.latest();

      const rows = await db('deliveries').whereIn('booking_id', ids).orderBy('booking_id');
      expect(rows).to.have.length(states.length);
      const byBooking = new Map(rows.map((row) => [row.booking_id, row]));
      const expected = [
        { sent_at: null, failed_at: null, dropped_at: null, claimed_until: null, attempts: 0, last_error: null },
        { sent_at: states[1]!.confirmation_sent_at, attempts: 2, last_error: null },
        { failed_at: states[2]!.confirmation_failed_at, attempts: 1, last_error: '550 refused' },
        { dropped_at: states[3]!.confirmation_dropped_at },
        { claimed_until: states[4]!.confirmation_claimed_until, attempts: 3, last_error: '451 later' },
      ];
      for (const [i, id] of ids.entries()) {
        const row = byBooking.get(id);
        expect(row).to.deep.include({ kind: 'confirmation', sequence: 0, recipient: null, ...expected[i] });
        expect(row.time_slot.toISOString()).to.equal(slot.toISOString());
      }
      const columns = (
        await db.raw("select column_name from information_schema.columns where table_name = 'bookings'")
      ).rows.map((column: { column_name: string }) => column.column_name);
      expect(columns.filter((column: string) => column.startsWith('confirmation_'))).to.deep.equal([]);

      // The outbox as it was then: booking_emails a table of its own.
      await db.migrate.down({ name: '20261206100000_drop_outbox_compatibility_views' });
      await db.migrate.down({ name: '20261205100000_one_outbox_for_every_delivery' });
      await db.migrate.down({ name: '20261130110000_booking_host_and_meeting' });
      await db.migrate.down({ name: '20261130100000_one_email_outbox' });
      const back = await db('bookings').whereIn('id', ids).orderBy('id');
      const backById = new Map(back.map((row) => [row.id, row]));
      expect(backById.get(ids[2]!)).to.deep.include({
        confirmation_failed_at: states[2]!.confirmation_failed_at,
        confirmation_last_error: '550 refused',
      });
      expect(backById.get(ids[1]!)).to.deep.include({
        confirmation_sent_at: states[1]!.confirmation_sent_at,
        confirmation_attempts: 2,
      });
      expect(await db('booking_emails').where({ kind: 'confirmation' }).count({ n: '*' }).first()).to.deep.equal({
        n: '0',
      });
    } finally {
      await database.drop();
    }
  });
});
