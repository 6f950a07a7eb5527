import type { Knex } from 'knex';

/**
 * One outbox for every delivery a booking causes: the e-mails and host-calendar writes (booking_emails) and the webhook
 * deliveries (webhook_deliveries) become rows of one table, `deliveries`, each with its channel. Every row moves with
 * its id and its state as it stands (due, held by a live lease, sent, dropped, given up), in one transaction that
 * locks both tables, so none is lost or doubled and a worker's lease still holds afterwards. The two former names stay
 * as views of their channels, with their former columns, so that processes of the earlier release (a rolling upgrade)
 * and the tests not yet moved read and write them unchanged; a row stored without a channel (through a view, or by an
 * earlier API's call of book) takes it from its shape (deliveries_channel_of_row). A later migration drops both once
 * nothing uses them. `down` moves the rows back into the two tables as they were.
 */

/** The e-mails' columns as booking_emails had them, each with the deliveries column it is now. */
const EMAIL_COLUMNS = [
  'id',
  'booking_id',
  'kind',
  'time_slot',
  'sequence',
  'recipient',
  'change',
  'due_at',
  'created_at',
  'sent_at',
  'claimed_until',
  'attempts',
  'last_error',
  'failed_at',
  'dropped_at',
  'previous_time_slot',
].map((column) => [column, column] as const);

/** The webhook deliveries' columns as webhook_deliveries had them, each with the deliveries column it is now. */
const WEBHOOK_COLUMNS = [
  ['id', 'id'],
  ['event_id', 'event_id'],
  ['endpoint_id', 'endpoint_id'],
  ['booking_id', 'booking_id'],
  ['position', 'position'],
  ['attempts', 'attempts'],
  ['next_attempt_at', 'due_at'],
  ['failing_since', 'failing_since'],
  ['claimed_until', 'claimed_until'],
  ['delivered_at', 'sent_at'],
  ['exhausted_at', 'failed_at'],
  ['last_status', 'last_status'],
  ['last_error', 'last_error'],
  ['created_at', 'created_at'],
] as const;

const former = (columns: readonly (readonly [string, string])[]) => columns.map(([was]) => was).join(', ');
const current = (columns: readonly (readonly [string, string])[]) => columns.map(([, now]) => now).join(', ');
const asFormer = (columns: readonly (readonly [string, string])[]) =>
  columns.map(([was, now]) => (was === now ? now : `${now} AS ${was}`)).join(', ');

export async function up(knex: Knex): Promise<void> {
  // Neither table takes a row or a claim while its rows move; a worker's claim waits and then finds the view.
  await knex.raw('LOCK TABLE booking_emails, webhook_deliveries, webhook_attempts IN ACCESS EXCLUSIVE MODE');
  await knex.raw(`
    CREATE TABLE deliveries (
      id uuid PRIMARY KEY DEFAULT time_ordered_uuid(),
      -- No list of channels or kinds here: a new one (server-shared/delivery-kinds.ts) needs no migration.
      channel text NOT NULL,
      kind text NOT NULL,
      booking_id uuid NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
      -- An e-mail's or a calendar write's: whom it goes to (null: the booking's prospect), and the change it tells.
      recipient text,
      time_slot timestamptz,
      sequence integer,
      change text,
      previous_time_slot timestamptz,
      -- A webhook delivery's: its endpoint and event, and the event's place among its booking's.
      endpoint_id uuid REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      event_id uuid REFERENCES webhook_events (id) ON DELETE CASCADE,
      position bigint,
      -- When its next try is due (to the millisecond: a webhook's job carries it), and the lease of the worker trying it.
      due_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
      claimed_until timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      last_status integer,
      -- When the current run of failed tries began (a webhook's retry window counts from it).
      failing_since timestamptz,
      -- How it ended: sent (delivered), given up (refused for good, or tried for its whole window), dropped unsent.
      sent_at timestamptz,
      failed_at timestamptz,
      dropped_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
      CONSTRAINT deliveries_shape CHECK (
        CASE channel WHEN 'webhook' THEN endpoint_id IS NOT NULL AND event_id IS NOT NULL AND position IS NOT NULL
                     ELSE time_slot IS NOT NULL AND sequence IS NOT NULL END),
      CONSTRAINT deliveries_event_endpoint_unique UNIQUE (event_id, endpoint_id)
    )`);
  await knex.raw('CREATE INDEX deliveries_booking_idx ON deliveries (booking_id)');
  // The sweep's question, kind by kind: the rows still to send, oldest due first.
  await knex.raw(
    'CREATE INDEX deliveries_open_idx ON deliveries (kind, due_at) WHERE sent_at IS NULL AND failed_at IS NULL AND dropped_at IS NULL',
  );
  // The webhook sweep's question: the tries due, oldest first.
  await knex.raw(
    "CREATE INDEX deliveries_webhook_due_idx ON deliveries (due_at) WHERE channel = 'webhook' AND sent_at IS NULL AND failed_at IS NULL",
  );
  // A webhook delivery's order: the earlier events of its booking to its endpoint.
  await knex.raw(
    "CREATE INDEX deliveries_endpoint_order_idx ON deliveries (endpoint_id, booking_id, position) WHERE channel = 'webhook'",
  );

  await knex.raw(
    `INSERT INTO deliveries (channel, ${current(EMAIL_COLUMNS)})
       SELECT CASE WHEN kind = 'host-calendar' THEN 'calendar' ELSE 'email' END, ${former(EMAIL_COLUMNS)} FROM booking_emails`,
  );
  await knex.raw(
    `INSERT INTO deliveries (channel, kind, ${current(WEBHOOK_COLUMNS)})
       SELECT 'webhook', 'webhook', ${former(WEBHOOK_COLUMNS)} FROM webhook_deliveries`,
  );
  await knex.raw('ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_delivery_id_foreign');
  await knex.raw(
    'ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_delivery_id_foreign FOREIGN KEY (delivery_id) REFERENCES deliveries (id) ON DELETE CASCADE',
  );
  await knex.raw('DROP TABLE booking_emails');
  await knex.raw('DROP TABLE webhook_deliveries');

  // A row written through a former name comes without a channel (and a webhook's without a kind): its shape says it.
  await knex.raw(`
    CREATE FUNCTION deliveries_channel_of_row() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF NEW.channel IS NULL THEN
        NEW.channel := CASE WHEN NEW.endpoint_id IS NOT NULL THEN 'webhook'
                            WHEN NEW.kind = 'host-calendar' THEN 'calendar' ELSE 'email' END;
      END IF;
      IF NEW.kind IS NULL AND NEW.channel = 'webhook' THEN NEW.kind := 'webhook'; END IF;
      RETURN NEW;
    END;
    $fn$`);
  await knex.raw(
    'CREATE TRIGGER deliveries_channel_of_row BEFORE INSERT ON deliveries FOR EACH ROW EXECUTE FUNCTION deliveries_channel_of_row()',
  );
  await knex.raw(
    `CREATE VIEW booking_emails AS SELECT ${asFormer(EMAIL_COLUMNS)} FROM deliveries WHERE channel IN ('email', 'calendar')`,
  );
  await knex.raw(
    `CREATE VIEW webhook_deliveries AS SELECT ${asFormer(WEBHOOK_COLUMNS)} FROM deliveries WHERE channel = 'webhook'`,
  );
  await knex.raw('ALTER VIEW booking_emails ALTER COLUMN due_at SET DEFAULT CURRENT_TIMESTAMP');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('LOCK TABLE deliveries, webhook_attempts IN ACCESS EXCLUSIVE MODE');
  await knex.raw('DROP VIEW booking_emails');
  await knex.raw('DROP VIEW webhook_deliveries');
  await knex.raw(`
    CREATE TABLE booking_emails (
      id uuid PRIMARY KEY DEFAULT time_ordered_uuid(),
      booking_id uuid NOT NULL CONSTRAINT booking_emails_booking_id_foreign REFERENCES bookings (id) ON DELETE CASCADE,
      kind text NOT NULL,
      time_slot timestamptz NOT NULL,
      sequence integer NOT NULL,
      recipient text,
      change text,
      due_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
      created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
      sent_at timestamptz,
      claimed_until timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      failed_at timestamptz,
      dropped_at timestamptz,
      previous_time_slot timestamptz
    )`);
  await knex.raw('CREATE INDEX booking_emails_booking_idx ON booking_emails (booking_id)');
  await knex.raw(
    'CREATE INDEX booking_emails_open_idx ON booking_emails (kind, due_at) WHERE sent_at IS NULL AND failed_at IS NULL AND dropped_at IS NULL',
  );
  await knex.raw(`
    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY DEFAULT time_ordered_uuid(),
      event_id uuid NOT NULL CONSTRAINT webhook_deliveries_event_id_foreign REFERENCES webhook_events (id) ON DELETE CASCADE,
      endpoint_id uuid NOT NULL CONSTRAINT webhook_deliveries_endpoint_id_foreign REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      booking_id uuid NOT NULL,
      position bigint NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
      failing_since timestamptz,
      claimed_until timestamptz,
      delivered_at timestamptz,
      exhausted_at timestamptz,
      last_status integer,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT CURRENT_TIMESTAMP,
      CONSTRAINT webhook_deliveries_event_id_endpoint_id_unique UNIQUE (event_id, endpoint_id)
    )`);
  await knex.raw(
    'CREATE INDEX webhook_deliveries_endpoint_id_booking_id_position_index ON webhook_deliveries (endpoint_id, booking_id, position)',
  );
  await knex.raw(
    'CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE delivered_at IS NULL AND exhausted_at IS NULL',
  );
  await knex.raw('CREATE INDEX webhook_deliveries_booking_idx ON webhook_deliveries (booking_id)');
  await knex.raw(
    `INSERT INTO booking_emails (${former(EMAIL_COLUMNS)})
       SELECT ${current(EMAIL_COLUMNS)} FROM deliveries WHERE channel IN ('email', 'calendar')`,
  );
  await knex.raw(
    `INSERT INTO webhook_deliveries (${former(WEBHOOK_COLUMNS)})
       SELECT ${current(WEBHOOK_COLUMNS)} FROM deliveries WHERE channel = 'webhook'`,
  );
  await knex.raw('ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_delivery_id_foreign');
  await knex.raw(
    'ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_delivery_id_foreign FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries (id) ON DELETE CASCADE',
  );
  await knex.raw('DROP TABLE deliveries');
  await knex.raw('DROP FUNCTION deliveries_channel_of_row()');
}
