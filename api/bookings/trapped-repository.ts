/** SQL for the requests the honeypot caught (trapped_bookings): stored, read as a booking, shown to their network, purged. */
import type { Knex } from 'knex';
import type { BookingCreated, DemoRequestInput } from '../../domain/demo-request.js';
import type { CanonicalRecipient } from '../email-rules.js';
import {
  hostsParameter,
  refusalOf,
  stateOf,
  type BookingRow,
  type BookingState,
  type SlotRefusal,
} from './repository.js';
import type { HostCandidate } from './hosts.js';
import type { Db } from '../db.js';

/** A week after its slot, a trapped request's link stops opening (as any unknown link: 404). */
const TRAPPED_KEPT_DAYS_AFTER_SLOT = 7;

/** How long the slot list read from a caught client's network shows what the catch took as taken. */
export const TRAPPED_SHOWN_TO_NETWORK_MINUTES = 60;

/** A trapped request as book_trapped is given it: the request, its links, the slot's rules and who sent it. */
export interface TrappedRequest {
  id: string;
  input: DemoRequestInput;
  /** As `book` counts "one person holds a slot once" (canonicalRecipient). */
  recipient: CanonicalRecipient;
  invitePath: string;
  meetingUrl: string;
  /** The slot's capacity, without a team. */
  slotCapacity: number;
  /** With a team: the hosts who could take the slot, as hostCandidates found them. */
  hosts: readonly HostCandidate[] | undefined;
  /** With routing: the account's owner among `hosts`, chosen when free, as `book` chooses. */
  owner?: string;
  /** The client's network (clientNetwork), whose slot list shows the catch. */
  clientNetwork: string;
}

/**
 * Stores a trapped request and gives the 201 a booking gets, or the refusal a booking would get (book_trapped, which
 * counts the bookings and the trap's own catches of the slot and of each host), in one statement.
 */
export async function storeTrapped(db: Db, request: TrappedRequest): Promise<BookingCreated | SlotRefusal> {
  const { input } = request;
  try {
    const { rows } = (await db.raw('SELECT book_trapped(?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?) AS answer', [
      request.id,
      input.name,
      input.email,
      request.recipient.address,
      input.company,
      new Date(input.timeSlot),
      request.slotCapacity,
      hostsParameter(request.hosts),
      request.meetingUrl,
      request.invitePath,
      request.clientNetwork,
      request.owner ?? null,
    ])) as { rows: { answer: BookingCreated }[] };
    const answer = rows[0]?.answer;
    if (!answer) throw new Error('the trapped request was not stored');
    return answer;
  } catch (err) {
    const refusal = refusalOf<SlotRefusal>(err);
    if (refusal?.reason === 'slot-taken' || refusal?.reason === 'already-booked') return refusal;
    throw err;
  }
}

/** A trapped request as its booking link shows it: booked, never changed, with the host a booking would have had. */
export async function findTrapped(db: Db | Knex.Transaction, id: string): Promise<BookingState | undefined> {
  const row: BookingRow | undefined = await db('trapped_bookings')
    .where({ id })
    .first(
      'id',
      'name',
      'email',
      'company',
      'time_slot',
      db.raw("'booked' AS status"),
      db.raw('0 AS sequence'),
      'meeting_url',
      'host_email',
      'host_name',
      'host_title',
      db.raw('NULL::timestamptz AS anonymised_at'),
    );
  return row && stateOf(row);
}

/** The networks a request was caught from in the last TRAPPED_SHOWN_TO_NETWORK_MINUTES (trapped_bookings_recent_idx). */
export async function networksTrappedRecently(db: Db): Promise<Set<string>> {
  const networks = (await db('trapped_bookings')
    .distinct('client_network')
    .where('created_at', '>', db.raw(`now() - interval '${TRAPPED_SHOWN_TO_NETWORK_MINUTES} minutes'`))
    .whereNotNull('client_network')
    .pluck('client_network')) as string[];
  return new Set(networks);
}

/**
 * What the network's catches of the last TRAPPED_SHOWN_TO_NETWORK_MINUTES took with slots from `from` to `to`, each
 * with its host (null without a team), through trapped_bookings_network_idx.
 */
export async function trappedByNetwork(
  db: Db,
  network: string,
  from: Date,
  to: Date,
): Promise<{ timeSlot: Date; hostEmail: string | null }[]> {
  const rows: { time_slot: Date; host_email: string | null }[] = await db('trapped_bookings')
    .select('time_slot', 'host_email')
    .where('client_network', network)
    .where('created_at', '>', db.raw(`now() - interval '${TRAPPED_SHOWN_TO_NETWORK_MINUTES} minutes'`))
    .whereBetween('time_slot', [from, to]);
  return rows.map((row) => ({ timeSlot: row.time_slot, hostEmail: row.host_email }));
}

/**
 * Deletes the catches a week past their slot, and says how many. Each catch's network is forgotten before that, once
 * the slot list no longer shows it the catch: the address serves nothing else.
 */
export async function purgeTrapped(db: Db): Promise<number> {
  await db('trapped_bookings')
    .whereNotNull('client_network')
    .where('created_at', '<=', db.raw(`now() - interval '${TRAPPED_SHOWN_TO_NETWORK_MINUTES} minutes'`))
    .update({ client_network: null });
  return db('trapped_bookings')
    .where('time_slot', '<', db.raw(`now() - interval '${TRAPPED_KEPT_DAYS_AFTER_SLOT} days'`))
    .del();
}
