/** SQL for demo requests lives here and nowhere else in the API. */
import type { Db } from '../db.js';
import type { DemoRequestInput } from '../../domain/demo-request.js';

export interface StoredDemoRequest {
  id: string;
  createdAt: Date;
  timeSlot: Date;
}

export interface DemoRequestSummary {
  id: string;
  name: string;
  email: string;
  company: string;
  timeSlot: string;
  createdAt: string;
  confirmation: { sentAt: string | null; failedAt: string | null; attempts: number; lastError: string | null };
}

export async function listRecentDemoRequests(db: Db, limit: number): Promise<DemoRequestSummary[]> {
  const rows = await db('demo_requests').select('*').orderBy('created_at', 'desc').limit(limit);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    timeSlot: row.time_slot.toISOString(),
    createdAt: row.created_at.toISOString(),
    confirmation: {
      sentAt: row.confirmation_sent_at ? row.confirmation_sent_at.toISOString() : null,
      failedAt: row.confirmation_failed_at ? row.confirmation_failed_at.toISOString() : null,
      attempts: row.confirmation_attempts,
      lastError: row.confirmation_last_error,
    },
  }));
}

export async function insertDemoRequest(db: Db, input: DemoRequestInput): Promise<StoredDemoRequest> {
  // One statement is one transaction: the row and its pending confirmation (sent_at null) land together.
  const [row] = await db('demo_requests')
    .insert({
      name: input.name,
      email: input.email,
      company: input.company,
      phone: input.phone ?? null,
      message: input.message ?? null,
      time_slot: new Date(input.timeSlot),
    })
    .returning(['id', 'created_at', 'time_slot']);
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return { id: row.id, createdAt: row.created_at, timeSlot: row.time_slot };
}
