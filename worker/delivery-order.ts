/**
 * A claimed row's turn in its line (the registry's order groups): whether it waits behind earlier rows of its booking,
 * and, in a line of events, the row whose turn comes next.
 */
import type { Knex } from 'knex';
import { ORDER_GROUPS, type OrderGroup } from '../server-shared/delivery-kinds.js';
import {
  CONFIRMATION_SEQUENCE,
  settleEarlierProspectEmails,
  unsettledBefore,
  type OrderedLine,
} from '../server-shared/prospect-emails.js';
import type { DeliveryRow } from './delivery-row.js';
import { DUE_MS, type DueRow } from './outbox.js';

/**
 * Whether the claimed row must wait its turn in its line, as its order group keeps it (the registry's ORDER_GROUPS):
 * the prospect's e-mails and a host's calendar writes are lines of the booking's changes, where an earlier row (a lower
 * sequence) still in flight holds this one, and earlier ones still to send under no live claim are dropped first,
 * since this row's change has overtaken them (nothing comes before sequence 0, the booking itself); an endpoint's line
 * is its booking's events, where every earlier one must be delivered first and none is dropped.
 */
export async function behindEarlier(db: Knex, row: DeliveryRow, order: OrderGroup | undefined): Promise<boolean> {
  const place = order && lineOf(row, order);
  if (!place) return false;
  if (!('endpoint' in place.line)) await settleEarlierProspectEmails(db, row.booking_id, Number(place.at), place.line);
  return unsettledBefore(db, row.booking_id, place.at, place.line);
}

/** The row's line in its order group, and its place in it; none for a row that has nothing before it. */
function lineOf(row: DeliveryRow, order: OrderGroup): { line: OrderedLine; at: number | string } | null {
  if (ORDER_GROUPS[order].by === 'event')
    return row.endpoint_id === null || row.position === null
      ? null
      : { line: { endpoint: row.endpoint_id }, at: row.position };
  if (row.sequence === null || row.sequence <= CONFIRMATION_SEQUENCE) return null;
  if (order === 'prospect') return row.recipient === null ? { line: { prospect: true }, at: row.sequence } : null;
  if (order === 'phone') return row.recipient === null ? null : { line: { phone: row.recipient }, at: row.sequence };
  return row.recipient === null ? null : { line: { kind: row.kind, recipient: row.recipient }, at: row.sequence };
}

/** The next row still to deliver after `row` in a line of events (an endpoint's): its turn has come. */
export async function nextInLine(db: Knex, row: DeliveryRow): Promise<DueRow | null> {
  const { rows } = (await db.raw(
    `SELECT d.id, ${DUE_MS('d')} AS due FROM deliveries d
      WHERE d.endpoint_id = ? AND d.booking_id = ? AND d.position > ? AND d.sent_at IS NULL AND d.failed_at IS NULL
      ORDER BY d.position LIMIT 1`,
    [row.endpoint_id, row.booking_id, row.position],
  )) as { rows: { id: string; due: string }[] };
  const next = rows[0];
  return next ? { id: next.id, due: Number(next.due) } : null;
}
