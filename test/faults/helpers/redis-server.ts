/**
 * A redis-server of the test's own, started as a child process on a loopback port with no persistence, so that
 * SIGKILL and a restart on the same port bring it back empty.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../../scripts/dev-services/ports.js';
import { redisAnswers } from '../../../scripts/dev-services/redis.js';
import { trackChild, untrackChild } from './cleanup.js';
import { delay } from './wait.js';

export interface TestRedis {
  port: number;
  url: string;
  pid: number;
  /** Ends the server with the signal (SIGKILL by default) and waits until the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startRedis(port?: number): Promise<TestRedis> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(chosen),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      '/tmp',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const pid = child.pid ?? 0;
  trackChild(pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${chosen}`;

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (await redisAnswers(url, 500)) break;
    const failed = await Promise.race([spawnError, delay(100).then(() => undefined)]);
    if (failed)
      throw new Error(
        `redis-server could not be started (${failed.message}); install it (apt-get install redis-server)`,
      );
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      untrackChild(pid);
      throw new Error(`redis-server on port ${chosen} did not answer within 10 s:\n${output.join('')}`);
    }
  }

  return {
    port: chosen,
    url,
    pid,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      untrackChild(pid);
    },
  };
}
