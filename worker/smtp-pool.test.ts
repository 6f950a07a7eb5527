import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { createSmtpPool } from './smtp-pool.js';

interface Received {
  raw: string;
  secure: boolean;
  user: string | undefined;
}

/** An SMTP server on a free port (its own self-signed certificate) that keeps what it receives. */
async function startServer(options: SMTPServerOptions, onMessage?: (received: Received) => Promise<void> | void) {
  const received: Received[] = [];
  const server = new SMTPServer({
    logger: false,
    ...options,
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const message = { raw: Buffer.concat(chunks).toString('utf8'), secure: session.secure, user: session.user as string | undefined };
        received.push(message);
        void Promise.resolve(onMessage?.(message)).then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const message = (n: number) => ({
  envelope: { from: 'bookings@converge.test', to: [`prospect${n}@example.test`] },
  raw: `From: bookings@converge.test\r\nTo: prospect${n}@example.test\r\nMessage-ID: <m${n}@converge.test>\r\nSubject: n${n}\r\n\r\n.leading dot\r\nbody ${n}\r\n`,
});

const acceptOnly = (user: string, pass: string): SMTPServerOptions['onAuth'] =>
  function onAuth(auth, _session, callback) {
    if (auth.username === user && auth.password === pass) return callback(null, { user });
    callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
  };

describe('the SMTP connection pool (worker/smtp-pool.ts)', () => {
  it('sends over TLS from the start (smtps://) and logs in with the user and password of SMTP_URL', async () => {
    const server = await startServer({ secure: true, onAuth: acceptOnly('worker', 's3cret') });
    const pool = createSmtpPool(`smtps://worker:s3cret@127.0.0.1:${server.port}/?tls.rejectUnauthorized=false`, { connections: 2 });
    try {
      const responses = await Promise.all([1, 2, 3].map((n) => pool.send(message(n))));
      expect(responses.every((response) => response.startsWith('250'))).to.equal(true);
      expect(server.received).to.have.length(3);
      expect(server.received.every((received) => received.secure && received.user === 'worker')).to.equal(true);
      // Dot-stuffed on the way, and unstuffed by the server: the message arrives as it was built.
      expect(server.received.map((received) => received.raw).sort()).to.deep.equal([1, 2, 3].map((n) => message(n).raw));
    } finally {
      pool.close();
      await server.close();
    }
  });

  it('upgrades a plain connection with STARTTLS before it logs in when requireTLS is set', async () => {
    const server = await startServer({ secure: false, onAuth: acceptOnly('worker', 's3cret') });
    const pool = createSmtpPool(`smtp://worker:s3cret@127.0.0.1:${server.port}/?requireTLS=true&tls.rejectUnauthorized=false`, { connections: 1 });
    try {
      await pool.send(message(1));
      expect(server.received).to.have.length(1);
      expect(server.received[0]).to.include({ secure: true, user: 'worker' });
    } finally {
      pool.close();
      await server.close();
    }
  });

  it('fails the send with the server\'s 535 when the password is wrong, and sends nothing', async () => {
    const server = await startServer({ secure: true, onAuth: acceptOnly('worker', 's3cret') });
    const pool = createSmtpPool(`smtps://worker:wrong@127.0.0.1:${server.port}/?tls.rejectUnauthorized=false`, { connections: 1 });
    try {
      const err = await pool.send(message(1)).then(
        () => null,
        (error: unknown) => error as { responseCode?: number },
      );
      expect(err?.responseCode).to.equal(535);
      expect(server.received).to.have.length(0);
    } finally {
      pool.close();
      await server.close();
    }
  });

  it('fails the send when no connection can be opened, rather than keeping it waiting', async () => {
    const server = await startServer({ secure: false, authOptional: true });
    const { port } = server;
    await server.close();
    const pool = createSmtpPool(`smtp://127.0.0.1:${port}`, { connections: 2 });
    try {
      const err = await pool.send(message(1)).then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(err).to.be.instanceOf(Error);
    } finally {
      pool.close();
    }
  });

  it('never sends a message given up while it waited for a connection; the others go out once each', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first!: () => void;
    const firstArrived = new Promise<void>((resolve) => (first = resolve));
    // The first message is held by the server, so the second waits for the pool's only connection.
    const server = await startServer({ secure: false, authOptional: true, disabledCommands: ['STARTTLS'] }, async (received) => {
      if (received.raw.includes('<m1@')) {
        first();
        await held;
      }
    });
    const pool = createSmtpPool(`smtp://127.0.0.1:${server.port}`, { connections: 1 });
    try {
      const one = pool.send(message(1));
      await firstArrived;
      const giveUp = new AbortController();
      const two = pool.send(message(2), giveUp.signal);
      giveUp.abort('the claim on the row runs out');
      const three = pool.send(message(3));
      const abandoned = await two.then(
        () => null,
        (error: unknown) => error as Error,
      );
      release();
      await Promise.all([one, three]);
      expect(abandoned?.message).to.match(/send abandoned/);
      expect(server.received.map((received) => /Subject: (n\d)/.exec(received.raw)?.[1])).to.deep.equal(['n1', 'n3']);
    } finally {
      pool.close();
      await server.close();
    }
  });

  it('keeps the messages waiting for the connections that serve when the server refuses more, and sends each once', async () => {
    const server = await startServer({ secure: false, authOptional: true, disabledCommands: ['STARTTLS'], maxClients: 1 });
    const pool = createSmtpPool(`smtp://127.0.0.1:${server.port}`, { connections: 3 });
    try {
      await pool.send(message(0));
      // One connection is open and serves; the two more the pool asks for are turned away (421, too many clients).
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => pool.send(message(i + 1))));
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).to.deep.equal([]);
      const subjects = server.received.map((received) => /Subject: (n\d+)/.exec(received.raw)?.[1]);
      expect(subjects).to.have.length(21);
      expect(new Set(subjects).size).to.equal(21);
    } finally {
      pool.close();
      await server.close();
    }
  });
});
