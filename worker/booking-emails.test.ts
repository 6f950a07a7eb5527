import { expect } from 'chai';
import { bookableSlots } from '../test/booking.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { TEST_LINK_SECRET, silentLogger } from '../test/stack.js';
import type { DeliveryDeps } from './job.js';
import { deliverRow } from '../test/outbox.js';
import type { OutgoingMail } from './send-mail.js';

const prospect = { name: 'Grace Hopper', email: 'grace@hopper-systems.com', company: 'Hopper Systems' };

describe('a booking e-mail that no longer tells the truth', () => {
  let database: TestDatabase;
  let sent: OutgoingMail[];
  let deps: DeliveryDeps;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });
  beforeEach(() => {
    sent = [];
    deps = {
      db: database.db,
      sendMail: async (mail) => (sent.push(mail), {}),
      mailFrom: 'demos@converge.test',
      replyTo: 'demos@converge.test',
      timeZone: 'Europe/Berlin',
      publicUrl: 'http://127.0.0.1',
      linkSecret: TEST_LINK_SECRET,
      logger: silentLogger,
    };
  });

  async function bookingWithEmail(
    kind: string,
    options: { status?: string; sequence?: number; emailSlot?: string } = {},
  ) {
    const [slot, other] = bookableSlots(2);
    const [booking] = await database
      .db('bookings')
      .insert({
        ...prospect,
        time_slot: new Date(slot!.iso),
        status: options.status ?? 'booked',
        sequence: options.sequence ?? 0,
      })
      .returning('id');
    const [email] = await database
      .db('deliveries')
      .insert({
        channel: 'email',
        booking_id: booking.id,
        kind,
        time_slot: new Date(options.emailSlot === 'other' ? other!.iso : slot!.iso),
        sequence: 0,
      })
      .returning('id');
    return String(email.id);
  }
  const droppedAt = async (id: string) => (await database.db('deliveries').where({ id }).first()).dropped_at;

  it('drops a reminder for a slot the booking no longer holds, or for a cancelled booking, and sends nothing', async () => {
    const moved = await bookingWithEmail('reminder', { emailSlot: 'other' });
    const cancelled = await bookingWithEmail('reminder', { status: 'cancelled' });
    expect(await deliverRow(deps, moved)).to.equal('dropped');
    expect(await deliverRow(deps, cancelled)).to.equal('dropped');
    expect(sent).to.deep.equal([]);
    expect(await droppedAt(moved)).to.be.instanceOf(Date);
    // Dropped for good: a second job for the row does nothing.
    expect(await deliverRow(deps, moved)).to.equal('dropped');
  });

  it('drops an update overtaken by a later change, and sends the current one', async () => {
    const overtaken = await bookingWithEmail('update', { sequence: 2 });
    expect(await deliverRow(deps, overtaken)).to.equal('dropped');
    const current = await bookingWithEmail('update');
    expect(await deliverRow(deps, current)).to.equal('sent');
    expect(sent.map((mail) => mail.subject)).to.have.length(1);
    expect(sent[0]!.icalEvent?.method).to.equal('REQUEST');
  });

  it('refuses for good a row of a kind the registry does not know, and keeps it for operations to see', async () => {
    const unknown = await bookingWithEmail('fax');
    const failure = await deliverRow(deps, unknown).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(Error).with.property('message').that.contains('no kind "fax"');
    expect(sent).to.deep.equal([]);
    const row = await database.db('deliveries').where({ id: unknown }).first();
    expect(row.failed_at).to.be.instanceOf(Date);
    expect(row.last_error).to.contain('no kind "fax"');
    expect(row.claimed_until).to.equal(null);
  });
});
