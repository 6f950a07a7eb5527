/** The smoke test's output (steps, notes, the log file) and the commands it runs, each bounded. */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { REPO_ROOT } from '../dev-services/config.js';
import { LOG_FILE } from './settings.js';

// --- output and processes --------------------------------------------------------------------------------------------

export const startedAt = Date.now();
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const say = (line: string) => process.stdout.write(`${line}\n`);
export const note = (line: string) => say(`      ${line}`);

export class SmokeFailure extends Error {}
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new SmokeFailure(message);
}

export async function step<T>(title: string, body: () => Promise<T>): Promise<T> {
  const begun = Date.now();
  say(`\n==> [${seconds(begun - startedAt).padStart(8)}] ${title}`);
  logLine(`\n==> ${title}`);
  const result = await body();
  say(`    ok in ${seconds(Date.now() - begun)}`);
  return result;
}

export function logLine(text: string): void {
  appendFileSync(LOG_FILE, text.endsWith('\n') ? text : `${text}\n`);
}

export const children = new Set<ChildProcess>();

export interface RunOptions {
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Resolve with the exit code instead of failing on a non-zero one. */
  allowFailure?: boolean;
  /** Echo the output lines that match (a long build's headings) to this terminal; all of it goes to the log file. */
  echo?: RegExp;
  /** The output is a secret: kept from the log file. */
  secretOutput?: boolean;
}
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (bounded), output kept for the caller and written to the log file. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const { timeoutMs = 120_000, env = process.env, allowFailure = false, echo, secretOutput = false } = options;
  const show = (chunk: Buffer) => {
    if (!echo) return;
    for (const line of chunk.toString().split('\n')) if (echo.test(line)) say(`      ${line.trim()}`);
  };
  logLine(`$ ${command} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      logLine(secretOutput ? '(a secret: not logged)' : chunk.toString());
      show(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      logLine(chunk.toString());
      show(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new SmokeFailure(`${command}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const exit = code ?? 128;
      if (exit !== 0 && !allowFailure) {
        const why = signal === 'SIGKILL' ? `killed after ${seconds(timeoutMs)}` : `exit code ${exit}`;
        const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
        reject(new SmokeFailure(`\`${command} ${args.join(' ')}\` failed (${why}):\n${tail}`));
      } else {
        resolve({ code: exit, stdout, stderr });
      }
    });
  });
}

export const succeeds = async (command: string, args: string[], timeoutMs = 30_000) =>
  (await run(command, args, { allowFailure: true, timeoutMs }).catch(() => ({ code: 1 }))).code === 0;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value (not undefined) or the time is up; `describe` says what was awaited. */
export async function waitFor<T>(
  describe: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  everyMs = 1000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline)
      throw new SmokeFailure(
        `timed out after ${seconds(timeoutMs)} waiting for ${describe}${lastError ? ` (${lastError})` : ''}`,
      );
    await sleep(everyMs);
  }
}
