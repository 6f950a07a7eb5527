/**
 * The statements that change a booking through its link (booking_move, booking_cancel of
 * db/functions/booking-changes.sql): what each is given, and what it came to, read back as the repository reads a
 * booking.
 */
import type { Knex } from 'knex';
import type { Db } from '../db.js';
import type { StoredDelivery } from '../webhooks/repository.js';
import { emailsParameter, type EmailRow, type StoredRow } from './emails.js';
import type { HostCandidate } from './hosts.js';
import {
  hostsParameter,
  refusalOf,
  stateOf,
  type BookingRefusal,
  type BookingRow,
  type BookingState,
} from './repository.js';
import type { RoutingDraft } from './routed-hosts.js';

/** Why a change through the booking's link was refused (booking_move, booking_cancel); nothing was changed. */
export type ChangeRefusal =
  | BookingRefusal
  /** No such booking; its personal data gone with retention; cancelled (a move); begun. */
  | { reason: 'not-found' | 'gone' | 'cancelled' | 'started' }
  /** Moved too often through its link: `count` changes already. */
  | { reason: 'too-many-changes'; count: number };

/** What a change through the booking's link is given: the booking, the API's clock, its ceiling and its e-mails. */
export interface ChangeRequest {
  id: string;
  /** The API's clock: whether the demo has begun. */
  now: Date;
  /** EMAILS_PER_RECIPIENT_PER_DAY; 0: no ceiling. */
  emailsPerRecipientPerDay: number;
  /** Its e-mails and calendar writes (emailRows), stored with it. */
  emails: readonly EmailRow[];
}

/** A move: the new slot (its notice and grid already checked), and the slot's rules as `book` is given them. */
export interface MoveRequest extends ChangeRequest {
  timeSlot: Date;
  slotCapacity: number;
  /** With a team: the hosts who could take the new slot, as hostCandidates found them. */
  hosts?: readonly HostCandidate[];
  /** With a team: the account's owner, chosen when free after the booking's own host; the new routing record. */
  owner?: string;
  routing?: RoutingDraft;
}

/** What a change came to: the booking as it now stands, and the rows stored (none when nothing changed); or refused. */
export type ChangeResult =
  | { outcome: 'changed' | 'unchanged'; booking: BookingState; emails: StoredRow[]; webhooks: StoredDelivery[] }
  | { outcome: 'refused'; refusal: ChangeRefusal };

interface ChangeRow {
  changed: boolean;
  /** The row as booking_state gives it: its instants as JSON strings. */
  booking: Omit<BookingRow, 'time_slot' | 'anonymised_at'> & { time_slot: string; anonymised_at: string | null };
  emails: StoredRow[];
  webhooks: StoredDelivery[];
}

async function change(db: Db, sql: string, values: readonly Knex.RawBinding[]): Promise<ChangeResult> {
  try {
    const { rows } = (await db.raw(sql, values)) as { rows: ChangeRow[] };
    const row = rows[0];
    if (!row) throw new Error('the change gave no row');
    const { booking } = row;
    return {
      outcome: row.changed ? 'changed' : 'unchanged',
      booking: stateOf({
        ...booking,
        time_slot: new Date(booking.time_slot),
        anonymised_at: booking.anonymised_at === null ? null : new Date(booking.anonymised_at),
      }),
      emails: row.emails,
      webhooks: row.webhooks,
    };
  } catch (err) {
    const refusal = refusalOf<ChangeRefusal>(err);
    if (refusal) return { outcome: 'refused', refusal };
    throw err;
  }
}

/** Moves the booking in one statement (booking_move): under the locks `book` takes, asked what a booking asks. */
export function moveBooking(db: Db, request: MoveRequest): Promise<ChangeResult> {
  return change(db, 'SELECT * FROM booking_move(?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?, ?::jsonb)', [
    request.id,
    request.timeSlot,
    request.now,
    request.slotCapacity,
    hostsParameter(request.hosts),
    request.emailsPerRecipientPerDay,
    emailsParameter(request.emails),
    request.owner ?? null,
    request.routing ? JSON.stringify(request.routing) : null,
  ]);
}

/** Cancels the booking in one statement (booking_cancel); its slot is free again once it commits. */
export function cancelBooking(db: Db, request: ChangeRequest): Promise<ChangeResult> {
  return change(db, 'SELECT * FROM booking_cancel(?, ?, ?, ?::jsonb)', [
    request.id,
    request.now,
    request.emailsPerRecipientPerDay,
    emailsParameter(request.emails),
  ]);
}
