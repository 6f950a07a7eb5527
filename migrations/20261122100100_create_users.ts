import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (table) => {
    table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    table.text('username').notNullable().unique();
    table.text('password_hash').notNullable();
  });
  // Only a PHC-format hash ($scrypt$…, $argon2id$…) fits: a plain password cannot be stored by mistake.
  await knex.raw("ALTER TABLE users ADD CONSTRAINT users_password_is_hash CHECK (password_hash ~ '^\\$[a-z0-9-]+\\$')");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
