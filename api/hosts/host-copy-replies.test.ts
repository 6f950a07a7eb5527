/**
 * The prospect's answer written into the host's own calendar (issue 39 point 2): a server that processes iMIP
 * updates the prospect's PARTSTAT in the host's copy, and the API's read of that calendar acts on it as on a reply
 * read from the reply mailbox (api/hosts/host-answers.ts, booking_reply).
 */
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { bookableSlots } from '../../test/booking.js';
import { storedDemoEvent, type CalDavServer } from '../../test/caldav-server.js';
import { startTeamCalendars, type TeamCalendars } from '../../test/team-calendars.js';
import { startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { newWebhookSecret, webhookEventSchema, type WebhookEventType } from '../../server-shared/webhooks.js';

const SALES = 'sales@converge.test';
const uidOf = (id: string) => `demo-${id}@converge.localhost`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stampOf = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** The stored event with the prospect's attendee line answered, and DTSTAMP moved on, as the host's server writes it. */
function answered(stored: string, prospect: string, partstat: string, at: Date): string {
  return stored
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .map((line) => {
      if (line.startsWith('ATTENDEE') && line.toLowerCase().includes(`mailto:${prospect}`))
        return line.replace(/PARTSTAT=[A-Z-]+/, `PARTSTAT=${partstat}`);
      if (line.startsWith('DTSTAMP:')) return `DTSTAMP:${stampOf(at)}`;
      return line;
    })
    .join('\r\n');
}

describe("the prospect's answer in the host's own calendar (issue 39 point 2)", function () {
  this.timeout(120_000);
  let caldav: CalDavServer;
  let receiver: Receiver;
  let stack: Stack;
  let team: TeamCalendars;
  let calendar: string;
  const slots = bookableSlots(2);

  before(async () => {
    // One host: her slot is taken by the booking, and offered again only when it is cancelled.
    team = await startTeamCalendars({ hosts: ['Ana'] });
    caldav = team.caldav;
    calendar = team.calendars.ana!;
    receiver = await startReceiver(newWebhookSecret());
    stack = await startStack({
      env: {
        TEAM_FILE: team.teamFile,
        SALES_NOTIFY_EMAIL: SALES,
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: receiver.secret,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        HOST_CALENDAR_POLL_SECONDS: '1',
      },
      workerOptions: { sweepEveryMs: 500, sweepGraceMs: 2000 },
    });
  });
  after(async () => {
    await stack?.close();
    await receiver?.close();
    await team?.stop();
  });

  const book = async (email: string, timeSlot: string) => {
    const answer = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Grace Hopper', email, company: 'Hopper Systems', timeSlot }),
    });
    expect(answer.status, await answer.clone().text()).to.equal(201);
    return String(((await answer.json()) as { id: string }).id);
  };
  const row = async (id: string) =>
    (await stack.db('bookings').where({ id }).first('status', 'prospect_reply', 'host_email')) as {
      status: string;
      prospect_reply: string | null;
      host_email: string | null;
    };
  const slotAvailable = async (iso: string) => {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(iso));
    const day = (await (await fetch(`${stack.url}/api/slots?date=${date}`)).json()) as {
      slots: { start: string; available: boolean }[];
    };
    return day.slots.find((slot) => slot.start === iso)?.available;
  };
  const eventsOf = (id: string, type: WebhookEventType) =>
    receiver.taken().filter((taken) => taken.data.booking.id === id && taken.type === type);
  const inCalendar = (id: string) => until(() => storedDemoEvent(calendar, id), "the event in Ana's calendar");

  it('a Decline in the host\'s copy cancels the booking as the prospect\'s own cancel does: booking.cancelled with reason "declined", the slot offered again, the cancellation e-mail', async () => {
    const slot = slots[0]!.iso;
    // Typed with a tag and capitals: the attendee line carries it so, the booking keeps the canonical address.
    const id = await book('Grace+Demo@Hopper-Systems.com', slot);
    const stored = await inCalendar(id);
    expect(await slotAvailable(slot)).to.equal(false);

    const declined = answered(stored, 'grace+demo@hopper-systems.com', 'DECLINED', new Date());
    expect(declined).to.match(/PARTSTAT=DECLINED/);
    await caldav.putEvent(calendar, uidOf(id), declined);

    await until(async () => ((await row(id)).status === 'cancelled' ? true : undefined), 'cancelled', 20_000);
    expect((await row(id)).prospect_reply).to.equal('DECLINED');
    const cancelled = await until(async () => eventsOf(id, 'booking.cancelled')[0], 'booking.cancelled');
    expect(cancelled.data.reason).to.equal('declined');
    const valid = addFormats.default(new Ajv2020({ strict: false })).compile(webhookEventSchema('booking.cancelled'));
    expect(valid(cancelled), JSON.stringify(valid.errors)).to.equal(true);
    await until(async () => ((await slotAvailable(slot)) ? true : undefined), 'the slot offered again');
    const mail = await until(
      async () =>
        stack.smtp.messages.find(
          (m) =>
            m.envelopeTo.some((to) => to.toLowerCase().includes('hopper-systems.com')) &&
            /cancelled/i.test(m.parsed.subject ?? ''),
        ),
      "the prospect's cancellation",
    );
    expect(mail.parsed.text).to.include('Book a new demo');
    // Taken back from the host's calendar, and never handed to anyone.
    await until(async () => ((await storedDemoEvent(calendar, id)) === undefined ? true : undefined), 'the removal');
    expect(eventsOf(id, 'booking.cancelled')).to.have.length(1);
    expect(eventsOf(id, 'booking.reassigned')).to.have.length(0);
  });

  it("an Accept in the host's copy is recorded and raises booking.accepted once across polls; the booking stays", async () => {
    const slot = slots[1]!.iso;
    const prospect = 'ada@lovelace-engines.com';
    const id = await book(prospect, slot);
    const stored = await inCalendar(id);
    await caldav.putEvent(calendar, uidOf(id), answered(stored, prospect, 'ACCEPTED', new Date()));

    const accepted = await until(async () => eventsOf(id, 'booking.accepted')[0], 'booking.accepted', 20_000);
    expect(accepted.data.partstat).to.equal('ACCEPTED');
    const valid = addFormats.default(new Ajv2020({ strict: false })).compile(webhookEventSchema('booking.accepted'));
    expect(valid(accepted), JSON.stringify(valid.errors)).to.equal(true);
    expect(await row(id)).to.include({ status: 'booked', prospect_reply: 'ACCEPTED', host_email: 'ana@converge.test' });
    // Several polls of one second later, the same answer in the calendar raised nothing more.
    await sleep(3500);
    expect(eventsOf(id, 'booking.accepted')).to.have.length(1);
    expect(eventsOf(id, 'booking.cancelled')).to.have.length(0);
    expect(await slotAvailable(slot)).to.equal(false);
  });
});
