/** What reaches compose: a clean clone's nothing-but-ports, then an operator's env file. */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_BOOKING_TIME_ZONE } from '../../domain/booking.js';
import { REPO_ROOT } from '../dev-services/config.js';
import { freePort } from '../dev-services/ports.js';
import { note } from './run.js';
import { ENV_FILE, NO_ENV_FILE, POSTGRES_PASSWORD, PROJECT } from './settings.js';
import { stack, type Ports } from './stack.js';

/** Every setting .env.example documents: none of them may reach the clean clone's compose from this shell. */
export function documentedSettings(): Set<string> {
  const example = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');
  return new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
}

/** A clean clone's settings: nothing but free host ports (this machine may run other stacks), and no .env. */
export async function cleanCloneSettings(): Promise<Ports> {
  const ports = {
    api: await freePort(),
    mailpitUi: await freePort(),
    mailpitSmtp: await freePort(),
    redis: await freePort(),
    caldav: await freePort(),
  };
  const documented = documentedSettings();
  stack.env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !documented.has(key))),
    // The classic builder: it needs no buildx plugin, and it builds FROM local (stand-in) images without asking a registry.
    DOCKER_BUILDKIT: process.env.DOCKER_BUILDKIT ?? '0',
    API_PORT: String(ports.api),
    MAILPIT_UI_PORT: String(ports.mailpitUi),
    MAILPIT_SMTP_PORT: String(ports.mailpitSmtp),
    REDIS_HOST_PORT: String(ports.redis),
    CALDAV_HOST_PORT: String(ports.caldav),
  };
  writeFileSync(NO_ENV_FILE, '');
  stack.envFile = NO_ENV_FILE;
  note(
    `project ${PROJECT}; API on 127.0.0.1:${ports.api}, Mailpit on 127.0.0.1:${ports.mailpitUi}; no .env, no setting but the host ports`,
  );
  return ports;
}

export interface EnvCase {
  adminToken: string;
  linkSecret: string;
}

/** The .env cases: an env file as an operator writes one, with secrets of its own and a password full of URL syntax. */
export function envFileSettings(ports: Ports): EnvCase {
  const chosen = { adminToken: randomBytes(24).toString('hex'), linkSecret: randomBytes(32).toString('hex') };
  const settings = {
    POSTGRES_USER: 'converge',
    POSTGRES_PASSWORD,
    POSTGRES_DB: 'converge',
    ADMIN_TOKEN: chosen.adminToken,
    BOOKING_LINK_SECRET: chosen.linkSecret,
    PUBLIC_URL: `http://127.0.0.1:${ports.api}`,
    BOOKING_TIME_ZONE: DEFAULT_BOOKING_TIME_ZONE,
    // Every booking comes from this one client address: no per-client limit. The per-recipient ceilings stay as
    // shipped; each booking has an address and a domain of its own. One booking per slot.
    DEMO_REQUESTS_PER_HOUR: '0',
    BOOKINGS_PER_EMAIL_PER_DAY: '3',
    BOOKINGS_PER_DOMAIN_PER_DAY: '20',
    SLOT_CAPACITY: '1',
    TRUST_PROXY: '0',
    WORKER_CONCURRENCY: '5',
    LOG_LEVEL: 'info',
  };
  // Single quotes: compose v1 and v2 both take the value as it is, # and all.
  writeFileSync(
    ENV_FILE,
    Object.entries(settings)
      .map(([key, value]) => `${key}='${value}'\n`)
      .join(''),
    { mode: 0o600 },
  );
  stack.envFile = ENV_FILE;
  note(
    `${path.relative(REPO_ROOT, ENV_FILE)}: POSTGRES_PASSWORD=${POSTGRES_PASSWORD}, a BOOKING_LINK_SECRET and an ADMIN_TOKEN of its own`,
  );
  return chosen;
}
