import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { dkimVerify } from 'mailauth';
import { bookableSlots } from '../test/booking.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../test/smtp-sink.js';
import { TEST_LINK_SECRET, silentLogger } from '../test/stack.js';
import { loadWorkerConfig } from './config.js';
import type { DeliveryDeps } from './job.js';
import { DELIVERY_KIND_NAMES } from '../server-shared/delivery-kinds.js';
import { KIND_WRITERS } from './kind-writers.js';

/** The kinds that are e-mails: all but the host's calendar write, which goes over CalDAV (host-calendar.test.ts). */
const KINDS_BY_MAIL = DELIVERY_KIND_NAMES.filter((kind) => KIND_WRITERS[kind].channel === 'email');
import { insertBookings, deliverRow } from '../test/outbox.js';
import { createSendMail, type MailTransport } from './send-mail.js';

const DOMAIN = 'converge.test';
const SELECTOR = 'mail2026';

/** A pair made for the run: the worker signs with the private key, the resolver below publishes the public one. */
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicKeyRecord = `v=DKIM1; k=rsa; p=${keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

/** DNS as a receiver would ask it, answered here: the selector's TXT record and nothing else (no network). */
async function resolver(name: string, type: string): Promise<string[][]> {
  if (type === 'TXT' && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[publicKeyRecord]];
  throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
}

async function dkimResult(raw: string) {
  const { results } = await dkimVerify(Buffer.from(raw), { resolver });
  return results.map((result) => ({
    result: result.status.result,
    domain: result.signingDomain,
    selector: result.selector,
  }));
}

async function dkimFailure(raw: string) {
  const { results } = await dkimVerify(Buffer.from(raw), { resolver });
  return results.map((result) => ({ result: result.status.result, comment: result.status.comment }));
}

const textOf = (content: string | ArrayBuffer | Uint8Array) =>
  typeof content === 'string' ? content : new TextDecoder().decode(content);

/** Each calendar part of a received message: its type, the method its Content-Type names, and its .ics METHOD. */
function calendarParts(mail: ReceivedMail) {
  return mail.parsed.attachments
    .filter((part) => textOf(part.content).startsWith('BEGIN:VCALENDAR'))
    .map((part) => ({
      mimeType: part.mimeType,
      method: part.method,
      icsMethod: /^METHOD:(.*)$/m.exec(textOf(part.content))?.[1]?.trim(),
    }));
}

/**
 * SpamAssassin's verdict on one message, by its local rules only (`-L`: no DNS or network tests). One message a run:
 * its mbox mode gave the verdicts of some messages to others.
 */
async function spamVerdict(raw: string): Promise<{ score: number; tests: string }> {
  const child = spawn('spamassassin', ['-t', '-L'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const ended = new Promise<number>((resolve, reject) => {
    child.once('error', (err) =>
      reject(new Error(`cannot run spamassassin (Debian's spamassassin package): ${err.message}`)),
    );
    child.once('close', (code) => resolve(code ?? -1));
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stdin.end(raw);
  expect(await ended, 'spamassassin exit code').to.equal(0);
  // The header, folded over lines: "X-Spam-Status: No, score=-0.0 required=5.0 tests=A,B,\n\tC autolearn=…".
  const status = /^X-Spam-Status: \w+, score=(-?[\d.]+) required=[\d.]+ tests=((?:[^\r\n]|\r?\n[ \t])*)/m.exec(output);
  expect(status, 'an X-Spam-Status header').to.not.equal(null);
  return { score: Number(status![1]), tests: (status![2] ?? '').replace(/\s+/g, ' ') };
}

describe('every kind of e-mail as received: signed with DKIM, its calendar parts iMIP', () => {
  let database: TestDatabase;
  let smtp: SmtpSink;
  let mailer: MailTransport;
  let deps: DeliveryDeps;
  const received = new Map<string, ReceivedMail>();

  before(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpSink();
    // The key as an env file holds it: one line, `\n` for each line break.
    const config = loadWorkerConfig({
      BOOKING_LINK_SECRET: TEST_LINK_SECRET,
      DKIM_DOMAIN: DOMAIN,
      DKIM_SELECTOR: SELECTOR,
      DKIM_PRIVATE_KEY: privateKeyPem.trim().replace(/\n/g, '\\n'),
    });
    mailer = createSendMail(smtp.url, { dkim: config.dkim });
    deps = {
      db: database.db,
      sendMail: mailer.sendMail,
      mailFrom: `Converge Demos <demos@${DOMAIN}>`,
      replyTo: `Converge Sales <sales@${DOMAIN}>`,
      timeZone: 'Europe/Berlin',
      publicUrl: `https://${DOMAIN}`,
      linkSecret: TEST_LINK_SECRET,
      logger: silentLogger,
    };

    const [slot] = bookableSlots(1);
    const [booking] = await insertBookings(database.db, [
      {
        name: 'Grace Hopper',
        email: 'grace@hopper-systems.com',
        company: 'Hopper Systems',
        time_slot: new Date(slot!.iso),
        host_email: 'dana@converge.test',
        host_name: 'Dana Whitfield',
        host_title: 'Solutions Engineer',
        // Every booking gets its video room (book() gives one).
        meeting_url: 'https://meet.converge.test/demo-4f7a2c',
      },
    ]);
    const send = async (kind: string, outcome: Promise<string>) => {
      expect(await outcome, kind).to.equal('sent');
      received.set(kind, smtp.messages.at(-1)!);
    };
    await send('confirmation', deliverRow(deps, booking!.emailId));
    for (const kind of KINDS_BY_MAIL.filter((one) => one !== 'confirmation')) {
      const [row] = await database
        .db('deliveries')
        .insert({
          channel: 'email',
          booking_id: booking!.id,
          kind,
          time_slot: new Date(slot!.iso),
          sequence: 0,
          ...(kind === 'sales-notice' ? { recipient: 'sales@converge.test', change: 'booked' } : {}),
          ...(kind === 'host-invitation' || kind === 'host-cancellation'
            ? { recipient: 'dana@converge.test', change: 'booked' }
            : {}),
        })
        .returning('id');
      await send(kind, deliverRow(deps, String(row.id)));
    }
  });
  after(async () => {
    mailer.close();
    await smtp.close();
    await database.drop();
  });

  for (const kind of KINDS_BY_MAIL) {
    it(`${kind}: the signature verifies against the published key (d=${DOMAIN}, s=${SELECTOR})`, async () => {
      expect(await dkimResult(received.get(kind)!.raw)).to.deep.equal([
        { result: 'pass', domain: DOMAIN, selector: SELECTOR },
      ]);
    });
  }

  it('scores 0 with SpamAssassin, every kind: no rule of its own adds a point (an image with too little text, say)', async function () {
    this.timeout(60_000);
    const scored: { kind: string; score: number; tests: string }[] = [];
    // Two at a time: each run is a second or two of one core, reading its rules.
    for (let next = 0; next < KINDS_BY_MAIL.length; next += 2) {
      const pair = KINDS_BY_MAIL.slice(next, next + 2);
      scored.push(
        ...(await Promise.all(pair.map(async (kind) => ({ kind, ...(await spamVerdict(received.get(kind)!.raw)) })))),
      );
    }
    expect(scored.filter((one) => one.score > 0)).to.deep.equal([]);
    expect(scored.map((one) => one.kind)).to.deep.equal(KINDS_BY_MAIL);
  });

  it('a message altered on the way fails the check: a word of its body, or its subject', async () => {
    const { raw } = received.get('confirmation')!;
    const body = raw.indexOf('\r\n\r\n');
    const tamperedBody = raw.slice(0, body) + raw.slice(body).replace('Hopper Systems', 'Hopper Sistems');
    expect(tamperedBody).to.not.equal(raw);
    // mailauth's words for a body that is not the one signed (RFC 8601 leaves "neutral" to such a signature).
    expect(await dkimFailure(tamperedBody)).to.deep.equal([{ result: 'neutral', comment: 'body hash did not verify' }]);
    const tamperedSubject = raw.replace(/^Subject: /m, 'Subject: Re: ');
    expect(await dkimFailure(tamperedSubject)).to.deep.equal([{ result: 'fail', comment: 'bad signature' }]);
  });

  it('invites with METHOD:REQUEST on the confirmation and the update, as a text/calendar part saying method=REQUEST', () => {
    for (const kind of ['confirmation', 'update']) {
      const parts = calendarParts(received.get(kind)!);
      expect(
        parts.filter((part) => part.mimeType === 'text/calendar'),
        kind,
      ).to.deep.equal([{ mimeType: 'text/calendar', method: 'REQUEST', icsMethod: 'REQUEST' }]);
      expect(
        parts.every((part) => part.icsMethod === 'REQUEST'),
        kind,
      ).to.equal(true);
    }
  });

  it('withdraws the event with METHOD:CANCEL on the cancellation, the text/calendar part saying method=CANCEL', () => {
    const parts = calendarParts(received.get('cancellation')!);
    expect(parts.filter((part) => part.mimeType === 'text/calendar')).to.deep.equal([
      { mimeType: 'text/calendar', method: 'CANCEL', icsMethod: 'CANCEL' },
    ]);
    expect(parts.every((part) => part.icsMethod === 'CANCEL')).to.equal(true);
  });

  it('gives the host the event with METHOD:REQUEST, and withdraws it with METHOD:CANCEL, each part saying the same method', () => {
    for (const [kind, method] of [
      ['host-invitation', 'REQUEST'],
      ['host-cancellation', 'CANCEL'],
    ] as const) {
      const parts = calendarParts(received.get(kind)!);
      expect(
        parts.filter((part) => part.mimeType === 'text/calendar'),
        kind,
      ).to.deep.equal([{ mimeType: 'text/calendar', method, icsMethod: method }]);
      expect(
        parts.every((part) => part.icsMethod === method),
        kind,
      ).to.equal(true);
    }
  });

  it('gives the sales desk the event as PUBLISH (a copy to keep, no invitation), and the reminder no calendar part', () => {
    expect(calendarParts(received.get('sales-notice')!)).to.deep.equal([
      { mimeType: 'text/calendar', method: 'PUBLISH', icsMethod: 'PUBLISH' },
    ]);
    expect(calendarParts(received.get('reminder')!)).to.deep.equal([]);
  });

  it("keeps the prospect's e-mails about one booking in one thread: each later one answers the confirmation", () => {
    const confirmation = received.get('confirmation')!.parsed;
    expect(confirmation.messageId).to.match(/^<demo-.+@converge\.test>$/);
    expect(confirmation.inReplyTo).to.equal(undefined);
    const later = KINDS_BY_MAIL.filter((one) => {
      const entry = KIND_WRITERS[one];
      return entry.channel === 'email' && entry.to === 'prospect' && one !== 'confirmation';
    });
    expect(later).to.deep.equal(['update', 'cancellation', 'new-time-needed', 'reminder']);
    for (const kind of later) {
      const parsed = received.get(kind)!.parsed;
      expect(parsed.inReplyTo, kind).to.equal(confirmation.messageId);
      expect(parsed.references, kind).to.equal(confirmation.messageId);
      expect(parsed.messageId, kind).to.not.equal(confirmation.messageId);
    }
  });

  it('offers the update as the calendar file only: the Google and Outlook links would add a second event', () => {
    const update = received.get('update')!.parsed;
    expect(update.text).to.contain('Update your calendar (.ics): https://converge.test/api/bookings/');
    expect(update.text).to.not.contain('Google Calendar:').and.not.contain('Outlook:');
    expect(update.html).to.not.contain('calendar.google.com').and.not.contain('outlook.');
    expect(received.get('confirmation')!.parsed.text).to.contain('Google Calendar:');
  });
});
