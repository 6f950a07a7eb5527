import type { Knex } from 'knex';

/**
 * The outbox's former names go: the views booking_emails and webhook_deliveries, kept by
 * 20261205100000_one_outbox_for_every_delivery for processes of the earlier release during a rolling upgrade, and
 * the trigger that gave a row stored through them its channel. Every reader and writer now names `deliveries` and
 * its channel, so a row stored without a channel is refused (the column is NOT NULL). `down` makes them again as
 * that migration made them.
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

const asFormer = (columns: readonly (readonly [string, string])[]) =>
  columns.map(([was, now]) => (was === now ? now : `${now} AS ${was}`)).join(', ');

export async function up(knex: Knex): Promise<void> {
  await knex.raw('DROP VIEW booking_emails');
  await knex.raw('DROP VIEW webhook_deliveries');
  await knex.raw('DROP TRIGGER deliveries_channel_of_row ON deliveries');
  await knex.raw('DROP FUNCTION deliveries_channel_of_row()');
}

export async function down(knex: Knex): Promise<void> {
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
