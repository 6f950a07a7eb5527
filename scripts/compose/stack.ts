/** The compose project under test: its commands, its containers and their health, its cleanup. */
import { rmSync } from 'node:fs';
import { COMPOSE_FILE, ENV_FILE, KEEP, NO_ENV_FILE, PROJECT, STACK } from './settings.js';
import { note, run, say, SmokeFailure, step, waitFor, type RunOptions, type RunResult } from './run.js';

export interface Compose {
  label: string;
  command: string;
  prefix: string[];
}

export interface Ports {
  api: number;
  mailpitUi: number;
  mailpitSmtp: number;
  redis: number;
  caldav: number;
}

/** Which compose runs the project (chosen once Docker answers), with what environment and env file. */
export const stack: { compose: Compose | undefined; env: NodeJS.ProcessEnv; envFile: string } = {
  compose: undefined,
  env: process.env,
  envFile: NO_ENV_FILE,
};

export function composeRun(args: string[], options: RunOptions = {}): Promise<RunResult> {
  if (!stack.compose) throw new Error('compose not chosen yet');
  return run(
    stack.compose.command,
    [...stack.compose.prefix, '--env-file', stack.envFile, '-f', COMPOSE_FILE, '-p', PROJECT, ...args],
    {
      env: stack.env,
      ...options,
    },
  );
}

export interface ContainerState {
  id: string;
  name: string;
  service: string;
  status: string;
  health: string | undefined;
  exitCode: number;
}

export async function containers(service?: string): Promise<ContainerState[]> {
  // `ps -a -q` lists stopped containers too; v1 has no -a and lists them anyway.
  const ps = await composeRun([
    'ps',
    ...(stack.compose?.label.startsWith('v2') ? ['-a'] : []),
    '-q',
    ...(service ? [service] : []),
  ]);
  const ids = ps.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (ids.length === 0) return [];
  const inspect = await run('docker', ['inspect', ...ids]);
  const found = JSON.parse(inspect.stdout) as Array<{
    Id: string;
    Name: string;
    Config: { Labels: Record<string, string> };
    State: { Status: string; ExitCode: number; Health?: { Status: string } };
  }>;
  return found.map((c) => ({
    id: c.Id.slice(0, 12),
    name: c.Name.replace(/^\//, ''),
    service: c.Config.Labels['com.docker.compose.service'] ?? '?',
    status: c.State.Status,
    health: c.State.Health?.Status,
    exitCode: c.State.ExitCode,
  }));
}

/** Every container of the project running, and healthy where it has a health check; `expected` counts per service. */
export async function waitHealthy(expected: Record<string, number>, timeoutMs = 240_000): Promise<void> {
  let last = '';
  await waitFor(
    'every service healthy',
    timeoutMs,
    async () => {
      const all = await containers();
      last = all.map((c) => `${c.name}: ${c.status}${c.health ? `/${c.health}` : ''}`).join(', ');
      const ready = Object.entries(expected).every(([service, count]) => {
        const mine = all.filter((c) => c.service === service && c.status === 'running');
        return mine.length === count && mine.every((c) => c.health === undefined || c.health === 'healthy');
      });
      return ready ? true : undefined;
    },
    2000,
  ).catch((err: unknown) => {
    throw new SmokeFailure(`${err instanceof Error ? err.message : String(err)}; last seen: ${last}`);
  });
  note(last);
}

export async function upAndHealthy(): Promise<void> {
  await composeRun(['up', '--build', '-d'], { timeoutMs: 900_000 });
  await waitHealthy(STACK);
}

export async function logsOf(containerId: string): Promise<string> {
  const logs = await run('docker', ['logs', containerId]);
  return `${logs.stdout}\n${logs.stderr}`;
}

export async function showLogs(): Promise<void> {
  if (!stack.compose) return;
  const logs = await composeRun(['logs', '--no-color', '--tail', '30'], {
    allowFailure: true,
    timeoutMs: 60_000,
  }).catch(() => undefined);
  if (logs) say(`\n--- the services' last log lines ---\n${`${logs.stdout}${logs.stderr}`.trim()}\n---`);
}

export let cleaning: Promise<void> | undefined;
export function cleanUp(): Promise<void> {
  if (!stack.compose) return Promise.resolve();
  if (KEEP) {
    say(
      `\nCOMPOSE_SMOKE_KEEP=1: the stack stays up; remove it with: ${stack.compose.command} ${stack.compose.prefix.join(' ')} -p ${PROJECT} down -v`,
    );
    return Promise.resolve();
  }
  cleaning ??= step('down -v (always)', async () => {
    await composeRun(['down', '-v', '--remove-orphans', '-t', '5'], { timeoutMs: 120_000 });
    // The env file holds the .env cases' secrets.
    rmSync(ENV_FILE, { force: true });
    rmSync(NO_ENV_FILE, { force: true });
  }).catch((err: unknown) => {
    say(`cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
  });
  return cleaning;
}
