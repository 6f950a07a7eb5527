/**
 * The booking's rules as the database holds them (db/functions/booking-rules.sql), each on its own, called the way the API
 * calls them against a real PostgreSQL: the slot's capacity, a person holding a slot once, the ceilings, the choice of
 * host, the idempotency key's lifetime, and the rules of a move, a cancellation and a mark. The notice and the slot
 * grid are the browser's checks as well, and are tested with them (domain/booking.test.ts).
 */
import { expect } from 'chai';
import { canonicalRecipient } from '../email-rules.js';
import { purgeExpiredIdempotencyKeys } from '../idempotency.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { markAttendance } from '../admin/repository.js';
import { DEFAULT_FOLLOW_UPS, emailRows } from './emails.js';
import type { HostCandidate } from './hosts.js';
import { cancelBooking, moveBooking, type ChangeResult } from './change-statements.js';
import { book, type BookResult } from './repository.js';
import { newBookingId } from './booking-id.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A slot `days` ahead on the hour, and the one `hours` after it. */
const slotIn = (days: number, hours = 0) => new Date(Math.ceil(Date.now() / HOUR) * HOUR + days * DAY + hours * HOUR);

interface Limits {
  perEmailPerDay: number;
  perDomainPerDay: number;
  emailsPerRecipientPerDay: number;
  slotCapacity: number;
}
const NO_CEILINGS: Limits = { perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 0, slotCapacity: 1 };

const host = (email: string, weight = 1, dailyLimit?: number): HostCandidate => ({
  email,
  name: email.split('@')[0]!,
  title: 'Solutions engineer',
  weight,
  dailyLimit,
  // A day that holds every slot of these tests: the daily limit counts them all.
  dayStart: new Date('2000-01-01T00:00:00Z'),
  dayEnd: new Date('2100-01-01T00:00:00Z'),
});

function refusalReason(result: BookResult | ChangeResult): string | undefined {
  return result.outcome === 'refused' ? result.refusal.reason : undefined;
}

describe("the booking's rules in the database", function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let people = 0;

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });

  /** Books `email` (a new person unless given) at `timeSlot`, as submitDemoRequest asks it. */
  async function bookAt(
    timeSlot: Date,
    options: {
      email?: string;
      limits?: Partial<Limits>;
      hosts?: readonly HostCandidate[];
      key?: { key: string; hash: string };
    } = {},
  ): Promise<BookResult & { id: string }> {
    const id = newBookingId();
    const email = options.email ?? `person${(people += 1)}@rules-${people}.test`;
    const result = await book(database.db, {
      id,
      input: { name: 'Ada Lovelace', email, company: 'Analytical', timeSlot: timeSlot.toISOString() },
      recipient: canonicalRecipient(email),
      limits: { ...NO_CEILINGS, ...options.limits },
      emails: emailRows('booked', DEFAULT_FOLLOW_UPS, new Date(), timeSlot),
      invitePath: `/api/bookings/${id}/invite.ics`,
      meetingUrl: `https://meet.example/${id}`,
      ...(options.hosts ? { hosts: options.hosts } : {}),
      ...(options.key ? { idempotency: options.key } : {}),
    });
    return { ...result, id };
  }

  const move = (
    id: string,
    timeSlot: Date,
    options: { now?: Date; slotCapacity?: number; hosts?: readonly HostCandidate[]; ceiling?: number } = {},
  ) => {
    const now = options.now ?? new Date();
    return moveBooking(database.db, {
      id,
      timeSlot,
      now,
      slotCapacity: options.slotCapacity ?? 1,
      ...(options.hosts ? { hosts: options.hosts } : {}),
      emailsPerRecipientPerDay: options.ceiling ?? 0,
      emails: emailRows('rescheduled', DEFAULT_FOLLOW_UPS, now, timeSlot),
    });
  };
  const cancel = (id: string, now = new Date()) =>
    cancelBooking(database.db, {
      id,
      now,
      emailsPerRecipientPerDay: 0,
      emails: emailRows('cancelled', DEFAULT_FOLLOW_UPS, now),
    });
  const row = (id: string) =>
    database.db('bookings').where({ id }).first('time_slot', 'status', 'sequence', 'host_email', 'attendance');
  const deliveries = (id: string) =>
    database.db('deliveries').where({ booking_id: id }).orderBy('created_at').select('kind', 'recipient', 'dropped_at');

  describe("a slot's capacity", () => {
    it('takes as many bookings as the capacity, then refuses the next one (slot-taken)', async () => {
      const slot = slotIn(3);
      expect((await bookAt(slot, { limits: { slotCapacity: 2 } })).outcome).to.equal('stored');
      expect((await bookAt(slot, { limits: { slotCapacity: 2 } })).outcome).to.equal('stored');
      expect(refusalReason(await bookAt(slot, { limits: { slotCapacity: 2 } }))).to.equal('slot-taken');
    });

    it('refuses a move into a full slot and leaves the booking where it was', async () => {
      const full = slotIn(3, 1);
      await bookAt(full);
      const moving = await bookAt(slotIn(3, 2));
      expect(refusalReason(await move(moving.id, full))).to.equal('slot-taken');
      expect((await row(moving.id)).time_slot).to.deep.equal(slotIn(3, 2));
    });

    it('lets only one of two moves at once take the last place', async () => {
      const last = slotIn(3, 3);
      const [one, two] = [await bookAt(slotIn(3, 4)), await bookAt(slotIn(3, 5))];
      const outcomes = (await Promise.all([move(one.id, last), move(two.id, last)])).map((r) => r.outcome);
      expect(outcomes.sort()).to.deep.equal(['changed', 'refused']);
      expect(
        await database.db('bookings').where({ time_slot: last, status: 'booked' }).count({ n: '*' }),
      ).to.deep.equal([{ n: '1' }]);
    });
  });

  describe('a person holds a slot once', () => {
    it('refuses the same person twice in a slot with room (already-booked), in any spelling of their address', async () => {
      const slot = slotIn(4);
      expect((await bookAt(slot, { email: 'grace@hopper.test', limits: { slotCapacity: 3 } })).outcome).to.equal(
        'stored',
      );
      const again = await bookAt(slot, { email: 'Grace+demo@Hopper.test', limits: { slotCapacity: 3 } });
      expect(refusalReason(again)).to.equal('already-booked');
    });

    it("refuses moving one of a person's bookings into a slot they hold already", async () => {
      const held = slotIn(4, 1);
      await bookAt(held, { email: 'alan@turing.test', limits: { slotCapacity: 3 } });
      const other = await bookAt(slotIn(4, 2), { email: 'alan@turing.test', limits: { slotCapacity: 3 } });
      expect(refusalReason(await move(other.id, held, { slotCapacity: 3 }))).to.equal('already-booked');
    });
  });

  describe('the 24-hour ceilings', () => {
    it('count in one window of 24 hours, written once in the database', async () => {
      const { rows } = (await database.db.raw('SELECT extract(epoch FROM booking_ceiling_window()) AS s')) as {
        rows: { s: string }[];
      };
      expect(Number(rows[0]!.s)).to.equal(24 * 3600);
    });

    it('refuses a booking past the bookings per address, with their count and when the oldest leaves the window', async () => {
      const limits = { perEmailPerDay: 1 };
      const stored = await bookAt(slotIn(5), { email: 'one@ceiling.test', limits });
      expect(stored.outcome).to.equal('stored');
      const refused = await bookAt(slotIn(5, 1), { email: 'one@ceiling.test', limits });
      expect(refused.outcome === 'refused' && refused.refusal).to.include({ reason: 'email-ceiling', count: 1 });
      const { created_at: createdAt } = (await database
        .db('bookings')
        .where({ id: stored.id })
        .first('created_at')) as {
        created_at: Date;
      };
      const freeAt = refused.outcome === 'refused' && 'freeAt' in refused.refusal ? refused.refusal.freeAt : null;
      expect(freeAt).to.be.closeTo(createdAt.getTime() + DAY, 1);
    });

    it('refuses a booking past the bookings per domain', async () => {
      const limits = { perDomainPerDay: 2 };
      await bookAt(slotIn(5, 2), { email: 'a@crowded.test', limits });
      await bookAt(slotIn(5, 3), { email: 'b@crowded.test', limits });
      expect(refusalReason(await bookAt(slotIn(5, 4), { email: 'c@crowded.test', limits }))).to.equal('domain-ceiling');
    });

    it("refuses a booking whose e-mails would pass the recipient's e-mails a day", async () => {
      // A booking two days ahead sends its confirmation and a reminder: two e-mails.
      await bookAt(slotIn(5, 5), { email: 'mailed@ceiling.test', limits: { emailsPerRecipientPerDay: 3 } });
      const refused = await bookAt(slotIn(5, 6), {
        email: 'mailed@ceiling.test',
        limits: { emailsPerRecipientPerDay: 3 },
      });
      expect(refusalReason(refused)).to.equal('recipient-emails');
    });

    it("undoes a move whose e-mails would pass the recipient's e-mails a day: nothing moved, nothing stored or dropped", async () => {
      const booked = await bookAt(slotIn(6), { email: 'moved@ceiling.test' });
      // The confirmation went: it counts, and no move drops it.
      await database
        .db('deliveries')
        .where({ booking_id: booked.id, kind: 'confirmation' })
        .update({ sent_at: new Date() });
      const before = await deliveries(booked.id);
      const refused = await move(booked.id, slotIn(6, 1), { ceiling: 2 });
      expect(refused.outcome === 'refused' && refused.refusal).to.include({ reason: 'recipient-emails' });
      expect(await row(booked.id)).to.include({ sequence: 0 });
      expect(await deliveries(booked.id)).to.deep.equal(before);
      expect((await move(booked.id, slotIn(6, 1), { ceiling: 3 })).outcome).to.equal('changed');
    });
  });

  describe('the choice of host', () => {
    const team = [host('ana@team.test'), host('ben@team.test')];

    it('gives the booking the host with the fewest demos around the slot, ties to the earlier in the file', async () => {
      const first = await bookAt(slotIn(7), { hosts: team });
      expect(first.outcome === 'stored' && first.answer.host?.name).to.equal('ana');
      const second = await bookAt(slotIn(7, 1), { hosts: team });
      expect(second.outcome === 'stored' && second.answer.host?.name).to.equal('ben');
    });

    it('keeps a moved booking with its host when free at the new time, else gives it to a free one', async () => {
      const booked = await bookAt(slotIn(8), { hosts: team });
      const kept = (await row(booked.id)).host_email as string;
      expect((await move(booked.id, slotIn(8, 2), { hosts: team })).outcome).to.equal('changed');
      expect((await row(booked.id)).host_email).to.equal(kept);
      // Its host is taken at the next time: the other one takes the demo, and each hears of it.
      await bookAt(slotIn(8, 4), { hosts: team.filter((h) => h.email === kept) });
      expect((await move(booked.id, slotIn(8, 4), { hosts: team })).outcome).to.equal('changed');
      const other = team.find((h) => h.email !== kept)!.email;
      expect((await row(booked.id)).host_email).to.equal(other);
      const told = (await deliveries(booked.id)).filter((d) => d.recipient === kept || d.recipient === other);
      expect(told.slice(-4).map((d) => `${d.kind} ${d.recipient}`)).to.deep.equal([
        `host-invitation ${other}`,
        `host-calendar ${other}`,
        `host-cancellation ${kept}`,
        `host-calendar ${kept}`,
      ]);
    });

    it('refuses the slot when no host is left (slot-taken), and counts no host past their daily limit', async () => {
      const solo = [host('cy@team.test', 1, 1)];
      expect((await bookAt(slotIn(9), { hosts: solo })).outcome).to.equal('stored');
      expect(refusalReason(await bookAt(slotIn(9), { hosts: solo }))).to.equal('slot-taken');
      expect(refusalReason(await bookAt(slotIn(9, 2), { hosts: solo }))).to.equal('slot-taken');
    });
  });

  describe("an idempotency key's lifetime", () => {
    const lifetime = async () =>
      (
        (await database.db.raw('SELECT extract(epoch FROM idempotency_key_lifetime()) AS s')) as {
          rows: { s: string }[];
        }
      ).rows[0]!.s;

    it('is 24 hours, written once in the database', async () => {
      expect(Number(await lifetime())).to.equal(24 * 3600);
    });

    it('keeps a key to the end of its lifetime, then answers its reuse afresh', async () => {
      const key = { key: 'lifetime-key-0001', hash: 'first' };
      expect((await bookAt(slotIn(10), { key })).outcome).to.equal('stored');
      const ageKey = (age: string) =>
        database
          .db('idempotency_keys')
          .where({ key: key.key })
          .update({
            created_at: database.db.raw(`now() - idempotency_key_lifetime() + interval '${age}'`),
          });
      await ageKey('1 minute');
      expect(refusalReason(await bookAt(slotIn(10, 1), { key: { ...key, hash: 'other' } }))).to.equal('key-reused');
      await ageKey('-1 second');
      expect((await bookAt(slotIn(10, 1), { key: { ...key, hash: 'other' } })).outcome).to.equal('stored');
    });

    it('is the purge’s too: it deletes the keys past it and keeps the others', async () => {
      await database.db('idempotency_keys').insert([
        { key: 'purge-old-0001', request_hash: 'h', status_code: 201, response: '{}' },
        { key: 'purge-new-0001', request_hash: 'h', status_code: 201, response: '{}' },
      ]);
      await database
        .db('idempotency_keys')
        .where({ key: 'purge-old-0001' })
        .update({
          created_at: database.db.raw("now() - idempotency_key_lifetime() - interval '1 second'"),
        });
      await database
        .db('idempotency_keys')
        .where({ key: 'purge-new-0001' })
        .update({
          created_at: database.db.raw("now() - idempotency_key_lifetime() + interval '1 minute'"),
        });
      await purgeExpiredIdempotencyKeys(database.db);
      const left = await database
        .db('idempotency_keys')
        .whereIn('key', ['purge-old-0001', 'purge-new-0001'])
        .pluck('key');
      expect(left).to.deep.equal(['purge-new-0001']);
    });
  });

  describe('a move', () => {
    it('changes nothing when asked for the same slot: no sequence, no e-mail', async () => {
      const booked = await bookAt(slotIn(11));
      const before = await deliveries(booked.id);
      expect((await move(booked.id, slotIn(11))).outcome).to.equal('unchanged');
      expect(await row(booked.id)).to.include({ sequence: 0 });
      expect(await deliveries(booked.id)).to.deep.equal(before);
    });

    it('raises the sequence, drops the earlier unsent e-mails and stores the update naming the slot given up', async () => {
      const booked = await bookAt(slotIn(11, 1));
      const moved = await move(booked.id, slotIn(11, 2));
      expect(moved.outcome === 'changed' && moved.booking).to.include({ sequence: 1 });
      const update = await database.db('deliveries').where({ booking_id: booked.id, kind: 'update' }).first();
      expect(update).to.include({ sequence: 1 });
      expect(update.previous_time_slot).to.deep.equal(slotIn(11, 1));
      const confirmation = await database
        .db('deliveries')
        .where({ booking_id: booked.id, kind: 'confirmation' })
        .first();
      expect(confirmation.dropped_at).to.be.an.instanceOf(Date);
    });

    it('refuses a demo that has begun (started), a cancelled one (cancelled), and one moved ten times', async () => {
      const begun = await bookAt(slotIn(12));
      expect(refusalReason(await move(begun.id, slotIn(12, 1), { now: slotIn(12) }))).to.equal('started');
      const cancelled = await bookAt(slotIn(12, 2));
      await cancel(cancelled.id);
      expect(refusalReason(await move(cancelled.id, slotIn(12, 3)))).to.equal('cancelled');
      const often = await bookAt(slotIn(12, 4));
      for (let n = 1; n <= 10; n += 1) expect((await move(often.id, slotIn(12, 4 + n))).outcome).to.equal('changed');
      const refused = await move(often.id, slotIn(12, 4));
      expect(refused.outcome === 'refused' && refused.refusal).to.deep.equal({ reason: 'too-many-changes', count: 10 });
    });

    it('answers a booking whose data retention removed as gone, and an unknown one as not found', async () => {
      const old = await bookAt(slotIn(13));
      await database.db('bookings').where({ id: old.id }).update({ anonymised_at: new Date() });
      expect(refusalReason(await move(old.id, slotIn(13, 1)))).to.equal('gone');
      expect(refusalReason(await cancel(old.id))).to.equal('gone');
      expect(refusalReason(await move(newBookingId(), slotIn(13, 1)))).to.equal('not-found');
    });
  });

  describe('a cancellation', () => {
    it('frees the slot at once, and a second one changes nothing', async () => {
      const slot = slotIn(14);
      const booked = await bookAt(slot);
      expect((await cancel(booked.id)).outcome).to.equal('changed');
      expect(await row(booked.id)).to.include({ status: 'cancelled', sequence: 1 });
      expect((await cancel(booked.id)).outcome).to.equal('unchanged');
      expect(await row(booked.id)).to.include({ sequence: 1 });
      expect((await bookAt(slot)).outcome).to.equal('stored');
    });

    it('refuses a demo that has begun', async () => {
      const booked = await bookAt(slotIn(14, 1));
      expect(refusalReason(await cancel(booked.id, slotIn(14, 2)))).to.equal('started');
      expect(await row(booked.id)).to.include({ status: 'booked' });
    });
  });

  describe('a mark after the demo', () => {
    const events = (id: string) => database.db('webhook_events').where({ booking_id: id }).pluck('type');

    it('is refused before the demo has begun, for a cancelled demo and for no booking', async () => {
      const booked = await bookAt(slotIn(15));
      expect(await markAttendance(database.db, booked.id, 'attended', new Date())).to.deep.equal({
        outcome: 'refused',
        refusal: 'not-yet',
      });
      await cancel(booked.id);
      expect(await markAttendance(database.db, booked.id, 'attended', slotIn(15, 1))).to.deep.include({
        refusal: 'cancelled',
      });
      expect(await markAttendance(database.db, newBookingId(), 'attended', new Date())).to.deep.include({
        refusal: 'not-found',
      });
    });

    it('stores a new mark with its event, and the same mark again changes nothing', async () => {
      const booked = await bookAt(slotIn(15, 2));
      const after = slotIn(15, 3);
      expect((await markAttendance(database.db, booked.id, 'no_show', after)).outcome).to.equal('marked');
      expect((await markAttendance(database.db, booked.id, 'no_show', after)).outcome).to.equal('unchanged');
      expect((await markAttendance(database.db, booked.id, 'attended', after)).outcome).to.equal('marked');
      expect(await row(booked.id)).to.include({ attendance: 'attended' });
      expect(await events(booked.id)).to.have.members(['booking.created', 'booking.no_show', 'booking.attended']);
    });
  });
});
