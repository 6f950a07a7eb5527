/**
 * Issue 39's acceptance check, run as an operator runs the product: the API and worker programs (api/main.ts,
 * worker/main.ts) as child processes with a team of two hosts whose calendars are in xandikos, a reply mailbox on
 * dovecot, the e-mails in an SMTP sink and a webhook receiver. It books two demos over HTTP, then deletes the first
 * one's event from its host's calendar and drops a Decline of the second into the mailbox, and watches the bookings,
 * the calendars, the e-mails and the webhooks.
 *
 * The worker program's resolver asks a DNS server of the test's own (test/no-such-domain-dns.ts, preloaded with
 * test/use-test-dns.ts), never the machine's: it answers "no such domain" for the prospect's domain, which so publishes
 * neither DKIM nor SPF, and the Decline is known to be the prospect's by the tag its ORGANIZER echoes.
 */
import { expect } from 'chai';
import { slotEnd } from '../domain/booking.js';
import { bookableSlots, icsProperties } from '../test/booking.js';
import { eventIcs, storedDemoEvent, type CalDavServer } from '../test/caldav-server.js';
import { hostEmail, startTeamCalendars, type TeamCalendars } from '../test/team-calendars.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { startImapServer, type ImapServer } from '../test/imap-server.js';
import { startNoSuchDomainDns, type NoSuchDomainDns } from '../test/no-such-domain-dns.js';
import { testDns } from '../test/itip-replies.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../test/smtp-sink.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, clearQueuePrefix, testQueuePrefix } from '../test/stack.js';
import { until } from '../test/until.js';
import { startReceiver, type Receiver } from '../test/webhook-receiver.js';
import { newWebhookSecret, type WebhookEventType } from '../server-shared/webhooks.js';
import { freePort } from './dev-services/ports.js';
import { spawnProgram, type Spawned } from './dev-services/testing/spawned.js';

const ADMIN_TOKEN = 'calendar-answers-acceptance-token-0123456789';
const REPLY_ADDRESS = 'demo-replies@converge.localhost';
const HOSTS = ['Ana', 'Ben'];
/** An instant as iCalendar's UTC form. */
const compact = (iso: string) => iso.replace(/[-:]/g, '').replace('.000Z', 'Z');
const uidOf = (id: string) => `demo-${id}@converge.localhost`;

interface AdminBooking {
  status: string;
  host: { name: string; email: string } | null;
}

describe("the hosts' and the prospect's calendar answers as an operator runs them (issue 39 acceptance)", function () {
  this.timeout(60_000);
  const [firstSlot, secondSlot] = bookableSlots(2).map((slot) => slot.iso) as [string, string];
  let caldav: CalDavServer;
  let team: TeamCalendars;
  let imap: ImapServer;
  let smtp: SmtpSink;
  let receiver: Receiver;
  let database: TestDatabase;
  let dns: NoSuchDomainDns;
  let queuePrefix: string;
  let api: Spawned | undefined;
  let worker: Spawned | undefined;
  let url: string;
  const calendars = new Map<string, string>();

  before(async function () {
    this.timeout(50_000);
    [team, imap, smtp, receiver, database, dns] = await Promise.all([
      // No routes: every host of the team may take any demo, so the other host is there to hand one to.
      startTeamCalendars({ hosts: HOSTS }),
      startImapServer(),
      startSmtpSink(),
      startReceiver(newWebhookSecret()),
      createTestDatabase(),
      startNoSuchDomainDns(),
    ]);
    queuePrefix = testQueuePrefix();
    caldav = team.caldav;
    for (const name of HOSTS) calendars.set(hostEmail(name), team.calendars[name.toLowerCase()]!);
    // Ben is busy at the second slot, so once its demo is booked (with Ana) nobody is left to offer it: its coming back
    // to the slot list is the Decline's doing.
    await caldav.putEvent(
      calendars.get(hostEmail('Ben'))!,
      'busy',
      eventIcs(
        'busy-ben@test',
        `DTSTART:${compact(secondSlot)}`,
        `DTEND:${compact(slotEnd(new Date(secondSlot)).toISOString())}`,
      ),
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      SMTP_URL: smtp.url,
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      PUBLIC_URL: url,
      TEAM_FILE: team.teamFile,
      ADMIN_TOKEN,
      // The smallest poll the settings take, so the check waits seconds for what takes up to 30 s by default.
      HOST_CALENDAR_POLL_SECONDS: '1',
      REPLY_MAILBOX_URL: imap.url,
      REPLY_MAILBOX_ADDRESS: REPLY_ADDRESS,
      REPLY_MAILBOX_POLL_SECONDS: '0.5',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: receiver.secret,
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    api = spawnProgram('api/main.ts', { ...env, PORT: String(port), WEB_ROOT: '/nonexistent' });
    worker = spawnProgram('worker/main.ts', { ...env, TEST_DNS_SERVER: dns.server }, [], {
      command: process.execPath,
      args: ['--import', 'tsx', '--import', './test/use-test-dns.ts'],
    });
    await Promise.all([
      api.waitForLog((line) => line.msg === 'api listening', 40_000),
      worker.waitForLog((line) => line.msg === 'worker ready', 40_000),
    ]);
  });
  after(async () => {
    for (const program of [api, worker]) if (program?.isRunning()) program.child.kill('SIGTERM');
    await Promise.all([api?.exited, worker?.exited]);
    await Promise.all([
      imap?.stop(),
      smtp?.close(),
      receiver?.close(),
      team?.stop(),
      database?.drop(),
      dns?.close(),
      clearQueuePrefix(queuePrefix),
    ]);
  });

  async function requestDemo(name: string, email: string, timeSlot: string): Promise<string> {
    const response = await fetch(`${url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, email, company: `${name} Ltd`, timeSlot }),
    });
    expect(response.status, await response.clone().text()).to.equal(201);
    return String(((await response.json()) as { id: string }).id);
  }
  async function adminBooking(id: string): Promise<AdminBooking> {
    const response = await fetch(`${url}/api/admin/bookings/${id}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).to.equal(200);
    return (await response.json()) as AdminBooking;
  }
  const mailTo = (address: string, subject: RegExp, what: string) =>
    until(
      async () =>
        smtp.messages.find((mail) => mail.envelopeTo.includes(address) && subject.test(mail.parsed.subject ?? '')),
      what,
    );
  const calendarPart = (mail: ReceivedMail) => {
    const part = mail.parsed.attachments.find((attachment) => attachment.mimeType === 'text/calendar');
    if (!part) throw new Error('no calendar part');
    return typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
  };
  const inCalendar = (host: string, id: string) =>
    until(() => storedDemoEvent(calendars.get(host)!, id), `the event in ${host}'s calendar`);
  const outOf = (host: string, id: string) =>
    until(
      async () => ((await storedDemoEvent(calendars.get(host)!, id)) === undefined ? true : undefined),
      `the event out of ${host}'s calendar`,
    );
  const webhook = (id: string, type: WebhookEventType) =>
    until(async () => receiver.taken().find((event) => event.type === type && event.data.booking.id === id), type);
  const slotOffered = async (iso: string) => {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(iso));
    const day = (await (await fetch(`${url}/api/slots?date=${date}`)).json()) as {
      slots: { start: string; available: boolean }[];
    };
    return day.slots.find((slot) => slot.start === iso)?.available;
  };

  const first = { id: '', host: '', prospect: 'grace@hopper-systems.invalid' };
  const second = { id: '', host: '', prospect: 'ada@lovelace-engines.invalid', sequence: '0', confirmation: '' };

  it("books two demos and writes each one's event into its host's calendar", async () => {
    first.id = await requestDemo('Grace Hopper', first.prospect, firstSlot);
    second.id = await requestDemo('Ada Lovelace', second.prospect, secondSlot);
    for (const demo of [first, second]) {
      const booking = await adminBooking(demo.id);
      expect(booking.status).to.equal('booked');
      expect(HOSTS.map(hostEmail)).to.include(booking.host?.email);
      if (demo === second) expect(booking.host?.email).to.equal(hostEmail('Ana'));
      demo.host = booking.host!.email;
      expect(icsProperties(await inCalendar(demo.host, demo.id))).to.include({ UID: uidOf(demo.id) });
    }
    const confirmation = await mailTo(second.prospect, /is booked/i, "the second prospect's confirmation");
    second.confirmation = calendarPart(confirmation);
    second.sequence = icsProperties(second.confirmation).SEQUENCE ?? '0';
  });

  it('hands the first demo to the other host when its host deletes the event, and tells the prospect and the CRM', async () => {
    const confirmation = await mailTo(first.prospect, /is booked/i, "the first prospect's confirmation");
    const before = icsProperties(calendarPart(confirmation));
    const other = HOSTS.map(hostEmail).find((email) => email !== first.host)!;
    const otherName = HOSTS.find((name) => hostEmail(name) === other)!;

    await caldav.deleteEvent(calendars.get(first.host)!, encodeURIComponent(uidOf(first.id)));

    await until(
      async () => ((await adminBooking(first.id)).host?.email === other ? true : undefined),
      'the booking handed to the other host',
    );
    expect((await adminBooking(first.id)).status).to.equal('booked');
    expect(icsProperties(await inCalendar(other, first.id))).to.include({ UID: uidOf(first.id) });
    await outOf(first.host, first.id);
    const update = await mailTo(first.prospect, new RegExp(`is now with ${otherName}`), "the prospect's update");
    const updated = icsProperties(calendarPart(update));
    expect(updated).to.include({ METHOD: 'REQUEST', UID: before.UID });
    expect(Number(updated.SEQUENCE)).to.be.above(Number(before.SEQUENCE ?? '0'));
    expect(update.parsed.text).to.contain(otherName);
    const event = await webhook(first.id, 'booking.reassigned');
    expect(event.data.reason).to.equal('host-deleted');
    expect(event.data.host).to.deep.include({ email: other });
    expect(event.data.previousHost).to.deep.include({ email: first.host });
  });

  it("cancels the second demo on its prospect's Decline in the reply mailbox and offers the slot again", async () => {
    expect(await slotOffered(secondSlot)).to.equal(false);
    const organizer = /^ORGANIZER[^:]*:mailto:(.*)$/m.exec(second.confirmation.replace(/\r?\n[ \t]/g, ''))![1]!.trim();
    const decline = await testDns().reply({
      shape: 'google',
      uid: uidOf(second.id),
      organizer,
      attendee: { name: 'Ada Lovelace', email: second.prospect },
      partstat: 'DECLINED',
      sequence: Number(second.sequence),
      clientIp: '203.0.113.66',
    });
    await imap.append([decline]);

    await until(
      async () => ((await adminBooking(second.id)).status === 'cancelled' ? true : undefined),
      'the booking cancelled',
    );
    await outOf(second.host, second.id);
    const cancellation = await mailTo(second.prospect, /cancelled/i, "the prospect's cancellation");
    expect(cancellation.parsed.text).to.include('Book a new demo').and.include(`${url}/`);
    expect(icsProperties(calendarPart(cancellation))).to.include({ METHOD: 'CANCEL', UID: uidOf(second.id) });
    const event = await webhook(second.id, 'booking.cancelled');
    expect(event.data.reason).to.equal('declined');
    // The worker asked the test's DNS server about the prospect's domain, not the machine's resolver.
    expect(dns.asked).to.include(second.prospect.split('@')[1]);
    await until(async () => ((await slotOffered(secondSlot)) ? true : undefined), 'the slot offered again');
  });
});
