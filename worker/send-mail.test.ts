import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { TEST_LINK_SECRET, silentLogger } from '../test/stack.js';
import type { DeliveryDeps } from './deliver.js';
import { processConfirmation } from './job-kinds.js';
import { createSendMail } from './send-mail.js';

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
    const rows: { id: string }[] = await database.db('demo_requests')
      .insert(
        Array.from({ length: ROWS }, (_, i) => ({
          name: `Prospect ${i}`,
          email: `prospect${i}@northwind-${i}.io`,
          company: `Northwind ${i}`,
          time_slot: new Date('2026-12-01T09:00:00Z'),
        })),
      )
      .returning('id');
    const messageIdOf = (id: string) => `<demo-${id}@converge.test>`;
    const cut = new Set(rows.filter((_, i) => i % 4 === 0).map((row) => messageIdOf(row.id)));
    const beforeNext = new Set(rows.filter((_, i) => i % 4 === 1).map((row) => messageIdOf(row.id)));
    const smtp = await startDroppingServer((messageId) => (cut.has(messageId) ? 'mid-message' : beforeNext.has(messageId) ? 'next-envelope' : null));
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
              expect(await processConfirmation(deps, { demoRequestId: row.id })).to.equal('sent');
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
      expect([...smtp.received.values()].every((count) => count === 1), 'none twice').to.equal(true);
      const stored = await database.db('demo_requests').whereIn('id', rows.map((row) => row.id)).select('id', 'confirmation_sent_at', 'confirmation_attempts');
      expect(stored.every((row) => row.confirmation_sent_at !== null)).to.equal(true);
      // A message cut off mid-way failed its try, which the row records; it was sent by the worker's next try.
      for (const row of stored) {
        const tries = failures.filter((id) => id === row.id).length + 1;
        expect(row.confirmation_attempts, 'every try on the row').to.equal(tries);
        if (cut.has(messageIdOf(row.id))) expect(tries).to.be.at.least(2);
      }
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});
