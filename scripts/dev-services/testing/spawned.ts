/**
 * For tests: a real program started as a child process, as an operator would start it, with its JSON log lines
 * parsed so a test can wait for what the program says and read what it said.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from '../config.js';
import { availableSlots, calendarDayOf } from '../../../domain/booking.js';

export interface LogLine {
  level: number;
  name?: string;
  msg: string;
  [key: string]: unknown;
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  logs: LogLine[];
  /** Everything printed that was not a JSON log line (a stack trace, say). */
  otherOutput: string[];
  waitForLog(matches: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code (or the signal's name) when the process has ended. */
  exited: Promise<number | string>;
  isRunning(): boolean;
}

/** Settings a developer's shell may carry; the tests set the ones they mean, and no others. */
const APP_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'PORT',
  'HOST',
  'QUEUE_PREFIX',
  'MAIL_FROM',
  'BOOKING_TIME_ZONE',
  'PUBLIC_URL',
  'WEB_ROOT',
  'ADMIN_TOKEN',
  'BOOKING_LINK_SECRET',
  'LOG_LEVEL',
  'WORKER_CONCURRENCY',
  'DATA_DIR',
  'ENV_FILE',
  'WEBHOOK_URL',
  'WEBHOOK_SECRET',
  'WEBHOOK_ALLOW_PRIVATE',
];

/**
 * Runs `node --import tsx <entry> ...args`, or with `wrapper`, `<wrapper.command> ...wrapper.args <entry> ...args`
 * (a program that in turn starts the entry point, such as unshare).
 */
export function spawnProgram(
  entry: string,
  env: Record<string, string>,
  args: string[] = [],
  wrapper?: { command: string; args: string[] },
): Spawned {
  const inherited = { ...process.env };
  for (const name of APP_VARIABLES) delete inherited[name];
  const [command, argv] = wrapper
    ? [wrapper.command, [...wrapper.args, entry, ...args]]
    : [process.execPath, ['--import', 'tsx', entry, ...args]];
  const child = spawn(command, argv, {
    cwd: REPO_ROOT,
    env: { ...inherited, LOG_LEVEL: 'info', ENV_FILE: '/nonexistent/.env', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const otherOutput: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (stream: NodeJS.ReadableStream) => {
    let pending = '';
    stream.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        try {
          logs.push(JSON.parse(line) as LogLine);
        } catch {
          if (line.trim()) otherOutput.push(line);
        }
      }
      for (const wake of waiters) wake();
    });
  };
  if (child.stdout) collect(child.stdout);
  if (child.stderr) collect(child.stderr);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(code ?? signal ?? 'unknown');
      for (const wake of waiters) wake();
    });
  });
  return {
    child,
    pid: child.pid ?? 0,
    logs,
    otherOutput,
    exited,
    isRunning: () => child.exitCode === null && child.signalCode === null,
    waitForLog(matches, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = logs.find(matches);
          if (found) {
            finish();
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            finish();
            reject(
              new Error(
                `the process ended (${child.exitCode ?? child.signalCode}) before the log line awaited.\n${describe()}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`log line not seen within ${timeoutMs} ms.\n${describe()}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };

  function describe(): string {
    return [...logs.map((line) => `${line.name ?? ''}: ${line.msg}`), ...otherOutput].slice(-30).join('\n');
  }
}

/** Milliseconds until the process ends, or a failure naming the limit. */
export async function timeToExit(spawned: Spawned, limitMs: number): Promise<{ code: number | string; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      spawned.child.kill('SIGKILL');
      reject(new Error(`the process did not exit within ${limitMs} ms`));
    }, limitMs);
  });
  try {
    const code = await Promise.race([spawned.exited, limit]);
    return { code, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** A slot the API accepts now: a weekday hour in the booking window, a few days ahead. */
export function bookableSlot(timeZone = 'Europe/Berlin'): string {
  const now = new Date();
  for (let day = 1; day < 14; day += 1) {
    const slots = availableSlots(calendarDayOf(new Date(now.getTime() + day * 86_400_000), timeZone), now, timeZone);
    const slot = slots[2] ?? slots[0];
    if (slot) return slot.iso;
  }
  throw new Error('no bookable slot in the next two weeks');
}

export function demoRequestBody(): Record<string, string> {
  return {
    name: 'Grace Hopper',
    email: 'grace@compilers-inc.com',
    company: 'Compilers Inc',
    timeSlot: bookableSlot(),
    message: 'We want WhatsApp and RCS next to SMS.',
  };
}
