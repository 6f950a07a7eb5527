import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateSchema } from './db.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';

const MIGRATION = '20261205100000_one_outbox_for_every_delivery';
/** The later migration that drops the former names this one keeps. */
const FORMER_NAMES_DROPPED = '20261206100000_drop_outbox_compatibility_views';
const SLOT = new Date('2026-12-01T09:00:00Z');

/** Every row of both former tables, as their former names show them, in the order of their ids. */
async function snapshot(db: Knex): Promise<{ emails: unknown[]; webhooks: unknown[]; attempts: unknown[] }> {
  return {
    emails: await db('booking_emails').orderBy('id'),
    webhooks: await db('webhook_deliveries').orderBy('id'),
    attempts: await db('webhook_attempts').orderBy('id'),
  };
}

async function relationKind(db: Knex, name: string): Promise<string | null> {
  const { rows } = (await db.raw('SELECT relkind FROM pg_class WHERE relname = ? AND relnamespace = 2200', [name])) as {
    rows: { relkind: string }[];
  };
  return rows[0]?.relkind ?? null;
}

describe('the migration to one outbox (deliveries), with deliveries in flight', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;
  const ids: Record<string, string> = {};

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    // The schema of before, holding rows in every state a delivery can be in.
    await db.migrate.down({ name: FORMER_NAMES_DROPPED });
    await db.migrate.down({ name: MIGRATION });
    expect(await relationKind(db, 'booking_emails')).to.equal('r');
    const [booking] = await db('bookings')
      .insert({ name: 'Ada', email: 'ada@acme.com', company: 'Acme', time_slot: SLOT })
      .returning('id');
    const email = (kind: string, state: Record<string, unknown> = {}) => ({
      booking_id: booking.id,
      kind,
      time_slot: SLOT,
      sequence: 0,
      ...state,
    });
    const stored: { id: string; kind: string }[] = await db('booking_emails')
      .insert([
        email('confirmation', { due_at: new Date(Date.now() - 120_000) }),
        email('update', { sequence: 1, change: 'rescheduled', previous_time_slot: new Date('2026-11-30T09:00:00Z') }),
        email('reminder', { due_at: new Date('2026-11-30T09:00:00Z') }),
        email('sales-notice', {
          recipient: 'sales@converge.test',
          failed_at: new Date(),
          attempts: 3,
          last_error: '550',
        }),
        email('host-invitation', { recipient: 'host@converge.test', sent_at: new Date(), attempts: 1 }),
        email('host-calendar', {
          recipient: 'host@converge.test',
          claimed_until: db.raw("now() + interval '1 minute'"),
        }),
        email('cancellation', { sequence: 2, dropped_at: new Date() }),
      ])
      .returning(['id', 'kind']);
    for (const row of stored) ids[row.kind] = row.id;
    const endpoints: { id: string }[] = await db('webhook_endpoints')
      .insert(['a', 'b', 'c', 'd'].map((name) => ({ url: `https://${name}.example/hook`, secret: `whsec_${name}` })))
      .returning('id');
    // An event and its deliveries as webhook_raise stored them then.
    const [event] = await db('webhook_events')
      .insert({ booking_id: booking.id, type: 'booking.created', payload: { type: 'booking.created' } })
      .returning(['id', 'position']);
    const deliveries: { id: string; endpoint_id: string }[] = await db('webhook_deliveries')
      .insert(
        endpoints.map((endpoint) => ({
          event_id: event.id,
          endpoint_id: endpoint.id,
          booking_id: booking.id,
          position: event.position,
        })),
      )
      .returning(['id', 'endpoint_id']);
    const of = (endpoint: number) => deliveries.find((one) => one.endpoint_id === endpoints[endpoint]!.id)!.id;
    ids.webhookDue = of(0);
    ids.webhookLeased = of(1);
    ids.webhookGivenUp = of(2);
    ids.webhookRetrying = of(3);
    await db('webhook_deliveries')
      .where({ id: ids.webhookLeased })
      .update({ claimed_until: db.raw("now() + interval '1 minute'") });
    await db('webhook_deliveries')
      .where({ id: ids.webhookGivenUp })
      .update({ exhausted_at: db.fn.now(), failing_since: db.fn.now(), attempts: 30, last_status: 500 });
    await db('webhook_deliveries')
      .where({ id: ids.webhookRetrying })
      .update({
        next_attempt_at: db.raw("date_trunc('milliseconds', now() + interval '10 minutes')"),
        failing_since: db.fn.now(),
        attempts: 2,
        last_status: 503,
        last_error: 'answered 503',
      });
    await db('webhook_attempts').insert(
      [ids.webhookGivenUp, ids.webhookRetrying].map((id) => ({ delivery_id: id, status: 503, duration_ms: 12 })),
    );
  });

  after(async () => {
    await database.drop();
  });

  it('moves every row, due, leased, given up or done, once and as it was; a worker mid-send when it starts is kept', async () => {
    const before = await snapshot(db);
    // A worker recording its send holds the row when the migration starts: the migration waits for it.
    const worker = await db.transaction();
    await worker('booking_emails').where({ id: ids.update }).update({ sent_at: worker.fn.now(), attempts: 1 });
    const migrating = db.migrate.up({ name: MIGRATION });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await relationKind(db, 'deliveries'), 'waits for the worker').to.equal(null);
    await worker.commit();
    await migrating;

    expect(await relationKind(db, 'deliveries')).to.equal('r');
    expect(await relationKind(db, 'booking_emails')).to.equal('v');
    expect(await relationKind(db, 'webhook_deliveries')).to.equal('v');
    const after = await snapshot(db);
    const sent = after.emails.find((row) => (row as { id: string }).id === ids.update) as { sent_at: Date | null };
    expect(sent.sent_at, "the worker's send is kept").to.be.instanceOf(Date);
    expect(after.emails).to.deep.equal(
      before.emails.map((row) =>
        (row as { id: string }).id === ids.update ? { ...(row as object), ...sent, attempts: 1 } : row,
      ),
    );
    expect(after.webhooks).to.deep.equal(before.webhooks);
    expect(after.attempts).to.deep.equal(before.attempts);
    const channels = await db('deliveries').select('channel').count({ n: '*' }).groupBy('channel').orderBy('channel');
    expect(channels).to.deep.equal([
      { channel: 'calendar', n: '1' },
      { channel: 'email', n: '6' },
      { channel: 'webhook', n: '4' },
    ]);
  });

  it('keeps the leases and the states: what was held stays held, what was due is due, what was given up stays given up', async () => {
    const open = (channel: string) =>
      db('deliveries')
        .where({ channel })
        .whereNull('sent_at')
        .whereNull('failed_at')
        .whereNull('dropped_at')
        .where('due_at', '<=', db.fn.now())
        .where((free) => free.whereNull('claimed_until').orWhere('claimed_until', '<', db.fn.now()))
        .orderBy('id')
        .pluck('id');
    expect(await open('email')).to.deep.equal([ids.confirmation]);
    expect(await open('calendar'), 'its lease holds').to.deep.equal([]);
    expect(await open('webhook')).to.deep.equal([ids.webhookDue]);
    const givenUp = await db('deliveries').whereNotNull('failed_at').orderBy('id').pluck('id');
    expect(givenUp).to.deep.equal([ids['sales-notice'], ids.webhookGivenUp].sort());
  });

  it('takes new rows through the former names with their channel, as the code of before writes them', async () => {
    const [booking] = await db('bookings')
      .insert({ name: 'Bo', email: 'bo@acme.com', company: 'Acme', time_slot: SLOT })
      .returning('id');
    await db('booking_emails').insert([
      { booking_id: booking.id, kind: 'confirmation', time_slot: SLOT, sequence: 0 },
      { booking_id: booking.id, kind: 'host-calendar', time_slot: SLOT, sequence: 0, recipient: 'host@converge.test' },
    ]);
    const [event] = await db('webhook_events')
      .insert({ booking_id: booking.id, type: 'booking.created', payload: { type: 'booking.created' } })
      .returning(['id', 'position']);
    const endpoints: string[] = await db('webhook_endpoints').pluck('id');
    const stored: { next_attempt_at: Date }[] = await db('webhook_deliveries')
      .insert(
        endpoints.map((id) => ({
          event_id: event.id,
          endpoint_id: id,
          booking_id: booking.id,
          position: event.position,
        })),
      )
      .returning(['id', 'next_attempt_at']);
    expect(stored).to.have.length(4);
    const rows = await db('deliveries')
      .where({ booking_id: booking.id })
      .select('channel', 'kind')
      .orderBy(['channel', 'kind']);
    expect(rows).to.deep.equal([
      { channel: 'calendar', kind: 'host-calendar' },
      { channel: 'email', kind: 'confirmation' },
      ...[1, 2, 3, 4].map(() => ({ channel: 'webhook', kind: 'webhook' })),
    ]);
    await db('bookings').where({ id: booking.id }).delete();
  });

  it('moves them all back with its down, and up again', async () => {
    const before = await snapshot(db);
    await db.migrate.down({ name: MIGRATION });
    expect(await relationKind(db, 'deliveries')).to.equal(null);
    expect(await relationKind(db, 'booking_emails')).to.equal('r');
    expect(await relationKind(db, 'webhook_deliveries')).to.equal('r');
    expect(await snapshot(db)).to.deep.equal(before);
    const { rows } = await db.raw(
      "SELECT confrelid::regclass::text AS target FROM pg_constraint WHERE conname = 'webhook_attempts_delivery_id_foreign'",
    );
    expect(rows).to.deep.equal([{ target: 'webhook_deliveries' }]);
    await db.migrate.up({ name: MIGRATION });
    expect(await snapshot(db)).to.deep.equal(before);
  });
});

describe("the migration that drops the outbox's former names (views and trigger), and its down", function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let db: Knex;

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
  });

  after(async () => {
    await database.drop();
  });

  const trigger = async () =>
    (
      (await db.raw("SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'deliveries_channel_of_row'")) as {
        rows: { n: number }[];
      }
    ).rows[0]!.n;

  it('leaves deliveries alone, its rows as they were; a row without its channel is refused', async () => {
    expect(await relationKind(db, 'booking_emails')).to.equal(null);
    expect(await relationKind(db, 'webhook_deliveries')).to.equal(null);
    expect(await trigger()).to.equal(0);
    const [booking] = await db('bookings')
      .insert({ name: 'Ada', email: 'ada@acme.com', company: 'Acme', time_slot: SLOT })
      .returning('id');
    let refused: unknown;
    try {
      await db('deliveries').insert({ booking_id: booking.id, kind: 'confirmation', time_slot: SLOT, sequence: 0 });
    } catch (err) {
      refused = err;
    }
    expect((refused as { code?: string } | undefined)?.code, 'not null violation').to.equal('23502');
    await db('deliveries').insert({
      channel: 'email',
      booking_id: booking.id,
      kind: 'confirmation',
      time_slot: SLOT,
      sequence: 0,
    });
    expect(await db('deliveries').where({ booking_id: booking.id }).pluck('channel')).to.deep.equal(['email']);
  });

  it('makes the views and the trigger again with its down, which show the rows under their former names; up drops them again', async () => {
    const rows = await db('deliveries').orderBy('id');
    await db.migrate.down({ name: FORMER_NAMES_DROPPED });
    expect(await relationKind(db, 'booking_emails')).to.equal('v');
    expect(await relationKind(db, 'webhook_deliveries')).to.equal('v');
    expect(await trigger()).to.equal(1);
    expect(await db('booking_emails').pluck('id')).to.deep.equal(rows.map((row: { id: string }) => row.id));
    // A row written through a former name, as the code of before writes it, takes its channel from its shape.
    await db('booking_emails').insert({
      booking_id: rows[0].booking_id,
      kind: 'host-calendar',
      time_slot: SLOT,
      sequence: 0,
      recipient: 'host@converge.test',
    });
    expect(await db('deliveries').where({ kind: 'host-calendar' }).pluck('channel')).to.deep.equal(['calendar']);
    await migrateSchema(db);
    expect(await relationKind(db, 'booking_emails')).to.equal(null);
    expect(await relationKind(db, 'webhook_deliveries')).to.equal(null);
    expect(await trigger()).to.equal(0);
    expect(await db('deliveries').count({ n: '*' }).first()).to.deep.equal({ n: String(rows.length + 1) });
  });
});
