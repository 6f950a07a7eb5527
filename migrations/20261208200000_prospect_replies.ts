import type { Knex } from 'knex';

/**
 * The prospect's answer to the invitation, read from the reply mailbox (issue 39): ACCEPTED or TENTATIVE recorded on
 * the booking (a DECLINED one cancels it and is recorded too), with the reply's DTSTAMP, so that the same reply read
 * twice, or an older one read after a newer, changes nothing; and where the mailbox's reader stopped (the mailbox's
 * UIDVALIDITY and the last UID it read), so that a restart reads on from there. The function that applies a reply
 * (booking_reply) is in db/functions/replies.sql, applied after the migrations.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE bookings
    ADD COLUMN prospect_reply text CONSTRAINT bookings_prospect_reply_known
      CHECK (prospect_reply IN ('ACCEPTED', 'TENTATIVE', 'DECLINED')),
    ADD COLUMN prospect_replied_at timestamptz,
    ADD COLUMN prospect_reply_stamp timestamptz`);
  await knex.raw(`CREATE TABLE reply_mailbox_marks (
    mailbox text PRIMARY KEY,
    uid_validity bigint NOT NULL,
    last_uid bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now())`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS booking_reply(uuid, text, integer, timestamptz, timestamptz, jsonb)');
  await knex.raw('DROP TABLE reply_mailbox_marks');
  await knex.raw(
    'ALTER TABLE bookings DROP COLUMN prospect_reply, DROP COLUMN prospect_replied_at, DROP COLUMN prospect_reply_stamp',
  );
}
