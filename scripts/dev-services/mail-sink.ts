/**
 * The SMTP server `npm start` runs when SMTP_URL is unset: each message is written to .data/mail/ as an .eml file
 * (any mail program opens it) and the reply names that file, so the worker's "confirmation sent" line says where it is.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { SMTPServer } from 'smtp-server';
import { displayPath } from './config.js';

export interface MailSink {
  url: string;
  dir: string;
  close(): Promise<void>;
}

function fileName(): string {
  // Sorted by arrival in a listing; the random part keeps two messages in one millisecond apart.
  return `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`;
}

export async function startMailSink(options: { dir: string; logger: Logger; port?: number }): Promise<MailSink> {
  const log = options.logger.child({ service: 'smtp' });
  await mkdir(options.dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 25 * 1024 * 1024,
    onData(stream, _session, callback) {
      const file = path.join(options.dir, fileName());
      // Written under a hidden name and renamed when whole: whoever lists the folder never opens half a message.
      const partial = path.join(options.dir, `.${path.basename(file)}.part`);
      pipeline(stream, createWriteStream(partial))
        .then(() => rename(partial, file))
        .then(
          () => {
            log.info({ file: displayPath(file) }, 'e-mail saved');
            callback(null, `Stored as ${displayPath(file)}`);
          },
          (err: unknown) => {
            log.error({ err }, 'e-mail could not be saved');
            void rm(partial, { force: true });
            callback(Object.assign(new Error('Could not store the message'), { responseCode: 451 }));
          },
        );
    },
  });
  server.on('error', (err) => log.error({ err }, 'SMTP server error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    dir: options.dir,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
