import type { Knex } from 'knex';

/**
 * One name for the entity: a booking. The table of bookings, the honeypot's look-alikes and the outbox's reference
 * to its booking take that name, with their indexes and constraints; nothing else changes. Processes of the version
 * before keep asking for the old names until they are replaced: their requests fail in that moment (the e-mails
 * stay in the outbox for the sweep).
 */
const RENAMES: [kind: 'TABLE' | 'INDEX' | 'CONSTRAINT' | 'COLUMN', on: string, from: string, to: string][] = [
  ['TABLE', '', 'demo_requests', 'bookings'],
  ['TABLE', '', 'trapped_demo_requests', 'trapped_bookings'],
  ['COLUMN', 'booking_emails', 'demo_request_id', 'booking_id'],
  ['INDEX', '', 'demo_requests_pkey', 'bookings_pkey'],
  ['INDEX', '', 'demo_requests_booked_time_slot_idx', 'bookings_booked_time_slot_idx'],
  ['INDEX', '', 'demo_requests_canonical_recipient_idx', 'bookings_canonical_recipient_idx'],
  ['INDEX', '', 'demo_requests_canonical_recipient_domain_idx', 'bookings_canonical_recipient_domain_idx'],
  ['INDEX', '', 'demo_requests_pending_confirmation_idx', 'bookings_pending_confirmation_idx'],
  ['INDEX', '', 'trapped_demo_requests_pkey', 'trapped_bookings_pkey'],
  ['INDEX', '', 'trapped_demo_requests_time_slot_idx', 'trapped_bookings_time_slot_idx'],
  ['INDEX', '', 'booking_emails_demo_request_idx', 'booking_emails_booking_idx'],
  ['CONSTRAINT', 'bookings', 'demo_requests_status_known', 'bookings_status_known'],
  ['CONSTRAINT', 'booking_emails', 'booking_emails_demo_request_id_foreign', 'booking_emails_booking_id_foreign'],
];

function statement([kind, on, from, to]: (typeof RENAMES)[number], back: boolean): string {
  const [a, b] = back ? [to, from] : [from, to];
  // A constraint's table has its new name going up, and still has it coming back down until the tables are renamed.
  if (kind === 'COLUMN' || kind === 'CONSTRAINT') return `ALTER TABLE ${on} RENAME ${kind} ${a} TO ${b}`;
  return `ALTER ${kind} ${a} RENAME TO ${b}`;
}

export async function up(knex: Knex): Promise<void> {
  for (const rename of RENAMES) await knex.raw(statement(rename, false));
}

export async function down(knex: Knex): Promise<void> {
  for (const rename of [...RENAMES].reverse()) await knex.raw(statement(rename, true));
}
