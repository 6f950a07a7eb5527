/**
 * What a channel is to the worker: a sender, which makes a claimed outbox row into its message and tries it once. The
 * claim, the order, the lease, the marks, the retries by the kind's policy, the spans, the logs and the counts are
 * worker/deliver.ts's, the same for every channel. A new channel is its sender here (email.ts, calendar.ts, webhook.ts
 * beside it), its template, and its kinds' lines in the registry (server-shared/delivery-kinds.ts).
 */
import type { Attributes } from '@opentelemetry/api';
import type { Knex } from 'knex';
import type { Claimed } from '../delivery-row.js';

/** What the receiver said when it took the message. */
export interface Receipt {
  /** Its answer, for the log line (a mail server's reply, a calendar's status). */
  response?: string;
  /** The receiver's status (a webhook's HTTP status), kept on the row. */
  status?: number;
  /** The first bytes of its answer, for the channel's own log of tries. */
  excerpt?: string | null;
  /** Kept on the row as its last error although the message went (a webhook answer's body cut short). */
  note?: string;
  /** More fields for the log line about the try (ids, statuses; never an address). */
  fields?: Record<string, unknown>;
}

/**
 * A try that did not get the message taken. `ends`: 'message' when the receiver refused it for good (no more tries),
 * 'receiver' when the receiver is gone for good (the row is kept, its receiver takes nothing more); unset: tried again
 * by the kind's retry policy. A sender's `send` rejects with one, or with any error (a failure to try again).
 */
export class SendFailure extends Error {
  readonly ends?: 'message' | 'receiver';
  /** How long the receiver asked to be left alone (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  readonly status?: number;
  readonly excerpt?: string | null;
  readonly fields?: Record<string, unknown>;

  constructor(message: string, details: Omit<Partial<SendFailure>, keyof Error> = {}) {
    super(message);
    Object.assign(this, details);
  }
}

/** How one try ended, as its row records it. */
export interface Tried {
  /**
   * 'retry': failed, tried again (`at`: when, under a 'window' policy); 'refused': refused for good by the receiver;
   * 'exhausted': tried for a whole retry window; 'gone': the receiver takes nothing more.
   */
  outcome: 'sent' | 'retry' | 'refused' | 'exhausted' | 'gone';
  /** What went wrong (or, sent, the receipt's note); never an address. */
  error: string | null;
  status: number | null;
  excerpt: string | null;
  durationMs: number;
  at?: Date;
  fields: Record<string, unknown>;
}

export interface Sender<Message = unknown> {
  /** Who receives the channel's messages, in log lines: 'the SMTP server', 'the calendar', 'the endpoint'. */
  readonly receiver: string;
  /** The span beneath the delivery's over the transport's work: 'smtp send', 'caldav write', 'webhook post'. */
  readonly span: string;
  /** The row's attributes on its spans and its log lines: ids only, never an address. */
  describe?(claimed: Claimed): Attributes;
  /**
   * What the claimed row comes to; null when it no longer tells the truth (it is then dropped, never sent). Throws for
   * a row this worker cannot write (refused for good).
   */
  compose(claimed: Claimed, now: Date): Message | null;
  /** One try: resolves once the receiver has taken it, rejects (a SendFailure, or any error) when not. */
  send(message: Message, signal: AbortSignal): Promise<Receipt>;
  /**
   * What a try leaves beyond its row (a webhook's delivery log, its endpoint failing or stopped), in the transaction
   * that records it. Without it, a sent row is marked together with others sent at the same moment.
   */
  record?(trx: Knex.Transaction, claimed: Claimed, tried: Tried): Promise<void>;
}

/** The senders by channel. */
export type Senders = Readonly<Record<string, Sender>>;
