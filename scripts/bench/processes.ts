/**
 * The bench's child processes (the built API and worker, its helper programs), each stopped by PID when the bench
 * ends, and what it reads of them: their CPU time from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../dev-services/config.js';

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const children = new Set<ChildProcess>();

/**
 * A child process, stopped by PID when the bench ends. With `onLine` its stdout lines go there; without, its output
 * (the programs' JSON logs) is dropped, as a container's log driver would take it away.
 */
export function start(args: string[], env: Record<string, string>, onLine?: (line: string) => void): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', onLine ? 'pipe' : 'ignore', onLine ? 'inherit' : 'ignore'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (onLine && child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
  return child;
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid, 'SIGTERM');
  if (!(await Promise.race([exited.then(() => true), delay(10_000).then(() => false)])))
    process.kill(child.pid, 'SIGKILL');
  await exited;
}

/** Every child process still running. */
export function stopAll(): Promise<void[]> {
  return Promise.all([...children].map(stop));
}

/** Starts a helper program of scripts/bench/ that prints its port as its first line. */
export function startWithPort(
  file: string,
  env: Record<string, string> = {},
  onLine?: (line: string) => void,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    let port: number | undefined;
    const child = start(['--import', 'tsx', path.join(REPO_ROOT, 'scripts', 'bench', file)], env, (line) => {
      if (port === undefined) {
        port = Number(line);
        resolve({ child, port });
      } else onLine?.(line);
    });
    child.once('exit', (code) => port === undefined && reject(new Error(`${file} exited with ${String(code)}`)));
  });
}

export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

/** CPU time (user and system) a process has used so far, in ms, from /proc; undefined where there is none. */
export function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks, counted after the command name's closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
/** Linux's USER_HZ, which /proc/<pid>/stat counts in on every architecture Node.js ships for. */
const CLOCK_TICKS_PER_SECOND = 100;

export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
