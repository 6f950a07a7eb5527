/**
 * The routing record as `book` completes it (db/functions/booking-rules.sql: booking_choose_host, booking_routing_record):
 * the API's draft names each candidate, with the outcome its calendars' reading found; the database gives each host
 * it chose among theirs (chosen, busy, over-daily-limit, owner-first, fewer-demos-elsewhere) and prefers the account's owner.
 */
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { canonicalRecipient } from '../email-rules.js';
import { DEFAULT_FOLLOW_UPS, emailRows } from './emails.js';
import type { HostCandidate } from './hosts.js';
import { book } from './repository.js';
import { newBookingId } from './booking-id.js';
import type { RoutingDraft } from './routed-hosts.js';
import type { RoutingRecord } from '../../domain/routing.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const slotIn = (days: number, hours = 0) => new Date(Math.ceil(Date.now() / HOUR) * HOUR + days * DAY + hours * HOUR);
const NO_CEILINGS = { perEmailPerDay: 0, perDomainPerDay: 0, emailsPerRecipientPerDay: 0, slotCapacity: 1 };

const host = (name: string, dailyLimit?: number): HostCandidate => ({
  email: `${name}@converge.test`,
  name,
  title: 'Solutions engineer',
  weight: 1,
  dailyLimit,
  dayStart: new Date('2000-01-01T00:00:00Z'),
  dayEnd: new Date('2100-01-01T00:00:00Z'),
});
const draft = (names: string[], calendar: Record<string, 'outside-hours' | 'calendar-unreadable' | 'busy'> = {}) =>
  ({
    rule: 1,
    label: 'Enterprise',
    owner: null,
    ownerLookupFailed: false,
    candidates: names.map((name) => ({ email: `${name}@converge.test`, name, outcome: calendar[name] ?? null })),
  }) satisfies RoutingDraft;

describe("a booking's routing record, completed by the database", function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let people = 0;

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });

  async function bookAt(timeSlot: Date, hosts: HostCandidate[], routing: RoutingDraft, owner?: string) {
    const id = newBookingId();
    people += 1;
    const email = `person${people}@record-${people}.test`;
    const result = await book(database.db, {
      id,
      input: { name: 'Ada Lovelace', email, company: 'Analytical', timeSlot: timeSlot.toISOString() },
      recipient: canonicalRecipient(email),
      limits: NO_CEILINGS,
      emails: emailRows('booked', DEFAULT_FOLLOW_UPS, new Date(), timeSlot),
      invitePath: `/api/bookings/${id}/invite.ics`,
      meetingUrl: `https://meet.example/${id}`,
      hosts,
      answers: { companySize: '5000+' },
      routing,
      ...(owner ? { owner } : {}),
    });
    expect(result.outcome).to.equal('stored');
    return (await database.db('bookings').where({ id }).first('host_email', 'host_choice', 'routing', 'answers')) as {
      host_email: string;
      host_choice: { rule: string };
      routing: RoutingRecord;
      answers: object;
    };
  }

  it("gives each host the database chose among its outcome, beside the calendars' outcomes, in the draft's order", async () => {
    // Ana may give one demo in all; Ben one at the first slot.
    const ana = host('ana', 1);
    const [ben, cy] = [host('ben'), host('cy')];
    const first = await bookAt(slotIn(3), [ana, ben, cy], draft(['ana', 'ben', 'cy']));
    expect(first.host_email).to.equal('ana@converge.test');
    expect(first.answers).to.deep.equal({ companySize: '5000+' });
    const second = await bookAt(slotIn(3), [ben, cy], draft(['dee', 'ben', 'cy'], { dee: 'calendar-unreadable' }));
    expect(second.routing.candidates).to.deep.equal([
      { email: 'dee@converge.test', name: 'dee', outcome: 'calendar-unreadable' },
      { email: 'ben@converge.test', name: 'ben', outcome: 'chosen' },
      { email: 'cy@converge.test', name: 'cy', outcome: 'fewer-demos-elsewhere' },
    ]);
    // A day later: Ana is over her limit, Ben free, Cy has had fewer demos; at the first slot, Ben was busy.
    const third = await bookAt(slotIn(4), [ana, ben, cy], draft(['ana', 'ben', 'cy']));
    expect(third.routing).to.deep.equal({
      ...draft([]),
      candidates: [
        { email: 'ana@converge.test', name: 'ana', outcome: 'over-daily-limit' },
        { email: 'ben@converge.test', name: 'ben', outcome: 'fewer-demos-elsewhere' },
        { email: 'cy@converge.test', name: 'cy', outcome: 'chosen' },
      ],
    });
    const fourth = await bookAt(slotIn(3), [ana, cy, host('eve')], draft(['ana', 'cy', 'eve']));
    expect(fourth.routing.candidates.map((candidate) => candidate.outcome)).to.deep.equal([
      'busy',
      'fewer-demos-elsewhere',
      'chosen',
    ]);
  });

  it("prefers the account's owner when free, whatever the fairness, and says so", async () => {
    const [fay, gus] = [host('fay'), host('gus')];
    await bookAt(slotIn(6), [fay], draft(['fay']));
    const owned = await bookAt(slotIn(6, 1), [fay, gus], { ...draft(['fay', 'gus']) }, 'fay@converge.test');
    expect(owned.host_email).to.equal('fay@converge.test');
    expect(owned.host_choice.rule).to.equal("the account's owner, free at the slot");
    expect(owned.routing.candidates.map((candidate) => candidate.outcome)).to.deep.equal(['chosen', 'owner-first']);
  });
});
