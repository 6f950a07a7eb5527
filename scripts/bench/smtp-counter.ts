/**
 * The bench's SMTP server: accepts every message and prints one line per message as the server accepts it,
 * `<epoch ms> <Message-ID>`, so the bench can count deliveries and time each one from its booking. Prints its port
 * first. Run as its own process, so that it does not share the bench's event loop.
 */
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // Many pooled connections at once from the worker.
  maxClients: 1000,
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk: Buffer) => {
      if (head.length < 8192) head += chunk.toString('latin1');
    });
    stream.on('end', () => {
      const id = /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? '-';
      process.stdout.write(`${Date.now()} ${id}\n`);
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
