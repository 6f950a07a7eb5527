import type { Knex } from 'knex';

/**
 * After a demo's time, sales marks whether the prospect came: `attended` or `no_show` (each raises its webhook
 * event), with when it was marked. Null until then; a cancelled booking can be neither (the API refuses it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (table) => {
    table.text('attendance').nullable();
    table.timestamp('attendance_marked_at', { useTz: true }).nullable();
  });
  await knex.raw(
    "ALTER TABLE bookings ADD CONSTRAINT bookings_attendance_known CHECK (attendance IS NULL OR (attendance IN ('attended', 'no_show') AND attendance_marked_at IS NOT NULL))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bookings', (table) => {
    table.dropColumn('attendance_marked_at');
    table.dropColumn('attendance');
  });
}
