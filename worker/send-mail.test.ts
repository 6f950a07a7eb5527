import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { TEST_LINK_SECRET, silentLogger } from '../test/stack.js';
import { until } from '../test/until.js';
import type { DeliveryDeps } from './job.js';
import { insertBookings, deliverRow } from '../test/outbox.js';
import { createSendMail, type OutgoingMail } from './send-mail.js';

const ROWS = 40;
const MESSAGE_ID = /^Message-ID:\s*(<[^>\r\n]+>)/im;

/**
 * An SMTP server that hangs up on the first try of some messages in the middle of the message ('mid-message'), and
 * after others ('next-envelope') on the connection's next message once it has its envelope, before a byte of that
 * message. Only a message received in full counts.
 */
async function startDroppingServer(drop: (messageId: string) => 'mid-message' | 'next-envelope' | null) {
  const received = new Map<string, number>();
  const dropped: string[] = [];
  const sockets = new Map<number, Socket>();
  const hangUp = (port: number) => sockets.get(port)?.destroy();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, session, callback) {
      if (pendingBeforeData.delete(session.remotePort)) {
        hangUp(session.remotePort);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      let head = '';
      let hungUp = false;
      stream.on('data', (chunk: Buffer) => {
        if (hungUp) return;
        if (head.length < 4096) head += chunk.toString('utf8');
        const messageId = MESSAGE_ID.exec(head)?.[1];
        if (messageId && !dropped.includes(messageId)) {
          const how = drop(messageId);
          if (how === 'mid-message') {
            dropped.push(messageId);
            hungUp = true;
            hangUp(session.remotePort);
          } else if (how === 'next-envelope') {
            dropped.push(messageId);
            pendingBeforeData.add(session.remotePort);
          }
        }
      });
      stream.on('end', () => {
        if (hungUp) return;
        const messageId = MESSAGE_ID.exec(head)?.[1] ?? '(none)';
        received.set(messageId, (received.get(messageId) ?? 0) + 1);
        callback();
      });
    },
  });
  const pendingBeforeData = new Set<number>();
  server.server.on('connection', (socket: Socket) => {
    const port = socket.remotePort ?? 0;
    sockets.set(port, socket);
    socket.once('close', () => sockets.delete(port));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    dropped,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a connection dropped while a message is handed over (pooled SMTP connections)', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.drop();
  });

  it('sends exactly one message per row: the pool does not send it again by itself, the worker tries again', async () => {
    const rows = await insertBookings(
      database.db,
      Array.from({ length: ROWS }, (_, i) => ({
        name: `Prospect ${i}`,
        email: `prospect${i}@northwind-${i}.io`,
        company: `Northwind ${i}`,
        time_slot: new Date('2026-12-01T09:00:00Z'),
      })),
    );
    const messageIdOf = (id: string) => `<demo-${id}@converge.test>`;
    const cut = new Set(rows.filter((_, i) => i % 4 === 0).map((row) => messageIdOf(row.id)));
    const beforeNext = new Set(rows.filter((_, i) => i % 4 === 1).map((row) => messageIdOf(row.id)));
    const smtp = await startDroppingServer((messageId) =>
      cut.has(messageId) ? 'mid-message' : beforeNext.has(messageId) ? 'next-envelope' : null,
    );
    const mailer = createSendMail(smtp.url, { connections: 4 });
    const deps: DeliveryDeps = {
      db: database.db,
      sendMail: mailer.sendMail,
      mailFrom: 'Converge Demos <demos@converge.test>',
      replyTo: 'Converge Sales <sales@converge.test>',
      timeZone: 'Europe/Berlin',
      publicUrl: 'https://converge.test',
      linkSecret: TEST_LINK_SECRET,
      logger: silentLogger,
    };
    try {
      // As the queue does: a failed job is tried again (here at once, without the backoff), until it is sent.
      const failures: string[] = [];
      await Promise.all(
        rows.map(async (row) => {
          for (let attempt = 1; attempt <= 5; attempt += 1) {
            try {
              expect(await deliverRow(deps, row.emailId)).to.equal('sent');
              return;
            } catch (err) {
              failures.push(row.id);
              if (attempt === 5) throw err;
            }
          }
        }),
      );
      expect(smtp.dropped.filter((messageId) => cut.has(messageId))).to.have.length(cut.size);
      expect(smtp.received.size, 'every row sent').to.equal(ROWS);
      expect(
        [...smtp.received.values()].every((count) => count === 1),
        'none twice',
      ).to.equal(true);
      const stored = await database
        .db('deliveries')
        .whereIn(
          'id',
          rows.map((row) => row.emailId),
        )
        .select('booking_id', 'sent_at', 'attempts');
      expect(stored.every((row) => row.sent_at !== null)).to.equal(true);
      // A message cut off mid-way failed its try, which the row records; it was sent by the worker's next try.
      for (const row of stored) {
        const tries = failures.filter((id) => id === row.booking_id).length + 1;
        expect(row.attempts, 'every try on the row').to.equal(tries);
        if (cut.has(messageIdOf(row.booking_id))) expect(tries).to.be.at.least(2);
      }
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});

interface Received {
  raw: string;
  to: string[];
  secure: boolean;
  user: string | undefined;
}

/**
 * An SMTP server on a free port (its own self-signed certificate) that keeps what it receives; `onMessage` may hold
 * the server's answer to a message, or refuse it by throwing an error with a responseCode.
 */
async function startServer(options: SMTPServerOptions, onMessage?: (received: Received) => Promise<void> | void) {
  const received: Received[] = [];
  let open = 0;
  const server = new SMTPServer({
    logger: false,
    ...options,
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message: Received = {
          raw: Buffer.concat(chunks).toString('utf8'),
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          secure: session.secure,
          user: session.user as string | undefined,
        };
        Promise.resolve()
          .then(() => onMessage?.(message))
          .then(
            () => {
              received.push(message);
              callback();
            },
            (err: Error) => callback(err),
          );
      });
    },
  });
  server.server.on('connection', (socket: Socket) => {
    open += 1;
    socket.once('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    openConnections: () => open,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const PLAIN: SMTPServerOptions = { authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'] };

const mail = (n: number, to = `prospect${n}@example.test`): OutgoingMail => ({
  from: 'Converge Demos <bookings@converge.test>',
  replyTo: 'bookings@converge.test',
  to: { name: `Prospect ${n}`, address: to },
  messageId: `<m${n}@converge.test>`,
  headers: { 'Auto-Submitted': 'auto-generated' },
  subject: `n${n}`,
  text: `.leading dot\nbody ${n}`,
  html: `<p>body ${n}</p>`,
});

const subjects = (received: Received[]) => received.map((message) => /^Subject: (\S+)/m.exec(message.raw)?.[1]);

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err as Error & { responseCode?: number; code?: string },
  );

const acceptOnly = (user: string, pass: string): SMTPServerOptions['onAuth'] =>
  function onAuth(auth, _session, callback) {
    if (auth.username === user && auth.password === pass) return callback(null, { user });
    callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
  };

const refusal = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

describe('the pooled SMTP transport (worker/send-mail.ts, nodemailer)', () => {
  it('sends over TLS from the start (smtps://) and logs in with the user and password of SMTP_URL', async () => {
    const server = await startServer({ secure: true, onAuth: acceptOnly('worker', 's3cret') });
    const mailer = createSendMail(`smtps://worker:s3cret@127.0.0.1:${server.port}/?tls.rejectUnauthorized=false`, {
      connections: 2,
    });
    try {
      const infos = await Promise.all([1, 2, 3].map((n) => mailer.sendMail(mail(n))));
      expect(infos.map((info) => info.response?.slice(0, 3))).to.deep.equal(['250', '250', '250']);
      expect(infos.map((info) => info.messageId)).to.deep.equal([
        '<m1@converge.test>',
        '<m2@converge.test>',
        '<m3@converge.test>',
      ]);
      expect(server.received.every((received) => received.secure && received.user === 'worker')).to.equal(true);
      // Dot-stuffed on the way, and unstuffed by the server: the text arrives as it was written.
      expect(server.received.every((received) => received.raw.includes('\r\n.leading dot\r\n'))).to.equal(true);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it('upgrades a plain connection with STARTTLS before it logs in when requireTLS is set', async () => {
    const server = await startServer({ secure: false, onAuth: acceptOnly('worker', 's3cret') });
    const mailer = createSendMail(
      `smtp://worker:s3cret@127.0.0.1:${server.port}/?requireTLS=true&tls.rejectUnauthorized=false`,
      { connections: 1 },
    );
    try {
      await mailer.sendMail(mail(1));
      expect(server.received).to.have.length(1);
      expect(server.received[0]).to.include({ secure: true, user: 'worker' });
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it('fails a send for good when the server refuses its recipient (550), and only that one', async () => {
    const server = await startServer({
      ...PLAIN,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('nobody')) return callback(refusal(550, '5.1.1 Recipient address rejected'));
        callback();
      },
    });
    const mailer = createSendMail(server.url, { connections: 2 });
    try {
      const outcomes = await Promise.all(
        [1, 2, 3, 4].map((n) => failureOf(mailer.sendMail(mail(n, n === 2 ? 'nobody@example.test' : undefined)))),
      );
      expect(outcomes.map((outcome) => outcome?.responseCode ?? 'sent')).to.deep.equal(['sent', 550, 'sent', 'sent']);
      expect(outcomes[1]?.message).to.match(/Recipient address rejected/);
      expect(server.received.map((received) => received.to[0]).sort()).to.deep.equal([
        'prospect1@example.test',
        'prospect3@example.test',
        'prospect4@example.test',
      ]);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it("fails the message the server refuses after its content, with the reply's code (554 for good, 451 for now), and the next goes out", async () => {
    const server = await startServer(PLAIN, (received) => {
      if (received.raw.includes('Subject: n1')) throw refusal(554, 'Message refused');
      if (received.raw.includes('Subject: n2')) throw refusal(451, 'Try again later');
    });
    const mailer = createSendMail(server.url, { connections: 1 });
    try {
      const permanent = await failureOf(mailer.sendMail(mail(1)));
      const temporary = await failureOf(mailer.sendMail(mail(2)));
      expect(permanent?.responseCode).to.equal(554);
      expect(temporary?.responseCode).to.equal(451);
      expect((await mailer.sendMail(mail(3))).response).to.match(/^250/);
      expect(subjects(server.received)).to.deep.equal(['n3']);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it("fails the send with the server's 535 when the password is wrong, and sends nothing", async () => {
    const server = await startServer({ secure: true, onAuth: acceptOnly('worker', 's3cret') });
    const mailer = createSendMail(`smtps://worker:wrong@127.0.0.1:${server.port}/?tls.rejectUnauthorized=false`, {
      connections: 1,
    });
    try {
      expect((await failureOf(mailer.sendMail(mail(1))))?.responseCode).to.equal(535);
      expect(server.received).to.have.length(0);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it('fails the send, without a reply code (so for now, not for good), when no connection can be opened', async () => {
    const server = await startServer(PLAIN);
    await server.close();
    const mailer = createSendMail(server.url, { connections: 2 });
    try {
      const err = await failureOf(mailer.sendMail(mail(1)));
      expect(err).to.be.instanceOf(Error);
      expect(err?.responseCode).to.equal(undefined);
    } finally {
      mailer.close();
    }
  });

  it('does not try a message again by itself when its connection drops, even before a byte of it was sent', async () => {
    let envelopes = 0;
    const server = await startServer({
      ...PLAIN,
      onRcptTo(_address, session, callback) {
        envelopes += 1;
        // The server goes away as the connection's second message has its recipient, before any of its content.
        if (session.transaction === 2) return callback(refusal(421, 'Service shutting down'));
        callback();
      },
    });
    const mailer = createSendMail(server.url, { connections: 1 });
    try {
      await mailer.sendMail(mail(1));
      const dropped = await failureOf(mailer.sendMail(mail(2)));
      expect(dropped).to.be.instanceOf(Error);
      expect(dropped?.responseCode === undefined || dropped.responseCode < 500, 'a temporary failure').to.equal(true);
      // Left to the worker, which records the try and retries it with the queue's backoff.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(envelopes).to.equal(2);
      expect(subjects(server.received)).to.deep.equal(['n1']);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it('never sends a message given up while it waited for a connection; the others go out once each', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first!: () => void;
    const firstArrived = new Promise<void>((resolve) => (first = resolve));
    // The first message is held by the server, so the second waits for the pool's only connection.
    const server = await startServer(PLAIN, async (received) => {
      if (received.raw.includes('Subject: n1')) {
        first();
        await held;
      }
    });
    const mailer = createSendMail(server.url, { connections: 1 });
    try {
      const one = mailer.sendMail(mail(1));
      await firstArrived;
      const giveUp = new AbortController();
      const two = failureOf(mailer.sendMail(mail(2), giveUp.signal));
      const three = mailer.sendMail(mail(3));
      giveUp.abort('the claim on the row runs out');
      const abandoned = await two;
      release();
      await Promise.all([one, three]);
      expect(abandoned?.code).to.equal('EABORT');
      expect(subjects(server.received)).to.deep.equal(['n1', 'n3']);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it('gives up a send on the wire at once when told: its connection is closed, and the next message takes another', async () => {
    let first!: () => void;
    const firstArrived = new Promise<void>((resolve) => (first = resolve));
    // The server has the whole of the first message and never answers it.
    const server = await startServer(PLAIN, (received) => {
      if (!received.raw.includes('Subject: n1')) return;
      first();
      return new Promise<void>(() => {});
    });
    const mailer = createSendMail(server.url, { connections: 1 });
    try {
      const giveUp = new AbortController();
      const one = failureOf(mailer.sendMail(mail(1), giveUp.signal));
      await firstArrived;
      const abortedAt = Date.now();
      giveUp.abort('the claim on the row runs out');
      const abandoned = await one;
      expect(abandoned?.code).to.equal('EABORT');
      expect(Date.now() - abortedAt, 'failed at once, not when the server answers').to.be.below(500);
      await until(async () => server.openConnections() === 0 || undefined, 'the connection to close', 6000);
      expect((await mailer.sendMail(mail(2))).response).to.match(/^250/);
      expect(subjects(server.received)).to.deep.equal(['n2']);
    } finally {
      mailer.close();
      await server.close();
    }
  });

  it('closes every connection on close(), one still carrying a message included (that send fails)', async () => {
    const server = await startServer(PLAIN, (received) =>
      received.raw.includes('Subject: n9') ? new Promise<void>(() => {}) : undefined,
    );
    const mailer = createSendMail(server.url, { connections: 3 });
    await Promise.all([1, 2, 3].map((n) => mailer.sendMail(mail(n))));
    const stuck = failureOf(mailer.sendMail(mail(9)));
    await until(async () => server.received.length === 3 || undefined, 'three messages');
    expect(server.openConnections()).to.be.at.least(1);
    mailer.close();
    expect(await stuck).to.be.instanceOf(Error);
    try {
      await until(async () => server.openConnections() === 0 || undefined, 'the connections to close', 6000);
      expect(await failureOf(mailer.sendMail(mail(4)))).to.be.instanceOf(Error);
    } finally {
      await server.close();
    }
  });
});
