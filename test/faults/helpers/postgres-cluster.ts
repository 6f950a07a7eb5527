/**
 * A throwaway PostgreSQL cluster: initdb into a fresh temporary folder, pg_ctl on a free loopback port, trust
 * auth. As root the server programs run as the `postgres` user (PostgreSQL refuses root), so the folder is handed
 * to that user. The cluster can be stopped and started again on the same port, which is how a test restarts it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, waitForExit } from '../../../scripts/dev-services/ports.js';
import { trackPostmaster, trackTempDir, untrackPostmaster, untrackTempDir } from './cleanup.js';

const run = promisify(execFile);

export interface PostgresCluster {
  port: number;
  /** postgres://postgres@127.0.0.1:port/postgres */
  adminUrl: string;
  dataDir: string;
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** pg_ctl stop: 'immediate' is a crash as far as the clients can tell, 'fast' an orderly shutdown. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** pg_ctl start on the same port and data, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of initdb and pg_ctl: PG_BIN if set, else the newest /usr/lib/postgresql/N/bin, else the PATH. */
function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  try {
    return path.dirname(execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim());
  } catch {
    throw new Error(
      'initdb not found: install PostgreSQL (apt-get install postgresql) or set PG_BIN to the folder of initdb and pg_ctl',
    );
  }
}

const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL program, as the postgres user when this process is root. */
function runPostgresProgram(bin: string, program: string, args: string[], timeoutMs = 60_000) {
  const file = path.join(bin, program);
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  return run(command, argv, { timeout: timeoutMs, cwd: '/' });
}

async function postmasterPid(dataDir: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function accepts(adminUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startPostgresCluster(
  options: { settings?: Record<string, string> } = {},
): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const root = await mkdtemp(path.join(tmpdir(), 'converge-faults-pg-'));
  trackTempDir(root);
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    await chown(root, uid, gid);
  }
  try {
    await runPostgresProgram(bin, 'initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    untrackTempDir(root);
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(
      `initdb failed (${reason})${asRoot ? '; as root it runs as the postgres user, who must be able to write to ' + root : ''}`,
      { cause: err },
    );
  }
  const port = await freePort();
  const settings: Record<string, string> = {
    port: String(port),
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${root}'`,
    // Throwaway data: losing it to an operating-system crash does not matter, and commits are much faster.
    // A crash of PostgreSQL itself (pg_ctl stop -m immediate) still loses nothing committed.
    fsync: 'off',
    full_page_writes: 'off',
    max_connections: '200',
    ...options.settings,
  };
  await appendFile(
    path.join(dataDir, 'postgresql.conf'),
    `\n# fault tests\n${Object.entries(settings)
      .map(([key, value]) => `${key} = ${value}`)
      .join('\n')}\n`,
  );
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let pid: number | undefined;

  const start = async () => {
    try {
      await runPostgresProgram(bin, 'pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
    } catch (err) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw new Error(
        `pg_ctl start failed: ${err instanceof Error ? err.message : String(err)}\n${log.split('\n').slice(-20).join('\n')}`,
        {
          cause: err,
        },
      );
    }
    pid = await postmasterPid(dataDir);
    if (pid) trackPostmaster(pid);
    const deadline = Date.now() + 30_000;
    while (!(await accepts(adminUrl))) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL on port ${port} did not accept connections within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    const running = pid;
    if (running === undefined) return;
    try {
      await runPostgresProgram(bin, 'pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '30', 'stop'], 40_000);
    } catch {
      process.kill(running, 'SIGQUIT');
    }
    await waitForExit(running, 10_000);
    untrackPostmaster(running);
    pid = undefined;
  };

  await start();

  return {
    port,
    adminUrl,
    dataDir,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    async destroy() {
      await stop('immediate').catch(() => {});
      await rm(root, { recursive: true, force: true });
      untrackTempDir(root);
    },
  };
}
