/**
 * When a host's calendar read is compared with the database (api/hosts/host-answers.ts), on PostgreSQL and xandikos
 * with the bookings stored in the database directly: an untouched calendar (sync-collection reports nothing) leaves
 * the database alone unless the database may have moved: a write on its way at the last comparison, a change this
 * process stored, COMPARE_EVERY_MS gone by. The prospects' answers kept from asking again are only those of bookings
 * the calendar holds.
 */
import { expect } from 'chai';
import {
  eventIcs,
  startCalDavServer,
  CALDAV_PASSWORD,
  CALDAV_USER,
  type CalDavServer,
} from '../../test/caldav-server.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { bookableSlots } from '../../test/booking.js';
import { silentLogger } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { parseTeam } from '../../server-shared/hosts/team.js';
import { DEFAULT_FOLLOW_UPS } from '../bookings/emails.js';
import { HostCalendars } from './calendars.js';
import { COMPARE_EVERY_MS, watchHostAnswers, type HostAnswersWatch } from './host-answers.js';

const HOST = 'ana@converge.test';
const PROSPECT = 'grace@hopper-systems.com';
const compact = (iso: string) => iso.replace(/[-:]/g, '').replace('.000Z', 'Z');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a host's calendar compared with the database only when either may have changed", function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let caldav: CalDavServer;
  let url: string;
  let calendars: HostCalendars;
  let watch: HostAnswersWatch;
  /** How far the watcher's clock is ahead of the real one. */
  let ahead = 0;
  /** The comparisons made: each asks the database for the calendar's bookings once. */
  let compared = 0;
  const answered: { id: string; reason: string; outcome: string }[] = [];
  const slots = bookableSlots(6);

  before(async () => {
    database = await createTestDatabase();
    caldav = await startCalDavServer();
    url = await caldav.makeCalendar('ana');
    const team = parseTeam(
      JSON.stringify({
        hosts: [
          {
            name: 'Ana',
            title: 'Solutions Engineer',
            email: HOST,
            calendarUrl: url,
            calendarUsername: CALDAV_USER,
            calendarPassword: CALDAV_PASSWORD,
          },
        ],
      }),
      {},
    ).hosts;
    const now = () => new Date(Date.now() + ahead);
    calendars = new HostCalendars(team, { logger: silentLogger, now, bookingTimeZone: 'Europe/Berlin' });
    database.db.on('query', (query: { sql: string }) => {
      if (query.sql.includes("d.kind = 'host-calendar'")) compared += 1;
    });
    watch = watchHostAnswers(
      {
        db: database.db,
        queue: {
          enqueue: () => Promise.resolve(),
          isReachable: () => Promise.resolve(true),
          close: () => Promise.resolve(),
        },
        logger: silentLogger,
        now,
        timeZone: 'Europe/Berlin',
        mailFrom: 'Converge <demo@converge.localhost>',
        followUps: DEFAULT_FOLLOW_UPS,
        calendars,
      },
      (id, reason, outcome) => answered.push({ id, reason, outcome }),
    );
  });
  after(async () => {
    await caldav?.stop();
    await database?.drop();
  });

  /** A booking with Ana at `slot`, stored as another API process would (nobody here is told), its write's row. */
  const store = async (slot: number, write: { sent: boolean; sequence?: number }) => {
    const sequence = write.sequence ?? 0;
    const [booking] = (await database
      .db('bookings')
      .insert({
        name: 'Grace Hopper',
        email: PROSPECT,
        recipient: PROSPECT,
        company: 'Hopper Systems',
        time_slot: new Date(slots[slot]!.iso),
        host_email: HOST,
        host_name: 'Ana',
        host_title: 'Solutions Engineer',
        sequence,
      })
      .returning('id')) as { id: string }[];
    const [row] = (await database
      .db('deliveries')
      .insert({
        channel: 'calendar',
        kind: 'host-calendar',
        booking_id: booking!.id,
        recipient: HOST,
        time_slot: new Date(slots[slot]!.iso),
        sequence,
        ...(write.sent ? { sent_at: database.db.raw("now() - interval '1 minute'") } : {}),
      })
      .returning('id')) as { id: string }[];
    return { id: booking!.id, writeId: row!.id };
  };
  /** The booking's event as the product writes it into Ana's calendar; `prospect` adds their answer to the copy. */
  const writeEvent = (id: string, slot: number, lines: string[] = []) => {
    const start = slots[slot]!.iso;
    const end = new Date(new Date(start).getTime() + 3_600_000).toISOString();
    return caldav.putEvent(
      url,
      `demo-${id}`,
      eventIcs(`demo-${id}@converge.localhost`, `DTSTART:${compact(start)}`, `DTEND:${compact(end)}`, [
        `ORGANIZER:mailto:${HOST}`,
        `ATTENDEE;PARTSTAT=ACCEPTED:mailto:${HOST}`,
        ...lines,
      ]),
    );
  };
  /** Reads Ana's calendar and says whether its comparison asked the database. */
  const read = async () => {
    const before = compared;
    await calendars.freshBusyTimes(0);
    // A comparison runs after the read, in the background: its query is sent at once when there is one.
    await sleep(300);
    return compared > before;
  };

  it('asks the database after a read that found changes, not after one that found none, unless told of a change', async () => {
    const { id } = await store(0, { sent: true });
    await writeEvent(id, 0);
    expect(await read(), 'the first read').to.equal(true);
    expect(await read(), 'a read with nothing changed').to.equal(false);
    expect(await read(), 'again').to.equal(false);
    await caldav.putEvent(url, 'lunch', eventIcs('lunch@test', `DTSTART:${compact(slots[5]!.iso)}`, 'DURATION:PT1H'));
    expect(await read(), 'a read with an event added').to.equal(true);
    expect(await read()).to.equal(false);
    // This process stored a booking's change: the next read compares, however quiet.
    watch.bookingsChanged();
    expect(await read(), 'after a change stored here').to.equal(true);
    expect(await read()).to.equal(false);
    // Another process's change is compared COMPARE_EVERY_MS later at the latest.
    ahead += COMPARE_EVERY_MS;
    expect(await read(), 'once the comparison is old').to.equal(true);
    expect(await read()).to.equal(false);
    expect(answered).to.deep.equal([]);
  });

  it("compares a booking whose write was on its way at the last comparison, though the calendar has not changed since, and acts on its host's deletion", async () => {
    // Stored elsewhere; the worker writes its event, and a read sees it before the worker records the write.
    const { id, writeId } = await store(1, { sent: false });
    await writeEvent(id, 1);
    expect(await read()).to.equal(true);
    // The host deletes it at once: read, and compared, before the write is recorded.
    await caldav.deleteEvent(url, `demo-${id}`);
    expect(await read()).to.equal(true);
    expect(answered).to.deep.equal([]);
    // The write recorded; the calendar untouched since. The booking is compared now, its event missing.
    await database.db('deliveries').where({ id: writeId }).update({ sent_at: database.db.fn.now() });
    expect(await read(), 'the read after the write was recorded').to.equal(true);
    await until(async () => answered.find((one) => one.id === id), 'the deletion acted on');
    expect(answered.find((one) => one.id === id)).to.deep.include({
      reason: 'host-deleted',
      outcome: 'needs-new-time',
    });
  });

  it("keeps the prospect's answers that changed nothing for the bookings the calendar holds alone", async () => {
    // The host's copy shows the prospect accepting the invitation a later change replaced: stale, kept from asking again.
    const { id } = await store(2, { sent: true, sequence: 1 });
    await writeEvent(id, 2, ['SEQUENCE:0', `ATTENDEE;PARTSTAT=ACCEPTED:mailto:${PROSPECT}`]);
    const before = watch.remembered();
    expect(await read()).to.equal(true);
    await until(async () => (watch.remembered() === before + 1 ? true : undefined), 'the stale answer kept');
    // The booking cancelled here (its event still in the copy): the next comparison forgets its answer.
    await database.db('bookings').where({ id }).update({ status: 'cancelled' });
    watch.bookingsChanged();
    expect(await read()).to.equal(true);
    await until(async () => (watch.remembered() === before ? true : undefined), 'the answer forgotten');
  });
});
