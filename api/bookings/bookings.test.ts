import { expect } from 'chai';
import pino from 'pino';
import { bookingToken } from '../../server-shared/booking-link.js';
import { startAppUnderTest, type AppUnderTest } from '../../test/app-under-test.js';
import { nextBookableSlot } from '../../test/booking.js';
import { TEST_LINK_SECRET } from '../../test/stack.js';

const prospect = { name: 'Ada Lovelace', email: 'ada@analytical-engines.com', company: 'Analytical Engines' };
const NOT_FOUND = { error: 'Not found', details: 'There is no booking at this link.' };

describe('a booking through its link', () => {
  let app: AppUnderTest;
  let id: string;
  let meetingUrl: string;
  let slot: string;
  before(async () => {
    app = await startAppUnderTest();
    slot = nextBookableSlot().iso;
    const created = await app.post('/api/demo-request', { ...prospect, timeSlot: slot });
    expect(created.status).to.equal(201);
    id = String(created.body.id);
    meetingUrl = String(created.body.meetingUrl);
  });
  after(async () => {
    await app.close();
  });

  const get = (path: string) => fetch(`${app.url}${path}`);

  it('shows the booking: its slot, status, name, company and video room, never cached', async () => {
    const response = await get(`/api/bookings/${bookingToken(id, TEST_LINK_SECRET)}`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('cache-control')).to.equal('no-store');
    expect(await response.json()).to.deep.equal({
      timeSlot: slot,
      status: 'booked',
      name: prospect.name,
      company: prospect.company,
      meetingUrl,
    });
  });

  it("hands out the booking's calendar event: the e-mail's UID, its slot, as a download", async () => {
    const response = await get(`/api/bookings/${bookingToken(id, TEST_LINK_SECRET)}/invite.ics`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/calendar; charset=utf-8; method=PUBLISH');
    expect(response.headers.get('content-disposition')).to.equal('attachment; filename="invite.ics"');
    expect(response.headers.get('cache-control')).to.equal('no-store');
    const ics = await response.text();
    const start = slot.replace(/[-:]/g, '').replace('.000Z', 'Z');
    expect(ics)
      .to.match(/^BEGIN:VCALENDAR\r\n/)
      .and.match(/END:VCALENDAR\r\n$/);
    // A file to import: PUBLISH, no attendee asked to reply; the event is the e-mail's (its UID).
    expect(ics).to.contain('\r\nMETHOD:PUBLISH\r\n').and.contain(`\r\nUID:demo-${id}@converge.test\r\n`);
    expect(ics).to.contain(`\r\nDTSTART:${start}\r\n`).and.not.contain('ATTENDEE');
  });

  it('keeps the token out of the logs: the path is logged with :token in its place', async () => {
    const lines: string[] = [];
    const logged = await startAppUnderTest({
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    });
    try {
      const token = bookingToken(id, TEST_LINK_SECRET);
      expect((await fetch(`${logged.url}/api/bookings/${token}/invite.ics`)).status).to.equal(404);
      expect((await fetch(`${logged.url}/api/bookings/${token}`)).status).to.equal(404);
      const requests = lines
        .map((line) => JSON.parse(line) as { msg: string; path?: string })
        .filter((line) => line.msg === 'request');
      expect(requests.map((line) => line.path)).to.deep.equal([
        '/api/bookings/:token/invite.ics',
        '/api/bookings/:token',
      ]);
      expect(lines.join('\n')).to.not.contain(token);
    } finally {
      await logged.close();
    }
  });

  it('answers an altered token, another secret’s token, an unknown booking and junk with the same 404', async () => {
    const token = bookingToken(id, TEST_LINK_SECRET);
    const altered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    const others = [
      altered,
      bookingToken(id, 'another-secret-that-is-32-characters-long'),
      bookingToken('00000000-0000-4000-8000-000000000000', TEST_LINK_SECRET),
      'not-a-token',
      id,
    ];
    for (const other of others) {
      for (const path of [`/api/bookings/${other}`, `/api/bookings/${other}/invite.ics`]) {
        const response = await get(path);
        expect(response.status, path).to.equal(404);
        expect(await response.json(), path).to.deep.equal(NOT_FOUND);
      }
    }
  });
});
