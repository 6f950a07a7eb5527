/**
 * A real IMAP server for tests: Debian's dovecot, started from a config file in a temp folder on a free loopback
 * port, with one passwd-file user and a Maildir of its own, stopped (and its folder removed) at close. Messages are
 * put in with IMAP APPEND, as a mail server's delivery would leave them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';

export interface ImapServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** imap://user:password@127.0.0.1:port/INBOX */
  url: string;
  /** A client logged in as the user (closed at stop). */
  client(): Promise<ImapFlow>;
  /** Appends raw messages to a folder (INBOX unless told), returning their UIDs. */
  append(messages: string[], folder?: string): Promise<number[]>;
  /** The flags of each message of a folder, by UID. */
  flags(folder?: string): Promise<Map<number, Set<string>>>;
  stop(): Promise<void>;
  /** Stops the server, keeping its mail, and starts it again later on the same port. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port'))));
    });
  });
}

async function listening(port: number, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`dovecot did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function systemUser(name: string): Promise<{ uid: number; gid: number }> {
  const line = (await readFile('/etc/passwd', 'utf8')).split('\n').find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`no system user ${name} for dovecot`);
  return { uid: Number(uid), gid: Number(gid) };
}

/** `idle: false` leaves IDLE out of what the server says it offers, as some servers do: the reader polls. */
export async function startImapServer(options: { idle?: boolean } = {}): Promise<ImapServer> {
  const dir = await mkdtemp(join(tmpdir(), 'dovecot-test-'));
  // The login helpers (another user under root) reach their sockets below it.
  await chmod(dir, 0o755);
  const port = await freePort();
  const me = userInfo();
  const user = 'replies';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const config = join(dir, 'dovecot.conf');
  // Under root, the mail belongs to dovecot's own user (dovecot refuses uid 0 for mail).
  const owner = me.uid === 0 ? await systemUser('dovecot') : { uid: me.uid, gid: me.gid };
  for (const folder of ['mail', 'home']) {
    await mkdir(join(dir, folder));
    await chown(join(dir, folder), owner.uid, owner.gid);
  }
  await writeFile(join(dir, 'passwd'), `${user}:{PLAIN}${password}:${owner.uid}:${owner.gid}::${dir}/home::\n`);
  await writeFile(
    config,
    [
      `base_dir = ${dir}/run`,
      `state_dir = ${dir}/state`,
      `log_path = ${dir}/dovecot.log`,
      'protocols = imap',
      'ssl = no',
      ...(options.idle === false
        ? ['imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ UIDPLUS MOVE NAMESPACE']
        : []),
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      `listen = 127.0.0.1`,
      // Dovecot's helpers refuse to run as root: under root, the package's own unprivileged users.
      `default_login_user = ${me.uid === 0 ? 'dovenull' : me.username}`,
      `default_internal_user = ${me.uid === 0 ? 'dovecot' : me.username}`,
      `default_internal_group = ${me.uid === 0 ? 'dovecot' : me.username}`,
      'first_valid_uid = 0',
      `mail_location = maildir:${dir}/mail`,
      `passdb {\n  driver = passwd-file\n  args = ${dir}/passwd\n}`,
      `userdb {\n  driver = passwd-file\n  args = ${dir}/passwd\n}`,
      `service imap-login {\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
      'service anvil {\n  chroot =\n}',
      'service imap-login {\n  chroot =\n}',
      '',
    ].join('\n'),
  );
  // In the foreground (-F), as this process's child: stopping it is killing that child, by its own id.
  let master: ChildProcess | undefined;
  const start = async () => {
    const child = spawn('dovecot', ['-F', '-c', config], { stdio: 'ignore' });
    master = child;
    // A test process that dies without its after hook takes its dovecot with it.
    const orphaned = () => child.kill('SIGTERM');
    process.once('exit', orphaned);
    child.once('exit', () => process.off('exit', orphaned));
    await listening(port);
  };
  const halt = async () => {
    const child = master;
    master = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  await start();

  const clients: ImapFlow[] = [];
  const client = async () => {
    const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
    c.on('error', () => {});
    await c.connect();
    clients.push(c);
    return c;
  };
  let appender: ImapFlow | undefined;
  const server: ImapServer = {
    host: '127.0.0.1',
    port,
    user,
    password,
    url: `imap://${user}:${password}@127.0.0.1:${port}/INBOX`,
    client,
    async append(messages, folder = 'INBOX') {
      if (!appender?.usable) appender = await client();
      if (folder !== 'INBOX') await appender.mailboxCreate(folder).catch(() => undefined);
      const uids: number[] = [];
      for (const message of messages) {
        const appended = await appender.append(folder, message);
        if (appended && appended.uid) uids.push(appended.uid);
      }
      return uids;
    },
    async flags(folder = 'INBOX') {
      const c = await client();
      const result = new Map<number, Set<string>>();
      try {
        const lock = await c.getMailboxLock(folder);
        try {
          if (c.mailbox && c.mailbox.exists > 0)
            for await (const m of c.fetch('1:*', { uid: true, flags: true })) result.set(m.uid, m.flags ?? new Set());
        } finally {
          lock.release();
        }
      } finally {
        await c.logout().catch(() => undefined);
      }
      return result;
    },
    async stop() {
      for (const c of clients) c.close();
      await halt();
      await rm(dir, { recursive: true, force: true });
    },
    pause: halt,
    resume: start,
  };
  return server;
}
