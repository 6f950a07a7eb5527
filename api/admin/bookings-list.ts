/**
 * The operations list's SQL (the sales page, GET /api/admin/bookings and its CSV export): a page of bookings, newest
 * first by keyset, each with its confirmation's state, narrowed by the filters and the search.
 */
import type { Knex } from 'knex';
import type { BookingSummary, ListStatus } from '../../domain/sales.js';
import type { Db } from '../db.js';
import { needsNewTimeOf } from '../bookings/repository.js';

/** A place in the operations list: the last booking of a page, as (created_at, id), the order the list is read in. */
export interface ListPosition {
  /** created_at to the microsecond, as PostgreSQL keeps it (a Date would lose the microseconds). */
  createdAt: string;
  id: string;
}

export interface BookingPage {
  bookings: BookingSummary[];
  /** Where the next page starts; undefined on the last page. */
  next: ListPosition | undefined;
}

/** What the operations list and its CSV export select; every filter is optional and they all apply together. */
export interface BookingFilters {
  /** A prefix (any case) of the name, the company, the e-mail address or its domain. */
  search?: string;
  status?: ListStatus;
  /** Bookings whose slot starts at or after `slotFrom` and before `slotTo`. */
  slotFrom?: Date;
  slotTo?: Date;
  /** The host's e-mail address. */
  host?: string;
  /** The attribution's utm_source, exactly. */
  source?: string;
}

const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A search matching more bookings than this is read newest first through the list's own index instead. */
export const SEARCH_MATCHES_READ = 5000;

/**
 * How long a search read newest first may run. One whose many matches are all old scans far (16 s at 10M for 1.1M
 * matches in the oldest fifth): stopped, it cannot hold the API's connections, which bookings need too.
 */
export const BROAD_SEARCH_TIME_LIMIT_MS = 5000;

/** A search read newest first that PostgreSQL stopped at its time limit; nothing was read. */
export class SearchTooBroad extends Error {
  constructor(limitMs: number) {
    super(`the search ran past ${limitMs} ms`);
  }
}

/**
 * The ids of the bookings a search's prefix matches, read through the four prefix indexes (migrations
 * 20261202210000_sales_list_indexes), each stopping after SEARCH_MATCHES_READ; undefined when there are more. The
 * page is then read from these ids: its plan no longer rests on the planner's guess of how many a prefix matches
 * and where they lie in time (at 10M it guessed many and recent for a name of a handful, and scanned millions).
 */
async function searchMatches(db: Db, prefix: string): Promise<string[] | undefined> {
  const branch = (on: string) => `(SELECT id FROM bookings WHERE ${on} LIKE ? LIMIT ${SEARCH_MATCHES_READ + 1})`;
  const { rows } = (await db.raw(
    [
      branch('lower(name)'),
      branch('lower(company)'),
      branch('lower(email)'),
      branch("split_part(lower(email), '@', 2)"),
    ].join(' UNION '),
    [prefix, prefix, prefix, prefix],
  )) as { rows: { id: string }[] };
  // Fewer than the bound in all: no branch stopped early, so these are every match.
  return rows.length > SEARCH_MATCHES_READ ? undefined : rows.map((row) => row.id);
}

/**
 * A page of the operations list, newest first, after `after` (keyset pagination on bookings_newest_idx): any page
 * costs what the first does, however deep, and nothing counts the table. The filters narrow it, each served by an
 * index (migrations 20261202210000_sales_list_indexes), and the order and the cursor stay the same.
 */
export async function listBookings(
  db: Db,
  limit: number,
  after?: ListPosition,
  filters: BookingFilters = {},
  broadSearchTimeLimitMs = BROAD_SEARCH_TIME_LIMIT_MS,
): Promise<BookingPage> {
  // The page of bookings is cut first; each of its rows then gets its confirmation, its outbox row of that kind (one
  // per booking, stored with it), by its own index probe (LATERAL). Joined before the cut, the planner may join every
  // booking a filter selects (3,836 for a week of slots at 10M) before it sorts them; joined after it without
  // LATERAL, it may hash the whole outbox for a page of 101 (27 ms at 10k).
  const page = db('bookings as b')
    .select(
      'b.id',
      'b.name',
      'b.email',
      'b.company',
      'b.phone',
      'b.message',
      'b.time_slot',
      'b.status',
      'b.attendance',
      'b.created_at',
      'b.attribution',
      'b.anonymised_at',
    )
    .select('b.host_email', 'b.host_name', 'b.needs_new_time_at', 'b.needs_new_time_reason')
    .orderBy([
      { column: 'b.created_at', order: 'desc' },
      { column: 'b.id', order: 'desc' },
    ])
    // One more than the page: whether there is a next page, without counting.
    .limit(limit + 1);
  if (after) page.whereRaw('(b.created_at, b.id) < (?::timestamptz, ?::uuid)', [after.createdAt, after.id]);
  let broad = false;
  if (filters.search) {
    const prefix = likePrefix(filters.search);
    const matches = await searchMatches(db, prefix);
    if (matches) page.whereRaw('b.id = ANY(?::uuid[])', [matches]);
    else {
      broad = true;
      page.whereRaw(
        "(lower(b.name) LIKE ? OR lower(b.company) LIKE ? OR lower(b.email) LIKE ? OR split_part(lower(b.email), '@', 2) LIKE ?)",
        [prefix, prefix, prefix, prefix],
      );
    }
  }
  if (filters.status === 'cancelled') page.where('b.status', 'cancelled');
  else if (filters.status === 'booked') page.where('b.status', 'booked').whereNull('b.attendance');
  else if (filters.status) page.where('b.attendance', filters.status);
  if (filters.slotFrom) page.where('b.time_slot', '>=', filters.slotFrom);
  if (filters.slotTo) {
    page.where('b.time_slot', '<', filters.slotTo);
    // Implied (a booking is made before its slot, and moved only to later ones), and it lets the newest-first scan
    // start at the range's end rather than walk every booking made since.
    page.where('b.created_at', '<', filters.slotTo);
  }
  if (filters.host) page.where('b.host_email', filters.host);
  if (filters.source) page.whereRaw("b.attribution ->> 'utm_source' = ?", [filters.source]);
  const query = db
    .from(page.as('b'))
    .joinRaw(
      "LEFT JOIN LATERAL (SELECT * FROM deliveries e WHERE e.booking_id = b.id AND e.kind = 'confirmation' LIMIT 1) AS c ON true",
    )
    .select('b.*')
    .select(db.raw(`to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position`))
    .select({
      confirmation_sent_at: 'c.sent_at',
      confirmation_failed_at: 'c.failed_at',
      confirmation_dropped_at: 'c.dropped_at',
      confirmation_attempts: 'c.attempts',
      confirmation_last_error: 'c.last_error',
    })
    .orderBy([
      { column: 'b.created_at', order: 'desc' },
      { column: 'b.id', order: 'desc' },
    ]);
  const rows = broad
    ? await withinTimeLimit(db, broadSearchTimeLimitMs, async (trx) => query.transacting(trx))
    : await query;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    bookings: shown.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      company: row.company,
      phone: row.phone ?? null,
      message: row.message ?? null,
      timeSlot: row.time_slot.toISOString(),
      status: row.status,
      attendance: row.attendance ?? null,
      createdAt: row.created_at.toISOString(),
      attribution: row.attribution ?? null,
      host: row.host_email === null ? null : { name: row.host_name ?? '', email: row.host_email },
      confirmation: {
        sentAt: row.confirmation_sent_at ? row.confirmation_sent_at.toISOString() : null,
        failedAt: row.confirmation_failed_at ? row.confirmation_failed_at.toISOString() : null,
        droppedAt: row.confirmation_dropped_at ? row.confirmation_dropped_at.toISOString() : null,
        attempts: row.confirmation_attempts ?? 0,
        lastError: row.confirmation_last_error,
      },
      anonymisedAt: row.anonymised_at ? row.anonymised_at.toISOString() : null,
      needsNewTime: needsNewTimeOf(row),
    })),
    next: rows.length > limit && last ? { createdAt: last.position, id: last.id } : undefined,
  };
}

/** What `read` reads in a transaction whose statements PostgreSQL stops after `ms` (SearchTooBroad then). */
async function withinTimeLimit<T>(db: Db, ms: number, read: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(ms))}`);
      return read(trx);
    });
  } catch (err) {
    // query_canceled: the time limit (nothing else cancels the list's queries).
    if ((err as { code?: string }).code === '57014') throw new SearchTooBroad(ms);
    throw err;
  }
}
