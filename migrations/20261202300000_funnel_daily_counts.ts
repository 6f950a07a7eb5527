import type { Knex } from 'knex';

/**
 * The Request Demo funnel's daily counts (docs/funnel.md): per day, UTM source and step, how
 * many page visits reached it. Nothing else: no address, no identifier, no browser; a visit is not a row. The source
 * '' means the visit had none (a primary key column cannot be null); the API keeps sources short and plain.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('funnel_daily_counts', (table) => {
    table.date('day').notNullable();
    table.text('source').notNullable().defaultTo('');
    table.text('step').notNullable();
    table.bigInteger('count').notNullable().defaultTo(0);
    table.primary(['day', 'source', 'step']);
  });
  await knex.raw(
    "ALTER TABLE funnel_daily_counts ADD CONSTRAINT funnel_daily_counts_step_known CHECK (step IN ('dialogOpened', 'emailAccepted', 'slotChosen', 'booked'))",
  );
  await knex.raw(
    'ALTER TABLE funnel_daily_counts ADD CONSTRAINT funnel_daily_counts_source_short CHECK (length(source) <= 40)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('funnel_daily_counts');
}
