/**
 * The settings of `npm start`, read from the environment once at boot. Like each program's config.ts, this is the
 * only file of scripts/ that reads process.env; the rest is handed an Env object.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { setting, type Env } from '../../server-shared/settings.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface StartSettings {
  /** Passed on to loadApiConfig / loadWorkerConfig, with the service URLs that `npm start` decided filled in. */
  env: Env;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  smppUrl: string | undefined;
  /** Set explicitly: then the page is served from there and never built by `npm start`. */
  webRoot: string | undefined;
  /** Where embedded services keep their data (git-ignored). */
  dataDir: string;
  logLevel: string;
  /** The .env file that was read, if any. */
  envFile: string | undefined;
}

/**
 * The environment, completed by ./.env when there is one (what the environment sets wins). ENV_FILE names another
 * file; tests point it at a file that does not exist, so a developer's own .env cannot change what they check.
 */
export function readStartSettings(processEnv: Env = process.env): StartSettings {
  const file = path.resolve(REPO_ROOT, setting(processEnv, 'ENV_FILE') ?? '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : undefined;
  const env: Env = { ...fromFile, ...processEnv };
  const dataDir = setting(env, 'DATA_DIR');
  return {
    envFile: fromFile ? file : undefined,
    env,
    databaseUrl: setting(env, 'DATABASE_URL'),
    redisUrl: setting(env, 'REDIS_URL'),
    smtpUrl: setting(env, 'SMTP_URL'),
    smppUrl: setting(env, 'SMPP_URL'),
    webRoot: setting(env, 'WEB_ROOT'),
    dataDir: dataDir ? path.resolve(dataDir) : path.join(REPO_ROOT, '.data'),
    logLevel: setting(env, 'LOG_LEVEL') ?? 'info',
  };
}

/**
 * The queue's key prefix when QUEUE_PREFIX is unset: one of its own for each database, so two checkouts sharing one
 * Redis never take each other's jobs. Named after the configured DATABASE_URL (without its password) or, for the
 * embedded PostgreSQL, its data folder.
 */
export function derivedQueuePrefix(databaseUrl: string | undefined, dataDir: string): string {
  const source = databaseUrl ? redactUrl(databaseUrl) : path.resolve(dataDir);
  return `converge-${createHash('sha256').update(source).digest('hex').slice(0, 10)}`;
}

/** A path as a person would type it from the current folder: relative when it is below it. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** A connection URL fit for a log line: the password is replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}
