/**
 * The sms channel end to end (issue 40): the API and the worker programs with SMPP_URL pointing at a real SMSC in
 * this test (test/smsc.ts, npm `smpp`'s server side), PostgreSQL and Redis. A booking with consent is texted its
 * confirmation, a move its update, a cancel its note (its reminder then dropped); one without consent nothing; a
 * throttling SMSC gets the text once it takes it, a dropped bind is bound again and nothing is lost or sent twice; a
 * delivery receipt becomes the row's state and, delivered, an sms.delivered webhook; a text the SMSC refuses for good
 * an sms.failed one (both signed, to a real receiver, and shown on the booking's detail).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import smpp from 'smpp';
import type { SmsView } from '../../domain/sales.js';
import { newWebhookSecret, webhookEventSchema } from '../../server-shared/webhooks.js';
import { expectDocumented } from '../../test/documented.js';
import { bookingToken, smsLinkCode } from '../../server-shared/booking-link.js';
import { bookableSlots, bookWithTexts } from '../../test/booking.js';
import { startSmsc, type Smsc } from '../../test/smsc.js';
import { TEST_LINK_SECRET, startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { OPTED_OUT_TEXT } from '../sms/inbound.js';

const ADMIN = 'a'.repeat(40);

interface SmsRow {
  kind: string;
  recipient: string | null;
  sent_at: Date | null;
  dropped_at: Date | null;
  attempts: number;
  sms_message_id: string | null;
  sms_state: string | null;
}

describe('texts to the prospect’s phone over SMPP', function () {
  this.timeout(60_000);
  let smsc: Smsc;
  let stack: Stack;
  let receiver: Receiver;
  const slots = bookableSlots(13);

  before(async () => {
    smsc = await startSmsc();
    receiver = await startReceiver(newWebhookSecret());
    stack = await startStack({
      env: {
        SMPP_URL: smsc.url,
        SMS_FROM: 'Converge',
        ADMIN_TOKEN: ADMIN,
        WEBHOOK_URL: receiver.url,
        WEBHOOK_SECRET: receiver.secret,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      workerOptions: {
        sweepEveryMs: 500,
        sweepGraceMs: 2000,
        smpp: { enquireLinkMs: 200, rebindFirstMs: 50, rebindMaxMs: 200, submitTimeoutMs: 3000 },
      },
    });
  });
  after(async () => {
    await stack?.close();
    await smsc?.stop();
    await receiver?.close();
  });

  const post = async (url: string, body: unknown) => {
    const answer = await fetch(`${stack.url}${url}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const book = (slot: number, email: string, phone?: string) =>
    bookWithTexts(stack.url, slots[slot]!.iso, email, phone);
  const textsOf = (id: string): Promise<SmsRow[]> =>
    stack.db('deliveries').where({ booking_id: id, channel: 'sms' }).orderBy(['sequence', 'kind']);
  const smsOf = async (id: string) => {
    const detail = await fetch(`${stack.url}/api/admin/bookings/${id}`, {
      headers: { Authorization: `Bearer ${ADMIN}` },
    });
    const body = (await detail.json()) as { sms: SmsView };
    expectDocumented('/api/admin/bookings/{id}', 'get', 200, body);
    return body.sms;
  };
  const valid = addFormats.default(new Ajv2020({ strict: false }));
  // The verified events (a forged or unsigned one is not taken) of one booking and type.
  const eventsOf = (id: string, type: string) =>
    receiver.taken().filter((event) => event.data.booking.id === id && event.type === type);
  const textsTo = (number: string) => smsc.received.filter((text) => text.to === number);
  const receivedTo = (number: string, count: number) =>
    until(
      async () => (textsTo(number).length >= count ? textsTo(number) : undefined),
      `${count} texts to ${number}`,
      20_000,
    );

  it('texts a consenting prospect’s confirmation with the time and the short link, and keeps its receipt', async () => {
    const id = await book(0, 'ada@analytical-engines.com', '+33 6 12 34 56 78');
    const [text] = await receivedTo('+33612345678', 1);
    const smsLink = `${stack.url}/m/${smsLinkCode(id, TEST_LINK_SECRET)}`;
    const time = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(slots[0]!.iso));
    expect(text!.text).to.match(new RegExp(`^Converge demo booked: \\w{3} \\d{1,2} \\w{3}, ${time} \\S+\\. Manage: `));
    expect(text!.text.endsWith(smsLink)).to.equal(true);
    expect(text).to.include({ from: 'Converge', receipt: true });
    // The message id the SMSC gave is on the row, and its receipt becomes the row's state.
    const sent = await until(async () => {
      const rows = await textsOf(id);
      return rows.find((row) => row.kind === 'sms-confirmation' && row.sms_message_id) ?? undefined;
    }, 'the message id recorded');
    expect(sent).to.include({ recipient: '+33612345678', sms_message_id: text!.messageId, sms_state: null });
    expect(await smsc.sendReceipt(text!.messageId)).to.equal(0);
    const [receipted] = await stack.db('deliveries').where({ id: (sent as SmsRow & { id: string }).id });
    expect(receipted).to.include({ sms_state: 'delivered' });
    // Its sms.delivered event reaches the receiver, signed; the booking's detail counts it.
    const [delivered] = await until(async () => {
      const events = eventsOf(id, 'sms.delivered');
      return events.length > 0 ? events : undefined;
    }, 'the sms.delivered webhook');
    expect(delivered!.data.text).to.include({ kind: 'sms-confirmation', state: 'delivered' });
    const check = valid.compile(webhookEventSchema('sms.delivered'));
    expect(check(delivered), JSON.stringify(check.errors)).to.equal(true);
    expect(delivered!.data.text!.sentAt).to.be.a('string');
    const sms = await smsOf(id);
    expect(sms).to.include({ delivered: 1, failed: 0 });
    expect(sms.texts.find((one) => one.kind === 'sms-confirmation')).to.include({ state: 'delivered' });
    // The SMSC sends the receipt again: recorded, and no second event.
    expect(await smsc.sendReceipt(text!.messageId)).to.equal(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(eventsOf(id, 'sms.delivered')).to.have.length(1);
    // The reminder waits for its time, an hour before the slot.
    expect((await textsOf(id)).map((row) => row.kind)).to.include('sms-reminder');
  });

  it('texts a move’s update and a cancel’s note, last, and drops the reminder the cancel overtook', async () => {
    const id = await book(1, 'grace@analytical-engines.com', '+33 6 12 34 56 79');
    await receivedTo('+33612345679', 1);
    const token = bookingToken(id, TEST_LINK_SECRET);
    expect((await post(`/api/bookings/${token}/reschedule`, { timeSlot: slots[2]!.iso })).status).to.equal(200);
    await receivedTo('+33612345679', 2);
    expect((await post(`/api/bookings/${token}/cancel`, {})).status).to.equal(200);
    const texts = await receivedTo('+33612345679', 3);
    expect(
      texts.map((text) => /your demo (?:of .+ )?(?:is booked|is now|is cancelled)/.exec(text.text)?.[0]),
    ).to.have.length(3);
    expect(texts[0]!.text).to.contain('booked:');
    expect(texts[1]!.text).to.contain('updated:');
    expect(texts[2]!.text).to.contain('cancelled.');
    const rows = await textsOf(id);
    const reminders = rows.filter((row) => row.kind === 'sms-reminder');
    expect(reminders, 'one reminder per slot').to.have.length(2);
    for (const reminder of reminders) expect(reminder.sent_at).to.equal(null);
    for (const reminder of reminders) expect(reminder.dropped_at).to.be.instanceOf(Date);
  });

  it('texts nobody who did not consent', async () => {
    const id = await book(3, 'alan@analytical-engines.com');
    // Its e-mail has gone, so anything of its own would have been stored with it.
    await until(async () => {
      const [row] = await stack
        .db('deliveries')
        .where({ booking_id: id, kind: 'confirmation' })
        .whereNotNull('sent_at');
      return row;
    }, 'the confirmation e-mail sent');
    expect(await textsOf(id)).to.deep.equal([]);
  });

  it('sends a throttled text once the SMSC takes it, once', async () => {
    // Refused for this number alone: a text of an earlier test still on its way takes none of the refusals.
    smsc.refuseNext(2, undefined, '+33612345680');
    const id = await book(4, 'barbara@analytical-engines.com', '+33 6 12 34 56 80');
    const [text] = await receivedTo('+33612345680', 1);
    // The SMSC has it a moment before the worker records the try.
    const row = await until(async () => {
      const [sent] = (await textsOf(id)).filter((candidate) => candidate.kind === 'sms-confirmation');
      return sent?.sent_at ? sent : undefined;
    }, 'the text marked sent');
    expect(row).to.include({ attempts: 3, sms_message_id: text!.messageId });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(textsTo('+33612345680')).to.have.length(1);
  });

  it('binds again after the SMSC drops the bind, and loses nor doubles a text', async () => {
    const before = smsc.binds();
    smsc.dropBinds();
    const id = await book(5, 'margaret@analytical-engines.com', '+33 6 12 34 56 81');
    await receivedTo('+33612345681', 1);
    expect(smsc.binds()).to.be.greaterThan(before);
    await until(async () => {
      const [row] = (await textsOf(id)).filter(
        (candidate) => candidate.kind === 'sms-confirmation' && candidate.sent_at,
      );
      return row;
    }, 'the text marked sent');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(textsTo('+33612345681')).to.have.length(1);
    // The bind is kept alive meanwhile.
    expect(smsc.enquireLinks()).to.be.greaterThan(0);
  });

  it('opts a number out of every text at once on STOP, confirms it once, and shows it on the booking', async () => {
    const id = await book(6, 'katherine@analytical-engines.com', '+33 6 12 34 56 82');
    await receivedTo('+33612345682', 1);
    expect(await smsc.sendMessage('+33612345682', 'Stop')).to.equal(0);
    const [confirmation] = (await receivedTo('+33612345682', 2)).slice(1);
    expect(confirmation!.text).to.equal(OPTED_OUT_TEXT);
    // Its reminder, still to send, is dropped; a second STOP is not confirmed again.
    const [reminder] = (await textsOf(id)).filter((row) => row.kind === 'sms-reminder');
    expect(reminder!.dropped_at).to.be.instanceOf(Date);
    expect(await smsc.sendMessage('+33612345682', 'STOP')).to.equal(0);
    // A new booking with consent for that number stores no text at all.
    const again = await book(7, 'katherine.j@analytical-engines.com', '+33 6 12 34 56 82');
    expect(await textsOf(again)).to.deep.equal([]);
    const detail = await fetch(`${stack.url}/api/admin/bookings/${id}`, {
      headers: { Authorization: `Bearer ${ADMIN}` },
    });
    const { sms } = (await detail.json()) as { sms: { phone: string; consentText: string; optedOutAt: string | null } };
    expect(sms).to.include({ phone: '+33612345682', consentText: 'Text me a confirmation and a reminder' });
    expect(sms.optedOutAt).to.be.a('string');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(textsTo('+33612345682')).to.have.length(2);
  });

  it('raises sms.failed for a text the SMSC refuses for good, and for a receipt saying undeliverable', async () => {
    smsc.refuseNext(1, smpp.ESME_RINVDSTADR, '+33612345684');
    const refused = await book(11, 'dorothy@analytical-engines.com', '+33 6 12 34 56 84');
    const [failed] = await until(async () => {
      const events = eventsOf(refused, 'sms.failed');
      return events.length > 0 ? events : undefined;
    }, 'the sms.failed webhook of the refusal');
    expect(failed!.data.text).to.include({ kind: 'sms-confirmation', state: 'failed', sentAt: null });
    const check = valid.compile(webhookEventSchema('sms.failed'));
    expect(check(failed), JSON.stringify(check.errors)).to.equal(true);
    expect(await smsOf(refused)).to.include({ delivered: 0, failed: 1 });
    const lost = await book(12, 'hedy@analytical-engines.com', '+33 6 12 34 56 85');
    const [text] = await receivedTo('+33612345685', 1);
    await until(async () => {
      const [row] = await stack.db('deliveries').where({ sms_message_id: text!.messageId });
      return row;
    }, 'the message id recorded');
    expect(await smsc.sendReceipt(text!.messageId, 'UNDELIV')).to.equal(0);
    const [undelivered] = await until(async () => {
      const events = eventsOf(lost, 'sms.failed');
      return events.length > 0 ? events : undefined;
    }, 'the sms.failed webhook of the receipt');
    expect(undelivered!.data.text).to.include({ kind: 'sms-confirmation', state: 'undeliverable' });
    expect((await smsOf(lost)).texts[0]).to.include({ state: 'undeliverable' });
  });

  it('stores no more than five texts to one number in 24 hours, its owner’s bookings', async () => {
    const number = '+33 6 12 34 56 83';
    const first = await book(8, 'mary@analytical-engines.com', number);
    const second = await book(9, 'Mary@analytical-engines.com', number);
    const third = await book(10, 'MARY@analytical-engines.com', number);
    const kinds = async (id: string) => (await textsOf(id)).map((row) => row.kind);
    expect(await kinds(first)).to.deep.equal(['sms-confirmation', 'sms-reminder']);
    expect(await kinds(second)).to.deep.equal(['sms-confirmation', 'sms-reminder']);
    // The fifth text is the third booking's confirmation; its reminder would be the sixth.
    expect(await kinds(third)).to.deep.equal(['sms-confirmation']);
    await receivedTo('+33612345683', 3);
  });
});
