import { expect } from 'chai';
import { bookingToken } from '../server-shared/booking-link.js';
import { bookableSlots, icsProperties } from '../test/booking.js';
import { eventIcs, storedDemoEvent, type CalDavServer } from '../test/caldav-server.js';
import { startTeamCalendars, type TeamCalendars } from '../test/team-calendars.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../test/stack.js';
import { until } from '../test/until.js';

const compact = (iso: string) => iso.replace(/[-:]/g, '').replace('.000Z', 'Z');

describe("the demo in its host's own calendar, over CalDAV, from the outbox", function () {
  this.timeout(90_000);
  let server: CalDavServer;
  let stack: Stack;
  let team: TeamCalendars;
  let ana: string;
  let ben: string;
  const [first, second, third] = bookableSlots(3);

  before(async () => {
    team = await startTeamCalendars({ hosts: ['Ana', 'Ben'] });
    server = team.caldav;
    ana = team.calendars.ana!;
    ben = team.calendars.ben!;
    stack = await startStack({
      env: { TEAM_FILE: team.teamFile },
      workerOptions: { sweepEveryMs: 500, sweepGraceMs: 2000 },
    });
  });
  after(async () => {
    await stack?.close();
    await team?.stop();
  });

  const post = async (url: string, body: unknown) => {
    const answer = await fetch(`${stack.url}${url}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };

  it("writes the booking into its host's calendar, moves it, hands it to another host, and takes it out on cancel", async () => {
    const booked = await post('/api/demo-request', {
      name: 'Grace Hopper',
      email: 'grace@hopper-systems.com',
      company: 'Hopper Systems',
      timeSlot: first!.iso,
    });
    expect(booked.status).to.equal(201);
    expect(booked.body.host).to.deep.equal({ name: 'Ana', title: 'Solutions Engineer' });
    const id = String(booked.body.id);
    const token = bookingToken(id, TEST_LINK_SECRET);

    const written = icsProperties(await until(() => storedDemoEvent(ana, id), "the event in Ana's calendar"));
    expect(written).to.include({
      UID: `demo-${id}@converge.localhost`,
      DTSTART: compact(first!.iso),
      SEQUENCE: '0',
      STATUS: 'CONFIRMED',
      LOCATION: String(booked.body.meetingUrl),
    });
    expect(written.METHOD, 'a stored object carries no METHOD').to.equal(undefined);

    // Ana free at the second slot: the move keeps her, and her event moves with it (SEQUENCE 1).
    expect((await post(`/api/bookings/${token}/reschedule`, { timeSlot: second!.iso })).body.host).to.deep.include({
      name: 'Ana',
    });
    await until(
      async () => ((await storedDemoEvent(ana, id))?.includes(`DTSTART:${compact(second!.iso)}`) ? true : undefined),
      "Ana's event moved",
    );
    expect(icsProperties((await storedDemoEvent(ana, id))!)).to.include({ SEQUENCE: '1' });

    // Ana busy at the third slot: Ben takes the demo, his calendar gains it and Ana's loses it.
    await server.putEvent(
      ana,
      'busy',
      eventIcs(
        'busy@test',
        `DTSTART:${compact(third!.iso)}`,
        `DTEND:${compact(new Date(new Date(third!.iso).getTime() + 3_600_000).toISOString())}`,
      ),
    );
    expect((await post(`/api/bookings/${token}/reschedule`, { timeSlot: third!.iso })).body.host).to.deep.include({
      name: 'Ben',
    });
    const handed = icsProperties(await until(() => storedDemoEvent(ben, id), "the event in Ben's calendar"));
    expect(handed).to.include({ DTSTART: compact(third!.iso), SEQUENCE: '2' });
    await until(
      async () => ((await storedDemoEvent(ana, id)) === undefined ? true : undefined),
      "the event out of Ana's calendar",
    );

    expect((await post(`/api/bookings/${token}/cancel`, {})).status).to.equal(200);
    await until(
      async () => ((await storedDemoEvent(ben, id)) === undefined ? true : undefined),
      "the event out of Ben's calendar",
    );

    // Each host heard by e-mail too: Ana invited, moved, then withdrawn; Ben invited, then withdrawn.
    const hostMails = await until(async () => {
      const mails = stack.smtp.messages.filter((mail) => mail.envelopeTo.some((to) => to.endsWith('@converge.test')));
      return mails.length >= 5 ? mails : undefined;
    }, "the hosts' e-mails");
    const seen = hostMails
      .map((mail) => `${mail.envelopeTo.join()} ${/method=(\w+)/i.exec(mail.raw)?.[1] ?? '-'}`)
      .sort();
    expect(seen).to.deep.equal([
      'ana@converge.test CANCEL',
      'ana@converge.test REQUEST',
      'ana@converge.test REQUEST',
      'ben@converge.test CANCEL',
      'ben@converge.test REQUEST',
    ]);
  });

  it('keeps a write that the calendar refuses in the outbox and makes it once the calendar answers again', async () => {
    server.setFault('error-500', ben);
    const booked = await post('/api/demo-request', {
      name: 'Ada Lovelace',
      email: 'ada@analytical-engines.com',
      company: 'Analytical Engines',
      timeSlot: third!.iso,
    });
    // Ana is busy at the third slot (the event above) and Ben's calendar cannot be read at booking time: no host, 409.
    expect(booked.status).to.equal(409);
    server.setFault('none', ben);
    const again = await post('/api/demo-request', {
      name: 'Ada Lovelace',
      email: 'ada@analytical-engines.com',
      company: 'Analytical Engines',
      timeSlot: third!.iso,
    });
    expect(again.status).to.equal(201);
    const id = String(again.body.id);
    // Writes to Ben fail now; the row keeps its error and its tries, and the write is made once he answers.
    server.setFault('error-500', `${ben}${encodeURIComponent(`demo-${id}@converge.localhost`)}.ics`);
    const failing = await until(async () => {
      const row = await stack.db('deliveries').where({ booking_id: id, kind: 'host-calendar' }).first();
      return row?.attempts >= 1 && row.sent_at === null ? row : undefined;
    }, 'a failed write on the row');
    expect(failing.last_error).to.contain('500');
    server.setFault('none', `${ben}${encodeURIComponent(`demo-${id}@converge.localhost`)}.ics`);
    await until(() => storedDemoEvent(ben, id), "the event in Ben's calendar after the retry", 60_000);
    const row = await until(async () => {
      const current = await stack.db('deliveries').where({ booking_id: id, kind: 'host-calendar' }).first();
      return current?.sent_at ? current : undefined;
    }, 'the write marked done');
    expect(row.attempts).to.be.at.least(2);
  });
});
