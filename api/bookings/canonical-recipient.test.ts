/**
 * One recipient however the address is written (case, a +tag, a domain in Unicode or punycode): the booking
 * ceilings, "one person holds a slot once" and the e-mail ceiling all count the mailbox the e-mails reach.
 */
import { expect } from 'chai';
import { SLOT_ALREADY_BOOKED_MESSAGE } from '../../domain/booking.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { createTestDatabase } from '../../test/database.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';
import { until } from '../../test/until.js';

// Monday 23 November 2026, 10:30 in Berlin; the slots are Tuesday's and Wednesday's hours.
const NOW = new Date('2026-11-23T09:30:00.000Z');
const tuesday = (hourUtc: number) => `2026-11-24T${String(hourUtc).padStart(2, '0')}:00:00.000Z`;
const wednesday = (hourUtc: number) => `2026-11-25T${String(hourUtc).padStart(2, '0')}:00:00.000Z`;

const booking = (email: string, timeSlot: string) => ({ name: 'Vic Tim', email, company: 'Stranger Inc', timeSlot });
const rows = async (app: AppUnderTest) => Number((await app.db('bookings').count({ n: '*' }).first())?.n);

/** The forms of one mailbox the issue names, in pairs: the second of each must count as the first. */
const SAME_RECIPIENT: [string, string][] = [
  ['victim+1@stranger-inc.com', 'victim+2@stranger-inc.com'],
  ['victim@stranger-inc.com', 'Victim@STRANGER-INC.com'],
  ['victim@dùp-test.com', 'victim@xn--dp-test-y1a.com'],
  ['Victim+a@XN--DP-TEST-Y1A.COM', 'victim@DÙP-Test.com'],
];

describe('recipients counted in one canonical form', () => {
  describe('with SLOT_CAPACITY=2', () => {
    let app: AppUnderTest;
    before(async () => {
      app = await startAppUnderTest({
        now: () => NOW,
        bookingLimits: { slotCapacity: 2, perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 0 },
      });
    });
    after(async () => {
      await app.close();
    });
    beforeEach(async () => {
      await app.db('bookings').del();
    });

    for (const [first, second] of SAME_RECIPIENT) {
      it(`does not let ${first} and ${second} hold one slot twice`, async () => {
        expect((await app.post('/api/demo-request', booking(first, tuesday(9)))).status).to.equal(201);
        const again = await app.post('/api/demo-request', booking(second, tuesday(9)));
        expect(again.status).to.equal(409);
        expect(again.body).to.deep.equal({
          error: 'Already booked',
          details: SLOT_ALREADY_BOOKED_MESSAGE,
          fields: { timeSlot: SLOT_ALREADY_BOOKED_MESSAGE },
        });
        expect(await rows(app)).to.equal(1);
        // The slot still has room for somebody else.
        expect((await app.post('/api/demo-request', booking('someone@else-entirely.com', tuesday(9)))).status).to.equal(
          201,
        );
      });
    }

    it('does not let a move take a slot the same person holds under another form of the address', async () => {
      expect((await app.post('/api/demo-request', booking('victim+1@dùp-test.com', tuesday(9)))).status).to.equal(201);
      const other = await app.post('/api/demo-request', booking('Victim+2@xn--dp-test-y1a.com', tuesday(10)));
      expect(other.status).to.equal(201);
      const moved = await app.post(
        `/api/bookings/${bookingToken(String(other.body.id), TEST_LINK_SECRET)}/reschedule`,
        { timeSlot: tuesday(9) },
      );
      expect(moved.status).to.equal(409);
      expect(moved.body).to.include({ error: 'Already booked' });
      const row = await app.db('bookings').where({ id: other.body.id }).first();
      expect(row.time_slot.toISOString()).to.equal(tuesday(10));
    });

    it('stores the canonical form beside the address as typed, to which the e-mails still go', async () => {
      const booked = await app.post('/api/demo-request', booking('Victim+Demo@DÙP-Test.com', tuesday(11)));
      expect(booked.status).to.equal(201);
      const row = await app.db('bookings').where({ id: booked.body.id }).first();
      expect(row).to.include({
        email: 'Victim+Demo@DÙP-Test.com',
        recipient: 'victim@xn--dp-test-y1a.com',
        recipient_domain: 'xn--dp-test-y1a.com',
      });
    });
  });

  describe('the ceilings of BOOKINGS_PER_EMAIL_PER_DAY and BOOKINGS_PER_DOMAIN_PER_DAY', () => {
    let app: AppUnderTest;
    before(async () => {
      app = await startAppUnderTest({
        now: () => NOW,
        bookingLimits: { slotCapacity: 1, perEmailPerDay: 3, perDomainPerDay: 4, emailsPerRecipientPerDay: 0 },
      });
    });
    after(async () => {
      await app.close();
    });
    beforeEach(async () => {
      await app.db('bookings').del();
    });

    it('count a +tag, the case and the punycode form of the domain as one address', async () => {
      for (const [hour, email] of [
        [7, 'victim+1@dùp-test.com'],
        [8, 'victim+2@xn--dp-test-y1a.com'],
        [9, 'VICTIM@DÙP-test.com'],
      ] as const) {
        expect((await app.post('/api/demo-request', booking(email, tuesday(hour)))).status, email).to.equal(201);
      }
      const fourth = await app.post('/api/demo-request', booking('victim+4@XN--DP-TEST-Y1A.COM', tuesday(10)));
      expect(fourth.status).to.equal(429);
      expect(fourth.body.details).to.match(/^This email address has already booked 3 demos in the last 24 hours/);
      expect(await rows(app)).to.equal(3);
    });

    it('count the Unicode and punycode forms as one domain', async () => {
      const emails = [
        'a@dùp-test.com',
        'b@xn--dp-test-y1a.com',
        'c@DÙP-TEST.COM',
        'd@XN--DP-TEST-Y1A.com',
        'e@dùp-test.com',
      ];
      const answers = [];
      for (const [index, email] of emails.entries())
        answers.push((await app.post('/api/demo-request', booking(email, wednesday(7 + index)))).status);
      expect(answers).to.deep.equal([201, 201, 201, 201, 429]);
    });
  });
});

describe('EMAILS_PER_RECIPIENT_PER_DAY', () => {
  let app: AppUnderTest;
  const token = (id: unknown) => bookingToken(String(id), TEST_LINK_SECRET);
  /**
   * What a worker does between one request of a prospect's and the next: every e-mail stored so far goes out. Else a
   * change would drop the earlier e-mails still waiting (the confirmation, an earlier update), and they would not count.
   */
  async function sendAllStored(): Promise<void> {
    await app.db('deliveries').whereNull('sent_at').whereNull('dropped_at').update({ sent_at: app.db.fn.now() });
  }
  const move = async (id: unknown, timeSlot: string) => {
    await sendAllStored();
    return app.post(`/api/bookings/${token(id)}/reschedule`, { timeSlot });
  };
  /** What the ceiling counts, read back from the outbox: confirmations, updates, cancellations and reminders not dropped. */
  async function emailsStored(): Promise<number> {
    const stored = await app
      .db('deliveries')
      .whereNot({ kind: 'sales-notice' })
      .whereNull('dropped_at')
      .count({ n: '*' })
      .first();
    return Number(stored?.n);
  }

  before(async () => {
    app = await startAppUnderTest({
      now: () => NOW,
      // No reminders here: every e-mail is one a request sends at once. The booking ceilings are off, to reach this one.
      followUps: { reminderMinutesBefore: 0, salesNotifyEmail: 'sales@converge.test' },
      bookingLimits: { slotCapacity: 1, perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 10 },
    });
  });
  after(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await app.db('bookings').del();
  });

  it('refuses the booking or change that would pass it (429, Retry-After), and leaves the booking as it was', async () => {
    const ids: unknown[] = [];
    for (const [hour, email] of [
      [7, 'victim+1@stranger-inc.com'],
      [9, 'victim+2@stranger-inc.com'],
      [11, 'Victim@Stranger-Inc.com'],
    ] as const) {
      const booked = await app.post('/api/demo-request', booking(email, tuesday(hour)));
      expect(booked.status).to.equal(201);
      ids.push(booked.body.id);
    }
    // 3 confirmations and 7 updates: the tenth e-mail is still allowed.
    for (let i = 0; i < 7; i++)
      expect((await move(ids[0], tuesday(i % 2 === 0 ? 8 : 7))).status, `move ${i + 1}`).to.equal(200);
    expect(await emailsStored()).to.equal(10);

    const before = await app.db('bookings').where({ id: ids[1] }).first();
    const outboxBefore = await app.db('deliveries').count({ n: '*' }).first();
    const moved = await move(ids[1], tuesday(10));
    expect(moved.status).to.equal(429);
    expect(moved.body.error).to.equal('Too many requests');
    expect(moved.body.details).to.match(
      /^This booking's email address has had the most e-mails about demos we send to one address in 24 hours/,
    );
    expect(Number(moved.headers.get('retry-after'))).to.be.within(86_000, 86_400);
    const cancelled = await app.post(`/api/bookings/${token(ids[1])}/cancel`, {});
    expect(cancelled.status).to.equal(429);
    const after = await app.db('bookings').where({ id: ids[1] }).first();
    expect(after).to.deep.equal(before);
    expect(await app.db('deliveries').count({ n: '*' }).first()).to.deep.equal(outboxBefore);

    const fresh = await app.post('/api/demo-request', booking('victim+new@STRANGER-INC.COM', tuesday(13)));
    expect(fresh.status).to.equal(429);
    expect(fresh.body.details).to.match(
      /^This email address has had the most e-mails about demos we send to one address in 24 hours\. Please try again in about 24 hours\.$/,
    );
    expect(fresh.body.fields).to.deep.equal({ email: fresh.body.details });
    expect(await emailsStored()).to.equal(10);

    // A day later the address has room again.
    await app.db('bookings').update({ created_at: app.db.raw("now() - interval '25 hours'") });
    await app.db('deliveries').update({ created_at: app.db.raw("now() - interval '25 hours'") });
    expect((await move(ids[1], tuesday(10))).status).to.equal(200);
  });

  it("lets only one of several changes at once take the last e-mail (the recipient domain's lock)", async () => {
    const ids: unknown[] = [];
    for (const [hour, email] of [
      [7, 'victim+1@stranger-inc.com'],
      [9, 'victim+2@stranger-inc.com'],
      [11, 'victim+3@stranger-inc.com'],
    ] as const) {
      ids.push((await app.post('/api/demo-request', booking(email, tuesday(hour)))).body.id);
    }
    for (let i = 0; i < 6; i++) expect((await move(ids[0], tuesday(i % 2 === 0 ? 8 : 7))).status).to.equal(200);
    expect(await emailsStored()).to.equal(9);
    // The four requests are held at their slots' locks until all four are waiting, then let go together.
    const targets = [tuesday(14), tuesday(15), tuesday(16), tuesday(17)];
    const holder = await app.db.transaction();
    for (const slot of targets) await holder.raw('SELECT booking_lock_slot(?)', [slot]);
    const pending = Promise.all([
      move(ids[0], targets[0]!),
      move(ids[1], targets[1]!),
      move(ids[2], targets[2]!),
      app.post('/api/demo-request', booking('victim@stranger-inc.com', targets[3]!)),
    ]);
    await until(async () => {
      const waiting = await holder.raw(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
      );
      return waiting.rows[0].n === 4 ? true : undefined;
    }, 'the four requests to wait');
    await holder.commit();
    const answers = await pending;
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.filter((status) => status === 200 || status === 201),
      statuses.join(' '),
    ).to.have.length(1);
    expect(
      statuses.filter((status) => status === 429),
      statuses.join(' '),
    ).to.have.length(3);
    expect(await emailsStored()).to.equal(10);
  });
});

describe('the migration to canonical recipients', () => {
  const MIGRATION = '20261128110000_count_canonical_recipients';

  it('fills in the recipient of the bookings stored before it, and the ceilings count them', async () => {
    const database = await createTestDatabase();
    try {
      const { db } = database;
      // The migrations after it first, latest first.
      await db.migrate.down({ name: '20261206100000_drop_outbox_compatibility_views' });
      await db.migrate.down({ name: '20261205100000_one_outbox_for_every_delivery' });
      await db.migrate.down({ name: '20261130110000_booking_host_and_meeting' });
      await db.migrate.down({ name: '20261130100000_one_email_outbox' });
      await db.migrate.down({ name: '20261129110000_name_the_entity_booking' });
      await db.migrate.down({ name: '20261129100000_book_in_functions_file' });
      await db.migrate.down({ name: MIGRATION });
      // The table's name at that point of the history.
      const typed = ['Victim+1@DÙP-Test.com', 'victim@xn--dp-test-y1a.com', 'ada@analytical-engines.com'];
      await db('demo_requests').insert(
        typed.map((email, i) => ({
          name: 'Earlier',
          email,
          company: 'Earlier Inc',
          time_slot: new Date(tuesday(7 + i)),
        })),
      );
      await db.migrate.up({ name: MIGRATION });
      const rows = await db('demo_requests').orderBy('time_slot').select('email', 'recipient', 'recipient_domain');
      expect(rows).to.deep.equal([
        { email: typed[0], recipient: 'victim@xn--dp-test-y1a.com', recipient_domain: 'xn--dp-test-y1a.com' },
        { email: typed[1], recipient: 'victim@xn--dp-test-y1a.com', recipient_domain: 'xn--dp-test-y1a.com' },
        { email: typed[2], recipient: 'ada@analytical-engines.com', recipient_domain: 'analytical-engines.com' },
      ]);
      const { rows: counted } = await db.raw('SELECT counted, refused FROM recipient_email_ceiling(?, 1, 2)', [
        'victim@xn--dp-test-y1a.com',
      ]);
      expect(counted).to.deep.equal([{ counted: 2, refused: true }]);
    } finally {
      await database.drop();
    }
  });
});
