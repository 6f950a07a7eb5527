import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import DataStream from 'nodemailer/lib/smtp-connection/data-stream';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { createSmtpPool } from './smtp-pool.js';
import { dataOf } from './smtp-transaction.js';

/** What nodemailer's own send writes after DATA for the same message. */
function nodemailerData(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stream = new DataStream();
    const out = new PassThrough();
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    out.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
    stream.pipe(out);
    stream.end(raw);
  });
}

interface Session {
  /** What the client wrote, chunk by chunk as the server read it. */
  chunks: string[];
}

/**
 * A real SMTP server (smtp-server) behind a TCP relay on loopback that keeps what the client wrote, chunk by chunk,
 * so that a test sees which commands went out together.
 */
async function startServer(options: SMTPServerOptions = {}) {
  const received: { from: string; to: string[]; raw: string }[] = [];
  const smtp = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    ...options,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (raw.includes('Subject: refuse me')) return callback(Object.assign(new Error('Message refused'), { responseCode: 554 }));
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const upstream = (smtp.server.address() as AddressInfo).port;
  const sessions: Session[] = [];
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const session: Session = { chunks: [] };
    sessions.push(session);
    const server = connect(upstream, '127.0.0.1');
    sockets.add(client).add(server);
    client.on('data', (chunk: Buffer) => session.chunks.push(chunk.toString('utf8')));
    client.pipe(server).pipe(client);
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    sessions,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

const message = (n: number, to = `prospect${n}@example.test`, subject = `n${n}`) => ({
  envelope: { from: 'bookings@converge.test', to: [to] },
  raw: `From: bookings@converge.test\r\nTo: ${to}\r\nMessage-ID: <m${n}@converge.test>\r\nSubject: ${subject}\r\n\r\n.leading dot\r\nbody ${n}\r\n`,
});

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (err: unknown) => err as Error & { responseCode?: number },
  );

describe('SMTP transactions over a pooled connection (worker/smtp-transaction.ts)', () => {
  it('writes after DATA the very bytes nodemailer wrote: line breaks, stuffed dots and the ending', async () => {
    const samples = [
      'Subject: x\r\n\r\nbody\r\n',
      'Subject: x\r\n\r\nno line break at the end',
      '.a dot first\r\n..two\r\nmid.dle\r\n.\r\n',
      'bare LF\nand bare CR\rthen a dot\r.after CR\n.after LF\r\n',
      'ends with CR\r',
      'ends with LF\n',
      'Ünïcödé and 🎉\r\n.é\r\n',
      '',
    ];
    for (const raw of samples) expect(dataOf(raw), JSON.stringify(raw)).to.equal(await nodemailerData(raw));
  });

  it('sends MAIL FROM, RCPT TO and DATA in one write when the server offers PIPELINING, and the message in the next', async () => {
    const server = await startServer();
    const pool = createSmtpPool(server.url, { connections: 1 });
    try {
      const responses = await Promise.all([1, 2, 3].map((n) => pool.send(message(n))));
      expect(responses.every((response) => response.startsWith('250'))).to.equal(true);
      expect(server.received.map((received) => received.raw)).to.deep.equal([1, 2, 3].map((n) => message(n).raw));
      expect(server.received.map((received) => received.to)).to.deep.equal([1, 2, 3].map((n) => [`prospect${n}@example.test`]));
      const { chunks } = server.sessions[0] as Session;
      const envelopes = chunks.filter((chunk) => chunk.startsWith('MAIL FROM'));
      expect(envelopes).to.deep.equal([1, 2, 3].map((n) => `MAIL FROM:<bookings@converge.test>\r\nRCPT TO:<prospect${n}@example.test>\r\nDATA\r\n`));
      // The message, dot-stuffed, and its ending together.
      expect(chunks.filter((chunk) => chunk.startsWith('From:'))).to.deep.equal([1, 2, 3].map((n) => `${message(n).raw.replace('\r\n.leading', '\r\n..leading')}.\r\n`));
    } finally {
      pool.close();
      await server.close();
    }
  });

  it('sends one command at a time to a server that does not offer PIPELINING, and the messages arrive the same', async () => {
    const server = await startServer({ hidePIPELINING: true });
    const pool = createSmtpPool(server.url, { connections: 1 });
    try {
      await Promise.all([1, 2].map((n) => pool.send(message(n))));
      expect(server.received.map((received) => received.raw)).to.deep.equal([1, 2].map((n) => message(n).raw));
      const { chunks } = server.sessions[0] as Session;
      expect(chunks.filter((chunk) => /^(MAIL|RCPT|DATA)/.test(chunk))).to.deep.equal([
        'MAIL FROM:<bookings@converge.test>\r\n',
        'RCPT TO:<prospect1@example.test>\r\n',
        'DATA\r\n',
        'MAIL FROM:<bookings@converge.test>\r\n',
        'RCPT TO:<prospect2@example.test>\r\n',
        'DATA\r\n',
      ]);
    } finally {
      pool.close();
      await server.close();
    }
  });

  for (const hidePIPELINING of [false, true]) {
    it(`fails only the message whose recipient the server refuses, with its 550${hidePIPELINING ? ' (no PIPELINING)' : ''}`, async () => {
      const server = await startServer({
        hidePIPELINING,
        onRcptTo(address, _session, callback) {
          if (address.address.startsWith('nobody')) return callback(Object.assign(new Error('5.1.1 Recipient address rejected'), { responseCode: 550 }));
          callback();
        },
      });
      const pool = createSmtpPool(server.url, { connections: 2 });
      try {
        const outcomes = await Promise.all([
          failureOf(pool.send(message(1))),
          failureOf(pool.send(message(2, 'nobody@example.test'))),
          failureOf(pool.send(message(3))),
          failureOf(pool.send(message(4))),
        ]);
        expect(outcomes.map((outcome) => outcome?.responseCode ?? 'sent')).to.deep.equal(['sent', 550, 'sent', 'sent']);
        expect(outcomes[1]?.message).to.match(/Recipient address rejected/);
        expect(server.received.map((received) => received.to[0]).sort()).to.deep.equal(['prospect1@example.test', 'prospect3@example.test', 'prospect4@example.test']);
        // Nothing reached the server for the refused recipient: no DATA after a refused RCPT without PIPELINING.
        const written = server.sessions.flatMap((session) => session.chunks).join('');
        if (hidePIPELINING) expect(written).to.not.match(/RCPT TO:<nobody@example.test>\r\nDATA/);
      } finally {
        pool.close();
        await server.close();
      }
    });
  }

  it('fails the message the server refuses after its content, and the next one goes out', async () => {
    const server = await startServer();
    const pool = createSmtpPool(server.url, { connections: 1 });
    try {
      const refused = await failureOf(pool.send(message(1, 'prospect1@example.test', 'refuse me')));
      expect(refused?.responseCode).to.equal(554);
      expect(refused?.message).to.match(/^Message failed: 554/);
      expect(await pool.send(message(2))).to.match(/^250/);
      expect(server.received.map((received) => received.to[0])).to.deep.equal(['prospect2@example.test']);
    } finally {
      pool.close();
      await server.close();
    }
  });

  it('fails the message in hand when the server closes the connection, and sends the next over a new one', async () => {
    let dropNext = true;
    const server = await startServer({
      onMailFrom(_address, _session, callback) {
        if (!dropNext) return callback();
        dropNext = false;
        // The server says it goes away in the middle of the transaction, and closes the connection.
        callback(Object.assign(new Error('Service shutting down'), { responseCode: 421 }));
      },
    });
    const pool = createSmtpPool(server.url, { connections: 1 });
    try {
      const dropped = await failureOf(pool.send(message(1)));
      expect(dropped?.responseCode).to.equal(421);
      expect(await pool.send(message(2))).to.match(/^250/);
      expect(server.received.map((received) => received.to[0])).to.deep.equal(['prospect2@example.test']);
      expect(server.sessions).to.have.length(2);
    } finally {
      pool.close();
      await server.close();
    }
  });

  it('refuses an envelope address that would end the command line, and writes nothing of it', async () => {
    const server = await startServer();
    const pool = createSmtpPool(server.url, { connections: 1 });
    try {
      const refused = await failureOf(pool.send(message(1, 'prospect@example.test>\r\nRCPT TO:<eve@example.test')));
      expect(refused?.message).to.match(/Invalid recipient/);
      expect(server.sessions.flatMap((session) => session.chunks).join('')).to.not.contain('eve@');
      expect(await pool.send(message(2))).to.match(/^250/);
    } finally {
      pool.close();
      await server.close();
    }
  });
});
