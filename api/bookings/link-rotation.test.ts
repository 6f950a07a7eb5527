import { expect } from 'chai';
import { bookingToken } from '../../server-shared/booking-link.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { nextBookableSlot } from '../../test/booking.js';

const BEFORE_ROTATION = 'the-secret-of-the-links-sent-before-0123456789';
const AFTER_ROTATION = 'the-secret-of-the-links-sent-since-0123456789a';
const RETIRED = 'a-secret-whose-grace-period-is-over-0123456789';

describe('booking links across a rotation of BOOKING_LINK_SECRET', () => {
  let app: AppUnderTest;
  let id: string;
  let invitePath: string;
  before(async () => {
    app = await startAppUnderTest({ linkSecret: AFTER_ROTATION, previousLinkSecrets: [BEFORE_ROTATION] });
    const created = await app.post('/api/demo-request', {
      name: 'Ada Lovelace',
      email: 'ada@analytical-engines.com',
      company: 'Analytical Engines',
      timeSlot: nextBookableSlot().iso,
    });
    expect(created.status).to.equal(201);
    id = String(created.body.id);
    invitePath = String(created.body.invitePath);
  });
  after(async () => {
    await app.close();
  });

  const status = async (token: string) => (await fetch(`${app.url}/api/bookings/${token}`)).status;

  it('signs new links with the new secret', () => {
    expect(invitePath).to.equal(`/api/bookings/${bookingToken(id, AFTER_ROTATION)}/invite.ics`);
  });

  it('still opens a link from an e-mail sent before the rotation, page and calendar file alike', async () => {
    const token = bookingToken(id, BEFORE_ROTATION);
    expect(await status(token)).to.equal(200);
    expect((await fetch(`${app.url}/api/bookings/${token}/invite.ics`)).status).to.equal(200);
    expect(await status(bookingToken(id, AFTER_ROTATION))).to.equal(200);
  });

  it('opens nothing with a secret no longer listed', async () => {
    expect(await status(bookingToken(id, RETIRED))).to.equal(404);
  });
});
