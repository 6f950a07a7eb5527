/**
 * Redis for `npm start` when REDIS_URL is unset: the one on 127.0.0.1:6379 if it answers, else a redis-server from
 * the PATH started for the app with its data under .data/redis, else a message saying how to get one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { freePort, isAlive, waitForExit } from './ports.js';
import { StartupError } from './startup-error.js';

export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';

export const NO_REDIS_MESSAGE = [
  'Redis is needed for the confirmation queue, and none was found:',
  '  - REDIS_URL is not set,',
  '  - nothing answers PING on 127.0.0.1:6379,',
  '  - and there is no redis-server on the PATH to start one.',
  'Get one of these and run npm start again:',
  '  - Debian/Ubuntu: sudo apt-get install redis-server   (macOS: brew install redis)',
  '  - with Docker: docker compose up -d redis, then: REDIS_URL=redis://127.0.0.1:6380 npm start',
  '  - or point REDIS_URL at a Redis you already have.',
].join('\n');

/**
 * True when a Redis at this URL answers PING. With `acceptRefusal`, a Redis that wants a password (-NOAUTH) counts:
 * one named by REDIS_URL carries its password in the URL, the unnamed local one would not.
 */
export function redisAnswers(url: string, timeoutMs = 1000, acceptRefusal = false): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    let reply = '';
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG') || (acceptRefusal && reply.startsWith('-NOAUTH')));
    });
  });
}

export interface SpawnedRedis {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function stopLeftover(pidFile: string, log: Logger): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(pidFile, 'utf8')).trim());
  } catch {
    return;
  }
  if (!(pid > 0) || !isAlive(pid)) return;
  // Only a redis-server: the pid may have been reused by an unrelated process since.
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('redis-server')) return;
  log.warn({ pid }, 'stopping the redis-server an earlier run left behind');
  process.kill(pid, 'SIGTERM');
  await waitForExit(pid, 5000);
}

export async function startRedisServer(options: {
  dataDir: string;
  logger: Logger;
  command?: string;
}): Promise<SpawnedRedis> {
  const dir = path.join(options.dataDir, 'redis');
  const log = options.logger.child({ service: 'redis' });
  await mkdir(dir, { recursive: true });
  const pidFile = path.join(dir, 'redis.pid');
  const logFile = path.join(dir, 'redis.log');
  await stopLeftover(pidFile, log);
  const port = await freePort();

  const child: ChildProcess = spawn(
    options.command ?? 'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--pidfile',
      pidFile,
      '--logfile',
      logFile,
      '--daemonize',
      'no',
      // The same durability as in docker-compose.yml: queued confirmations survive a restart, none is evicted.
      '--appendonly',
      'yes',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
    ],
    // Its own process group: a Ctrl-C in the terminal must not stop Redis before the worker has let go of its job.
    { detached: true, stdio: 'ignore' },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const spawnError = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (err) => resolve(err));
  });
  if (spawnError) {
    if (spawnError.code === 'ENOENT') throw new StartupError(NO_REDIS_MESSAGE);
    throw new StartupError(`redis-server could not be started: ${spawnError.message}`);
  }
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);

  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  let running = true;
  void exited.then(() => (running = false));
  while (!(await redisAnswers(url, 500))) {
    if (!running || Date.now() > deadline) {
      child.kill('SIGKILL');
      const tail = existsSync(logFile) ? (await readFile(logFile, 'utf8')).split('\n').slice(-15).join('\n') : '';
      throw new StartupError(`redis-server did not start on port ${port}.\nLast lines of ${logFile}:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  let stopping: Promise<void> | undefined;
  return {
    url,
    pid: child.pid ?? 0,
    stop: () =>
      (stopping ??= (async () => {
        process.removeListener('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      })()),
  };
}
