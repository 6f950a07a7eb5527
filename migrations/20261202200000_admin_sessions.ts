import type { Knex } from 'knex';

/**
 * The sales page's sessions: signing in with the operations token (ADMIN_TOKEN) gives a random session token in an
 * HttpOnly cookie; only its SHA-256 is kept here, with the CSRF token the page sends on every change, the digest of
 * the operations token it was given for (a new ADMIN_TOKEN ends every session) and when it expires.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admin_sessions', (table) => {
    table.text('id').primary();
    table.text('csrf_token').notNullable();
    table.text('admin_token_digest').notNullable();
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('expires_at', { useTz: true }).notNullable();
    table.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('admin_sessions');
}
