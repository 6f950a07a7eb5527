/** Docker itself: installed and running, Compose v1 or v2, and the base images pulled or built as stand-ins. */
import { spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../dev-services/config.js';
import { check, note, run, SmokeFailure, succeeds, waitFor } from './run.js';
import { COMPOSE_FILE, STANDINS_PATH } from './settings.js';
import type { Compose } from './stack.js';

export async function ensureDocker(): Promise<void> {
  const has = (program: string) => succeeds('sh', ['-c', `command -v ${program}`]);
  const daemonAnswers = () => succeeds('docker', ['info'], 20_000);
  const packages: string[] = [];
  if (!(await has('docker')) || (!(await daemonAnswers()) && !(await has('dockerd')))) packages.push('docker.io');
  if (!(await has('docker-compose')) && !(await succeeds('docker', ['compose', 'version'])))
    packages.push('docker-compose');
  if (packages.length > 0) {
    check(
      process.getuid?.() === 0,
      `${packages.join(' and ')} missing, and only root can install them: apt-get install -y ${packages.join(' ')}`,
    );
    note(`installing ${packages.join(', ')} (apt-get)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await run('apt-get', ['update', '-qq'], { env, timeoutMs: 300_000 });
    await run('apt-get', ['install', '-y', '-qq', ...packages], { env, timeoutMs: 600_000 });
  }
  if (!(await daemonAnswers())) {
    const log = path.join(tmpdir(), 'dockerd.log');
    note(`no Docker daemon answers: starting dockerd in the background (log: ${log})`);
    const out = openSync(log, 'a');
    spawn('dockerd', [], { detached: true, stdio: ['ignore', out, out] }).unref();
    await waitFor('dockerd to answer', 60_000, async () => ((await daemonAnswers()) ? true : undefined));
  }
  const server = await run('docker', ['version', '--format', '{{.Server.Version}}']);
  note(`Docker daemon ${server.stdout.trim()}`);
}

export async function chooseCompose(): Promise<Compose> {
  if (await succeeds('docker', ['compose', 'version']))
    return { label: 'v2 (docker compose)', command: 'docker', prefix: ['compose'] };
  if (await succeeds('docker-compose', ['version']))
    return { label: 'v1 (docker-compose)', command: 'docker-compose', prefix: [] };
  throw new SmokeFailure('neither `docker compose` nor `docker-compose` works');
}

/** The images the stack is built from: compose's image: lines (services not built here) and the built ones' bases. */
export function baseImages(): string[] {
  const file = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as {
    services: Record<string, { image?: string; build?: { context: string; dockerfile?: string } }>;
  };
  const images = new Set<string>();
  for (const service of Object.values(file.services)) {
    if (service.build)
      for (const base of dockerfileBases(
        path.join(REPO_ROOT, service.build.context, service.build.dockerfile ?? 'Dockerfile'),
      ))
        images.add(base);
    else if (service.image) images.add(service.image);
  }
  return [...images];
}

/** A Dockerfile's base images: its FROM lines with their ARG defaults put in, but for its own earlier stages. */
export function dockerfileBases(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const args = new Map([...text.matchAll(/^ARG (\w+)=(\S+)/gm)].map((match) => [match[1]!, match[2]!]));
  const stages = new Set<string>();
  const bases: string[] = [];
  for (const [, from, stage] of text.matchAll(/^FROM (\S+)(?: AS (\S+))?/gim)) {
    const image = from!.replace(/\$\{(\w+)\}/g, (_match, name: string) => args.get(name) ?? '');
    check(
      image !== '' && !image.includes('$'),
      `${path.relative(REPO_ROOT, file)}: FROM ${from} names no image (an ARG without a default?)`,
    );
    if (!stages.has(image)) bases.push(image);
    if (stage) stages.add(stage);
  }
  return bases;
}

/** The stand-ins script: named by STANDINS_SCRIPT, or in shared/ beside this checkout, a folder above it, or its origin. */
export async function findStandinsScript(): Promise<string | undefined> {
  if (process.env.STANDINS_SCRIPT)
    return existsSync(process.env.STANDINS_SCRIPT) ? process.env.STANDINS_SCRIPT : undefined;
  const roots: string[] = [];
  for (let dir = path.dirname(REPO_ROOT); ; dir = path.dirname(dir)) {
    roots.push(dir);
    if (dir === path.dirname(dir)) break;
  }
  // A clone made from a checkout on this machine (git clone /path/to/main) names it as its origin.
  const origin = await run('git', ['-C', REPO_ROOT, 'remote', 'get-url', 'origin'], {
    allowFailure: true,
    timeoutMs: 10_000,
  });
  const originPath = origin.stdout.trim().replace(/^file:\/\//, '');
  if (origin.code === 0 && path.isAbsolute(originPath)) roots.push(path.dirname(originPath));
  return roots.map((root) => path.join(root, STANDINS_PATH)).find((candidate) => existsSync(candidate));
}

export async function ensureBaseImages(): Promise<void> {
  const missing: string[] = [];
  for (const image of baseImages()) if (!(await succeeds('docker', ['image', 'inspect', image]))) missing.push(image);
  if (missing.length === 0) {
    note('all present');
    return;
  }
  for (const image of missing) {
    note(`docker pull ${image}`);
    if (!(await succeeds('docker', ['pull', image], 300_000))) {
      const script = await findStandinsScript();
      check(script, `no ${STANDINS_PATH} beside this checkout or its origin, and STANDINS_SCRIPT is not set`);
      note(`Docker Hub did not deliver ${image}: building local stand-ins with ${script}`);
      if (!(await succeeds('sh', ['-c', 'command -v debootstrap']))) {
        await run('apt-get', ['install', '-y', '-qq', 'debootstrap'], {
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
          timeoutMs: 300_000,
        });
      }
      // Its headings (==>) and notes (4 spaces in) here, the rest in the log file.
      await run('bash', [script], { timeoutMs: 900_000, echo: /^(==> | {4}\S)/ });
      return;
    }
  }
}
