import type { Knex } from 'knex';

/**
 * The texts' short links (issue 40): `/m/{code}` opens a booking's manage page. The code is a MAC of the booking's
 * id (server-shared/booking-link.ts); the table keeps only its SHA-256, looked up by its key, so that reading it
 * opens no page. A booking may have a code under each link secret it was texted with (a rotation in between); they
 * go with its personal data (worker/retention.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE sms_links (
    digest text PRIMARY KEY,
    booking_id uuid NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now())`);
  // Retention erases a booking's codes by its id.
  await knex.raw('CREATE INDEX sms_links_booking_id ON sms_links (booking_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE sms_links');
}
