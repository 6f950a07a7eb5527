/**
 * The form turned on a stranger: bookings to one address, each moved again and again and then cancelled, against the
 * real API, worker and SMTP server, with EMAILS_PER_RECIPIENT_PER_DAY as shipped (10). Each request waits for the
 * e-mails it caused to arrive, so no update is skipped for being overtaken: what the sink counts is what the
 * requests caused.
 */
import { expect } from 'chai';
import { bookingToken } from '../../server-shared/booking-link.js';
import { bookableSlots } from '../../test/booking.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';

const VICTIM = 'victim@stranger-inc.com';
const SALES = 'sales-desk@converge.test';

describe('e-mails to one recipient, whatever their kind, end to end', function () {
  this.timeout(120_000);
  let stack: Stack;
  const slots = bookableSlots(8);
  const iso = (index: number) => slots[index]!.iso;

  before(async () => {
    stack = await startStack({
      env: {
        EMAILS_PER_RECIPIENT_PER_DAY: '10',
        BOOKINGS_PER_EMAIL_PER_DAY: '3',
        SALES_NOTIFY_EMAIL: SALES,
        // Every booking gets a reminder (counted from when it is stored), none of which falls due during the test.
        REMINDER_MINUTES_BEFORE: '60',
      },
      workerOptions: { sweepEveryMs: 200 },
    });
  });
  after(async () => {
    await stack.close();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      retryAfter: response.headers.get('retry-after'),
    };
  };
  const mailsTo = (address: string) => stack.smtp.messages.filter((mail) => mail.envelopeTo.includes(address)).length;

  /** Until nothing the address's bookings caused is waiting to go out (reminders aside: they are not due yet). */
  async function delivered(address: string): Promise<void> {
    await until(async () => {
      const waiting = await stack
        .db('deliveries as b')
        .join('bookings as d', 'd.id', 'b.booking_id')
        .where('d.email', address)
        .whereIn('b.kind', ['confirmation', 'update', 'cancellation'])
        .whereNull('b.sent_at')
        .whereNull('b.failed_at')
        .whereNull('b.dropped_at')
        .count({ n: '*' })
        .first();
      return Number(waiting?.n) === 0 ? true : undefined;
    }, `the e-mails to ${address} to go out`);
  }

  it('sends at most 10 e-mails to an address booked 3 times, each booking moved 10 times and cancelled', async () => {
    const answers: number[] = [];
    const tokens: string[] = [];
    for (const home of [0, 2, 4]) {
      const booked = await post('/api/demo-request', {
        name: 'Victim',
        email: VICTIM,
        company: 'Stranger Inc',
        timeSlot: iso(home),
      });
      answers.push(booked.status);
      if (booked.status === 201) tokens.push(bookingToken(String(booked.body.id), TEST_LINK_SECRET));
      await delivered(VICTIM);
    }
    const refused: { status: number; body: Record<string, unknown>; retryAfter: string | null }[] = [];
    for (const [index, token] of tokens.entries()) {
      // Between two slots of its own, each move to the one it is not at.
      const home = index * 2;
      let at = home;
      for (let move = 1; move <= 10; move++) {
        const target = at === home ? home + 1 : home;
        const moved = await post(`/api/bookings/${token}/reschedule`, { timeSlot: iso(target) });
        answers.push(moved.status);
        if (moved.status === 200) at = target;
        if (moved.status === 429) refused.push(moved);
        await delivered(VICTIM);
      }
      const cancelled = await post(`/api/bookings/${token}/cancel`, {});
      answers.push(cancelled.status);
      if (cancelled.status === 429) refused.push(cancelled);
      await delivered(VICTIM);
    }

    // Before: 36 e-mails (3 confirmations, 30 updates, 3 cancellations).
    expect(mailsTo(VICTIM), `e-mails to the victim; answers ${answers.join(' ')}`).to.equal(10);
    // 3 bookings, 4 moves and the 3 cancellations went through (each cancellation dropped an unsent reminder); the
    // other 26 moves were refused.
    expect(
      answers.filter((status) => status === 429),
      answers.join(' '),
    ).to.have.length(26);
    expect(answers.filter((status) => status !== 429).every((status) => status === 200 || status === 201)).to.equal(
      true,
    );
    const [first] = refused;
    expect(first!.body).to.deep.equal({
      error: 'Too many requests',
      details:
        "This booking's email address has had the most e-mails about demos we send to one address in 24 hours, and this change would send another. Nothing was changed. Please try again in about 24 hours, or reply to your confirmation e-mail.",
    });
    expect(Number(first!.retryAfter)).to.be.within(86_000, 86_400);
    // Each refused move left its booking as it was: every booking ended cancelled by its own request, at the slot
    // its last allowed move gave it.
    const rows = await stack.db('bookings').where({ email: VICTIM }).orderBy('created_at').select('status', 'sequence');
    expect(rows.map((row) => `${row.status} ${row.sequence}`)).to.deep.equal([
      'cancelled 5',
      'cancelled 1',
      'cancelled 1',
    ]);
    // The sales desk still heard of every change that happened (3 bookings, 4 moves, 3 cancellations).
    expect(mailsTo(SALES)).to.equal(10);
  });

  it('never refuses an ordinary prospect: book, move twice, cancel', async () => {
    const prospect = 'grace@hopper-systems.com';
    const booked = await post('/api/demo-request', {
      name: 'Grace Hopper',
      email: prospect,
      company: 'Hopper Systems',
      timeSlot: iso(6),
    });
    expect(booked.status).to.equal(201);
    const token = bookingToken(String(booked.body.id), TEST_LINK_SECRET);
    // Each step after the e-mail of the one before has arrived, as a prospect clicks the link in it.
    await delivered(prospect);
    expect((await post(`/api/bookings/${token}/reschedule`, { timeSlot: iso(7) })).status).to.equal(200);
    await delivered(prospect);
    expect((await post(`/api/bookings/${token}/reschedule`, { timeSlot: iso(6) })).status).to.equal(200);
    await delivered(prospect);
    expect((await post(`/api/bookings/${token}/cancel`, {})).status).to.equal(200);
    await delivered(prospect);
    expect(mailsTo(prospect)).to.equal(4);
  });
});
