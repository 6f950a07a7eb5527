import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { startImapServer, type ImapServer } from '../../test/imap-server.js';
import { testDns } from '../../test/itip-replies.js';
import { bookableSlots } from '../../test/booking.js';
import { TEST_LINK_SECRET, TEST_REDIS_URL, startStack, type Stack } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { loadWorkerConfig } from '../config.js';
import { startWorker, type RunningWorker } from '../index.js';
import { READ_KEYWORD } from './reader.js';
import { taggedReplyAddress } from './organizer.js';

const REPLY_ADDRESS = 'demo-replies@converge.localhost';
const PROSPECT = { name: 'Grace Hopper', email: 'grace@hopper-systems.com' };
const GOOGLE_IP = '192.0.2.41';
const dns = testDns();
dns.publish('hopper-systems.com', [GOOGLE_IP]);

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe("the reply mailbox's reader, across outages and restarts", function () {
  this.timeout(120_000);
  let imap: ImapServer;
  let stack: Stack;
  const workers: RunningWorker[] = [];
  const [slot] = bookableSlots(1);

  before(async () => {
    imap = await startImapServer();
    // The stack's own worker reads no mailbox: this test starts its readers itself.
    stack = await startStack({ workerOptions: { sweepEveryMs: 200 } });
  });
  after(async () => {
    for (const worker of workers) await worker.close();
    await stack?.close();
    await imap?.stop();
  });

  const startReader = async (logger: pino.Logger, ignoredFolder?: string) => {
    const config = loadWorkerConfig({
      DATABASE_URL: stack.databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: stack.queuePrefix,
      SMTP_URL: stack.smtp.url,
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      PUBLIC_URL: stack.url,
      REPLY_MAILBOX_URL: imap.url,
      REPLY_MAILBOX_ADDRESS: REPLY_ADDRESS,
      REPLY_MAILBOX_POLL_SECONDS: '0.3',
      ...(ignoredFolder ? { REPLY_MAILBOX_IGNORED_FOLDER: ignoredFolder } : {}),
    });
    const worker = await startWorker(config, logger, { sweepEveryMs: 200, replyResolver: dns.resolver });
    workers.push(worker);
    return worker;
  };

  it('starts with the mailbox down and says so, keeps running, then reads the reply once the mailbox is back', async () => {
    const response = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...PROSPECT, company: 'Hopper Systems', timeSlot: slot!.iso }),
    });
    const id = String(((await response.json()) as { id: string }).id);
    await imap.pause();
    const { logger, lines } = capturingLogger();
    const worker = await startReader(logger);
    await until(
      async () => lines.find((line) => line.msg === 'reply mailbox unreachable; will try again'),
      'the outage logged',
    );
    expect(lines.some((line) => line.msg === 'worker ready')).to.equal(true);
    // Said once, whatever the number of tries, and without the mailbox's address or password.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(lines.filter((line) => line.msg === 'reply mailbox unreachable; will try again')).to.have.length(1);
    expect(JSON.stringify(lines)).to.not.include(imap.password);

    await imap.resume();
    const accept = await dns.reply({
      shape: 'google',
      uid: `demo-${id}@converge.localhost`,
      organizer: taggedReplyAddress(REPLY_ADDRESS, id, TEST_LINK_SECRET),
      attendee: PROSPECT,
      partstat: 'ACCEPTED',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
    });
    const [uid] = await imap.append([accept]);
    await until(
      async () =>
        (await stack.db('bookings').where({ id }).first('prospect_reply'))?.prospect_reply === 'ACCEPTED'
          ? true
          : undefined,
      'the accept recorded',
    );
    expect(lines.some((line) => line.msg === 'reply mailbox reachable again')).to.equal(true);
    // The line is written once the reply's statement has committed, so it may follow the row seen above.
    const logged = await until(
      async () => lines.find((line) => line.msg === 'prospect reply read'),
      'the reply logged',
    );
    expect(logged).to.include({ bookingId: id, by: 'dkim' });
    expect(JSON.stringify(lines)).to.not.include(PROSPECT.email);
    expect([...((await imap.flags()).get(uid!) ?? [])]).to.include(READ_KEYWORD);

    // Restarted, with a second reader beside it: the reply is not acted on again, by either.
    await worker.close();
    const [again, beside] = [capturingLogger(), capturingLogger()];
    await Promise.all([startReader(again.logger), startReader(beside.logger)]);
    const decline = await dns.reply({
      shape: 'google',
      uid: `demo-${id}@converge.localhost`,
      organizer: taggedReplyAddress(REPLY_ADDRESS, id, TEST_LINK_SECRET),
      attendee: PROSPECT,
      partstat: 'DECLINED',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
      stamp: new Date(Date.now() + 60_000),
    });
    await imap.append([decline]);
    await until(
      async () =>
        (await stack.db('bookings').where({ id }).first('status'))?.status === 'cancelled' ? true : undefined,
      'the decline applied',
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const read = [...again.lines, ...beside.lines].filter((line) => line.msg === 'prospect reply read');
    expect(read.map((line) => line.partstat)).to.deep.equal(['DECLINED']);
    const events = await stack.db('webhook_events').where({ booking_id: id }).orderBy('position').pluck('type');
    expect(events).to.deep.equal(['booking.created', 'booking.accepted', 'booking.cancelled']);
    for (const worker of workers.splice(0)) await worker.close();
  });

  it('moves a calendar message it does not act on to REPLY_MAILBOX_IGNORED_FOLDER, and leaves other mail alone', async () => {
    const { logger, lines } = capturingLogger();
    await startReader(logger, 'Not acted on');
    const counter = await dns.reply({
      shape: 'outlook',
      uid: 'demo-00000000-0000-7000-8000-000000000000@converge.localhost',
      organizer: REPLY_ADDRESS,
      attendee: PROSPECT,
      partstat: 'ACCEPTED',
      method: 'COUNTER',
      signedBy: 'hopper-systems.com',
      clientIp: GOOGLE_IP,
    });
    const plain = `From: ${PROSPECT.email}\r\nTo: ${REPLY_ADDRESS}\r\nSubject: A question\r\n\r\nCan we talk?\r\n`;
    const [counterUid, plainUid] = await imap.append([counter, plain]);
    await until(
      async () => ((await imap.flags('Not acted on').catch(() => new Map())).size === 1 ? true : undefined),
      'the move',
    );
    const inbox = await imap.flags();
    expect(inbox.has(counterUid!)).to.equal(false);
    expect([...(inbox.get(plainUid!) ?? [])]).to.not.include('\\Seen');
    const logged = lines.find((line) => line.msg === 'reply mailbox message not acted on');
    expect(logged).to.include({ mailboxUid: counterUid, why: 'not-a-reply' });
    expect(JSON.stringify(lines)).to.not.include(PROSPECT.email);
  });
});

describe('the reply reader on a server without IDLE', function () {
  this.timeout(60_000);
  let imap: ImapServer;
  let stack: Stack;

  before(async () => {
    imap = await startImapServer({ idle: false });
    stack = await startStack({
      env: {
        REPLY_MAILBOX_URL: imap.url,
        REPLY_MAILBOX_ADDRESS: REPLY_ADDRESS,
        REPLY_MAILBOX_POLL_SECONDS: '0.5',
      },
      workerOptions: { sweepEveryMs: 200, replyResolver: dns.resolver },
    });
  });
  after(async () => {
    await stack?.close();
    await imap?.stop();
  });

  it('polls, and reads a reply within its poll', async () => {
    const client = await imap.client();
    expect(client.capabilities.has('IDLE')).to.equal(false);
    await client.logout();
    const [slot] = bookableSlots(1);
    const response = await fetch(`${stack.url}/api/demo-request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...PROSPECT, company: 'Hopper Systems', timeSlot: slot!.iso }),
    });
    const id = String(((await response.json()) as { id: string }).id);
    await imap.append([
      await dns.reply({
        shape: 'apple',
        uid: `demo-${id}@converge.localhost`,
        organizer: taggedReplyAddress(REPLY_ADDRESS, id, TEST_LINK_SECRET),
        attendee: PROSPECT,
        partstat: 'ACCEPTED',
        signedBy: 'hopper-systems.com',
        clientIp: GOOGLE_IP,
      }),
    ]);
    await until(
      async () =>
        (await stack.db('bookings').where({ id }).first('prospect_reply'))?.prospect_reply === 'ACCEPTED'
          ? true
          : undefined,
      'the accept recorded by a poll',
      10_000,
    );
  });
});
