/**
 * The sales page's SQL beyond the operations list (bookings/repository.ts): one booking with its history, what it
 * sent and its webhook deliveries, and marking after the demo whether the prospect came.
 */
import type { Attribution } from '../../domain/attribution.js';
import {
  TEXT_FAILED_STATES,
  type Attendance,
  type BookingDetail,
  type HistoryEntry,
  type ProspectReply,
  type SmsView,
  type TextWithheldReason,
} from '../../domain/sales.js';
import {
  labelledAnswers,
  reassignableHosts,
  type RoutingAnswers,
  type RoutingQuestion,
  type RoutingRecord,
} from '../../domain/routing.js';
import type { QueuedJob } from '../../server-shared/jobs.js';
import type { Db } from '../db.js';
import { needsNewTimeOf, refusalOf, type BookingRow } from '../bookings/repository.js';
import { listDeliveries, webhookJobs, type StoredDelivery } from '../webhooks/repository.js';

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;
/** The booking's webhook deliveries the page shows, newest first. */
const DELIVERIES_SHOWN = 100;

interface DetailRow extends BookingRow {
  phone: string | null;
  sms_phone: string | null;
  sms_consent_text: string | null;
  sms_consent_at: Date | null;
  sms_opted_out_at: Date | null;
  message: string | null;
  attendance: Attendance | null;
  attendance_marked_at: Date | null;
  prospect_reply: ProspectReply['answer'] | null;
  prospect_replied_at: Date | null;
  created_at: Date;
  cancelled_at: Date | null;
  attribution: Attribution | null;
  answers: RoutingAnswers | null;
  routing: RoutingRecord | null;
  needs_new_time_at: Date | null;
  needs_new_time_reason: string | null;
}

/** A host of the team as the booking's view offers them for a reassignment. */
export interface TeamMember {
  email: string;
  name: string;
}

/**
 * The booking and its history, from what the tables record: booked (its creation, at its first slot), each move (the
 * booking.rescheduled events: the slot given up and the one taken), the cancellation, the marks; every e-mail of its
 * outbox; its webhook deliveries with their latest tries; its answers with the labels of `questions` (the team
 * file's). Undefined when there is no such booking.
 */
export async function readBookingDetail(
  db: Db,
  id: string,
  team: readonly TeamMember[] = [],
  questions: readonly RoutingQuestion[] = [],
): Promise<BookingDetail | undefined> {
  const row: DetailRow | undefined = await db('bookings')
    .where({ id })
    .first(
      'sms_phone',
      'sms_consent_text',
      'sms_consent_at',
      db.raw('(SELECT o.opted_out_at FROM sms_opt_outs o WHERE o.phone = bookings.sms_phone) AS sms_opted_out_at'),
      'id',
      'name',
      'email',
      'company',
      'phone',
      'message',
      'time_slot',
      'status',
      'attendance',
      'attendance_marked_at',
      'prospect_reply',
      'prospect_replied_at',
      'sequence',
      'created_at',
      'cancelled_at',
      'meeting_url',
      'host_name',
      'host_title',
      'host_email',
      'attribution',
      'anonymised_at',
      'answers',
      'routing',
      'needs_new_time_at',
      'needs_new_time_reason',
    );
  if (!row) return undefined;
  const [events, emails, webhookDeliveries, sms] = await Promise.all([
    db('webhook_events')
      .where({ booking_id: id })
      .whereIn('type', [
        'booking.rescheduled',
        'booking.reassigned',
        'booking.needs-new-time',
        'booking.attended',
        'booking.no_show',
      ])
      .orderBy('position')
      .select(
        'type',
        'created_at',
        db.raw("payload #>> '{data,previousTimeSlot}' AS previous"),
        db.raw("payload #>> '{data,booking,timeSlot}' AS slot"),
        db.raw("coalesce(payload #>> '{data,previousHost,name}', '') AS previous_host"),
        db.raw("coalesce(payload #>> '{data,host,name}', '') AS host"),
      ) as Promise<
      {
        type: string;
        created_at: Date;
        previous: string | null;
        slot: string;
        previous_host: string;
        host: string;
      }[]
    >,
    db('deliveries')
      .where({ booking_id: id })
      .whereIn('channel', ['email', 'calendar'])
      .orderBy([{ column: 'created_at' }, { column: 'sequence' }, { column: 'id' }])
      .select(
        'id',
        'kind',
        'recipient',
        'created_at',
        'due_at',
        'sent_at',
        'failed_at',
        'dropped_at',
        'attempts',
        'last_error',
      ) as Promise<
      {
        id: string;
        kind: string;
        recipient: string | null;
        created_at: Date;
        due_at: Date;
        sent_at: Date | null;
        failed_at: Date | null;
        dropped_at: Date | null;
        attempts: number;
        last_error: string | null;
      }[]
    >,
    listDeliveries(db, { bookingId: id, limit: DELIVERIES_SHOWN }),
    row.sms_phone === null ? undefined : textsOf(db, id),
  ]);
  const moves = events.filter((event) => event.type === 'booking.rescheduled');
  // The slot it was booked at: the one its first move gave up, or the slot it still has.
  const firstSlot = moves[0]?.previous ? new Date(moves[0].previous) : row.time_slot;
  const history: HistoryEntry[] = [
    { at: row.created_at.toISOString(), what: 'booked', timeSlot: firstSlot.toISOString() },
  ];
  for (const event of events) {
    const at = event.created_at.toISOString();
    if (event.type === 'booking.rescheduled')
      history.push({
        at,
        what: 'moved',
        from: new Date(event.previous ?? event.slot).toISOString(),
        to: new Date(event.slot).toISOString(),
      });
    else if (event.type === 'booking.reassigned')
      history.push({ at, what: 'reassigned', fromHost: event.previous_host, toHost: event.host });
    else if (event.type === 'booking.needs-new-time')
      history.push({ at, what: 'needs-new-time', fromHost: event.previous_host });
    else history.push({ at, what: event.type === 'booking.attended' ? 'attended' : 'no_show' });
  }
  if (row.cancelled_at) history.push({ at: row.cancelled_at.toISOString(), what: 'cancelled' });
  history.sort((a, b) => a.at.localeCompare(b.at));
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    message: row.message,
    timeSlot: row.time_slot.toISOString(),
    status: row.status,
    attendance: row.attendance,
    attendanceMarkedAt: iso(row.attendance_marked_at),
    prospectReply:
      row.prospect_reply && row.prospect_replied_at
        ? { answer: row.prospect_reply, at: row.prospect_replied_at.toISOString() }
        : null,
    sequence: row.sequence,
    createdAt: row.created_at.toISOString(),
    meetingUrl: row.meeting_url,
    host:
      row.host_email === null
        ? null
        : { name: row.host_name ?? '', title: row.host_title ?? '', email: row.host_email },
    attribution: row.attribution,
    anonymisedAt: iso(row.anonymised_at),
    labelledAnswers: labelledAnswers(questions, row.answers),
    answers: row.answers,
    routing: row.routing,
    needsNewTime: needsNewTimeOf(row),
    sms:
      row.sms_phone === null || row.sms_consent_text === null || row.sms_consent_at === null || !sms
        ? null
        : {
            phone: row.sms_phone,
            consentText: row.sms_consent_text,
            consentAt: row.sms_consent_at.toISOString(),
            optedOutAt: iso(row.sms_opted_out_at),
            ...sms,
          },
    reassignTo:
      row.status === 'cancelled'
        ? []
        : reassignableHosts(row.routing, team, row.host_email).map(({ email, name }) => ({ email, name })),
    history,
    emails: emails.map((email) => ({
      id: email.id,
      kind: email.kind,
      recipient: email.recipient,
      createdAt: email.created_at.toISOString(),
      dueAt: email.due_at.toISOString(),
      sentAt: iso(email.sent_at),
      failedAt: iso(email.failed_at),
      droppedAt: iso(email.dropped_at),
      attempts: email.attempts,
      lastError: email.last_error,
    })),
    webhookDeliveries,
  };
}

/**
 * A booking's texts as its detail shows them: each stored and not dropped, with what became of it (the receipt's
 * word, or 'failed' when refused for good), the counts of delivered and failed, and those a limit held back.
 */
async function textsOf(
  db: Db,
  bookingId: string,
): Promise<Omit<SmsView, 'phone' | 'consentText' | 'consentAt' | 'optedOutAt'>> {
  const [rows, withheld] = await Promise.all([
    db('deliveries')
      .where({ booking_id: bookingId, channel: 'sms' })
      .whereNull('dropped_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('kind', 'sent_at', 'failed_at', 'sms_state', 'sms_state_at') as Promise<
      {
        kind: string;
        sent_at: Date | null;
        failed_at: Date | null;
        sms_state: string | null;
        sms_state_at: Date | null;
      }[]
    >,
    db('sms_withheld').where({ booking_id: bookingId }).orderBy('id').select('kind', 'reason', 'at') as Promise<
      { kind: string; reason: TextWithheldReason; at: Date }[]
    >,
  ]);
  const texts = rows.map((text) => ({
    kind: text.kind,
    sentAt: iso(text.sent_at),
    state: text.failed_at ? 'failed' : text.sms_state,
    stateAt: iso(text.failed_at ?? text.sms_state_at),
  }));
  return {
    texts,
    delivered: texts.filter((text) => text.state === 'delivered').length,
    failed: texts.filter((text) => text.state !== null && TEXT_FAILED_STATES.includes(text.state)).length,
    withheld: withheld.map((held) => ({ kind: held.kind, reason: held.reason, at: held.at.toISOString() })),
  };
}

/** Why a mark was refused (booking_mark); nothing was changed. */
export type MarkRefusal = 'not-found' | 'cancelled' | 'not-yet';

export type MarkOutcome =
  { outcome: 'refused'; refusal: MarkRefusal } | { outcome: 'marked' | 'unchanged'; jobs: QueuedJob[] };

/**
 * Marks whether the prospect came, in one statement (booking_mark of db/functions/booking-changes.sql, under the booking's
 * row lock): refused for a cancelled booking and before the demo's time; the same mark again changes nothing and
 * raises nothing; a new one (a first mark, or a correction) is stored with its webhook event, whose jobs the caller
 * queues after the commit.
 */
export async function markAttendance(db: Db, id: string, attendance: Attendance, now: Date): Promise<MarkOutcome> {
  try {
    const { rows } = (await db.raw('SELECT * FROM booking_mark(?, ?, ?)', [id, attendance, now])) as {
      rows: { changed: boolean; webhooks: StoredDelivery[] }[];
    };
    const row = rows[0];
    if (!row) throw new Error('booking_mark gave no row');
    return { outcome: row.changed ? 'marked' : 'unchanged', jobs: webhookJobs(row.webhooks) };
  } catch (err) {
    const refusal = refusalOf<{ reason: MarkRefusal }>(err);
    if (refusal) return { outcome: 'refused', refusal: refusal.reason };
    throw err;
  }
}
