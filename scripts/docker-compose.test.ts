/**
 * No Docker engine runs where the tests run, so the operations files are checked as files: docker-compose.yml,
 * docker/Dockerfile and .env.example against what the programs really read (their config loaders, called here).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { parse } from 'yaml';
import pino from 'pino';
import { loadApiConfig } from '../api/config.js';
import { calendarDayOf, slotEnd, slotStartsOf, type CalendarDay } from '../domain/booking.js';
import { HostCalendars } from '../api/hosts/calendars.js';
import { parseTeam } from '../server-shared/hosts/team.js';
import { DEFAULT_SMPP_WINDOW, parseSmsSettings } from '../server-shared/sms-settings.js';
import { until } from '../test/until.js';
import { freePort } from './dev-services/ports.js';
import type { Env } from '../server-shared/settings.js';
import { knexConfig } from '../knexfile.js';
import { loadWorkerConfig } from '../worker/config.js';
import { REPO_ROOT, readStartSettings } from './dev-services/config.js';
import { REQUIRED_SETTINGS, variablesRead } from '../test/settings-read.js';

interface HealthCheck {
  test: string[] | string;
}
interface Service {
  image?: string;
  build?: { context: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: HealthCheck;
  depends_on?: Record<string, { condition: string }>;
  container_name?: string;
  init?: boolean;
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const composeText = readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as Compose;
const dockerfile = readFileSync(path.join(REPO_ROOT, 'docker', 'Dockerfile'), 'utf8');
const caldavDockerfile = readFileSync(path.join(REPO_ROOT, 'docker', 'caldav', 'Dockerfile'), 'utf8');
/** The demo team's file, as docker-compose.yml mounts it into the API and the worker. */
const DEMO_TEAM = 'docker/caldav/demo-team.json';
/** Where the programs' containers see the team file (TEAM_FILE's default under compose). */
const TEAM_PATH = '/etc/converge/team.json';
/** The demo team's password: a placeholder, since the demo CalDAV server checks no logins (docs/docker-compose.md says so). */
const DEMO_PASSWORD = 'demo-calendar-not-checked';
/** The compose SMSC's password: a placeholder, reached inside the compose network only (docs/docker-compose.md says so). */
const SMSC_PASSWORD = 'smsc-compose-only';
const envExample = readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');

function service(name: string): Service {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
}

/**
 * Compose's ${NAME:-default}, ${NAME-default} and ${NAME:?message} interpolation, from `given`. A required one that is not given
 * throws with compose's message, as `docker compose up` stops with it.
 */
function withDefaults(value: string | number, given: Env = {}): string {
  return String(value).replace(
    /\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g,
    (_match, name: string, colon: string | undefined, kind: string | undefined, rest: string | undefined) => {
      if (given[name]) return given[name];
      // ${NAME-default} (no colon): set but empty stays empty.
      if (given[name] === '' && colon === '' && kind === '-') return '';
      if (kind === '?') throw new Error(rest || `${name} is required`);
      return rest ?? '';
    },
  );
}

/** Stand-ins for the `secrets` volume: a program handed compose's SECRETS_DIR as it is would write to this host's /var/lib. */
const volumes = mkdtempSync(path.join(tmpdir(), 'converge-compose-secrets-'));
after(() => rmSync(volumes, { recursive: true, force: true }));
let volumeCount = 0;
function freshVolume(): string {
  return path.join(volumes, `volume-${++volumeCount}`);
}
const sharedVolume = freshVolume();

/**
 * A service's environment, with what the operator gives (by default only the settings the programs require),
 * SECRETS_DIR pointing at `volume`, which stands for the compose volume mounted there, and TEAM_FILE at the file of
 * this checkout that the service's container sees on that path.
 */
function environmentOf(name: string, given: Env = REQUIRED_SETTINGS, volume = sharedVolume): Env {
  const environment: Env = Object.fromEntries(
    Object.entries(service(name).environment ?? {}).map(([key, value]) => [key, withDefaults(value, given)]),
  );
  if (environment.SECRETS_DIR !== undefined) environment.SECRETS_DIR = volume;
  if (environment.TEAM_FILE) environment.TEAM_FILE = boundFile(name, environment.TEAM_FILE) ?? environment.TEAM_FILE;
  return environment;
}

/** The file of this checkout a service's container sees at `target` (a bind mount "./path:target[:ro]"), if any. */
function boundFile(name: string, target: string): string | undefined {
  for (const entry of service(name).volumes ?? []) {
    const [source, mountedOn] = entry.split(':');
    if (mountedOn === target && source?.startsWith('./')) return path.join(REPO_ROOT, source);
  }
  return undefined;
}

/** The folder the `secrets` volume is mounted on in a service's container, as the file says. */
function secretsMount(name: string): string | undefined {
  return (service(name).volumes ?? []).find((entry) => entry.startsWith('secrets:'))?.slice('secrets:'.length);
}

/** The connection node-postgres makes from a program's DATABASE_URL (through knexfile.ts) in that environment. */
function pgConnectionIn(environment: Env, databaseUrl: string): pg.Client {
  const saved = { ...process.env };
  try {
    for (const key of Object.keys(process.env)) if (key.startsWith('PG')) delete process.env[key];
    Object.assign(process.env, Object.fromEntries(Object.entries(environment).filter(([key]) => key.startsWith('PG'))));
    return new pg.Client(knexConfig(databaseUrl).connection as pg.ClientConfig);
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

function healthCommand(name: string): string {
  const test = service(name).healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

/** Container ports a service publishes, from "host:container" or "ip:host:container" entries. */
function containerPorts(name: string): number[] {
  return (service(name).ports ?? []).map((entry) => Number(withDefaults(entry).split(':').at(-1)));
}

describe('docker-compose.yml', () => {
  it('runs exactly postgres, redis, mailpit, caldav, smsc, api and worker', () => {
    expect(Object.keys(compose.services).sort()).to.deep.equal([
      'api',
      'caldav',
      'mailpit',
      'postgres',
      'redis',
      'smsc',
      'worker',
    ]);
  });

  it('keeps PostgreSQL data in a named volume and checks it with pg_isready', () => {
    const postgres = service('postgres');
    expect(postgres.volumes).to.include('postgres-data:/var/lib/postgresql/data');
    expect(compose.volumes).to.have.property('postgres-data');
    expect(healthCommand('postgres')).to.match(/pg_isready/);
  });

  it('runs Redis with AOF persistence, noeviction, a volume and a PING health check', () => {
    const command = (service('redis').command ?? []).join(' ');
    expect(command).to.match(/--appendonly yes/);
    expect(command).to.match(/--maxmemory-policy noeviction/);
    expect(service('redis').volumes).to.include('redis-data:/data');
    expect(healthCommand('redis')).to.match(/redis-cli ping/);
    // Published for npm start on the host, on loopback only and not on 6379, where the host may run its own.
    expect(service('redis').ports).to.deep.equal(['127.0.0.1:${REDIS_HOST_PORT:-6380}:6379']);
  });

  it('publishes Mailpit’s inbox (8025) and SMTP (1025), and checks it is ready', () => {
    expect(containerPorts('mailpit').sort()).to.deep.equal([1025, 8025]);
    expect(healthCommand('mailpit')).to.match(/8025\/readyz/);
  });

  it('migrates then serves the API, on the port it publishes, healthy only when /readyz says so', () => {
    const api = service('api');
    expect(api.command).to.deep.equal(['node', '--import', './dist/api/telemetry.js', 'dist/api/main.js', '--migrate']);
    const config = loadApiConfig(environmentOf('api'));
    expect(config.host).to.equal('0.0.0.0');
    expect(containerPorts('api')).to.deep.equal([config.port]);
    expect(healthCommand('api')).to.include(`http://127.0.0.1:${config.port}/readyz`);
    expect(healthCommand('api')).to.match(/r\.ok \? 0 : 1/);
    expect(api.depends_on).to.deep.equal({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      caldav: { condition: 'service_healthy' },
    });
  });

  it('lets the worker scale: no container name, no published port, started after the API has migrated', () => {
    const worker = service('worker');
    expect(worker.command).to.deep.equal(['node', '--import', './dist/worker/telemetry.js', 'dist/worker/main.js']);
    expect(worker).to.not.have.property('container_name');
    expect(worker).to.not.have.property('ports');
    expect(worker.depends_on?.api).to.deep.equal({ condition: 'service_healthy' });
    expect(worker.depends_on?.postgres).to.deep.equal({ condition: 'service_healthy' });
    expect(worker.depends_on?.redis).to.deep.equal({ condition: 'service_healthy' });
  });

  it('runs the SMSC from the app image, its texts in a volume the image makes node’s, published nowhere, healthy once it takes connections', () => {
    const smsc = service('smsc');
    expect(smsc.command).to.deep.equal(['node', 'dist/smsc/main.js']);
    expect(smsc).to.not.have.property('ports');
    expect(smsc.volumes).to.deep.equal(['smsc-texts:/var/lib/converge-smsc']);
    expect(compose.volumes).to.have.property('smsc-texts');
    expect(withDefaults(smsc.environment?.SMSC_DIR ?? '')).to.equal('/var/lib/converge-smsc');
    const runtime = dockerfile.split(/^FROM /m).at(-1) ?? '';
    expect(runtime).to.match(/mkdir -p \/var\/lib\/converge-smsc\s*\\\s*&& chown node:node \/var\/lib\/converge-smsc/);
    expect(healthCommand('smsc')).to.match(/connect\(2775, '127\.0\.0\.1'\)/);
    expect(service('worker').depends_on?.smsc).to.deep.equal({ condition: 'service_healthy' });
  });

  it('texts through the compose SMSC with nothing set; an operator’s SMPP_URL wins, and set empty there are no texts', () => {
    const smsc = environmentOf('smsc');
    // What both programs parse (each config.ts calls it), in each one's environment.
    for (const name of ['api', 'worker']) {
      expect(parseSmsSettings(environmentOf(name)), name).to.deep.equal({
        host: 'smsc',
        port: 2775,
        systemId: smsc.SMSC_SYSTEM_ID,
        password: smsc.SMSC_PASSWORD,
        from: 'Converge',
        window: DEFAULT_SMPP_WINDOW,
      });
      const own = { ...REQUIRED_SETTINGS, SMPP_URL: 'smpp://acme:s3cret@smsc.example:2776', SMS_FROM: 'Acme' };
      expect(parseSmsSettings(environmentOf(name, own)), name).to.include({ host: 'smsc.example', from: 'Acme' });
      expect(parseSmsSettings(environmentOf(name, { ...REQUIRED_SETTINGS, SMPP_URL: '' })), name).to.equal(undefined);
    }
    expect(loadWorkerConfig(environmentOf('worker')).sms?.host).to.equal('smsc');
  });

  it('builds the API and the worker from the one Dockerfile', () => {
    for (const name of ['api', 'worker', 'smsc']) {
      expect(service(name).build).to.deep.equal({ context: '.', dockerfile: 'docker/Dockerfile' });
      expect(service(name).image).to.equal(service('api').image);
    }
  });

  for (const [name, load] of [
    ['api', loadApiConfig],
    ['worker', loadWorkerConfig],
  ] as const) {
    it(`sets every variable the ${name} reads`, () => {
      const read = variablesRead(load);
      expect(read, 'the recorder saw nothing: the loader no longer reads its env argument').to.include('DATABASE_URL');
      const environment = Object.keys(service(name).environment ?? {});
      expect(read.filter((variable) => !environment.includes(variable))).to.deep.equal([]);
    });
  }

  it('points both programs at the compose services, never at the host’s', () => {
    const api = loadApiConfig(environmentOf('api'));
    const worker = loadWorkerConfig(environmentOf('worker'));
    for (const config of [api, worker]) {
      expect(new URL(config.databaseUrl).hostname).to.equal('postgres');
      expect(new URL(config.redisUrl).hostname).to.equal('redis');
      expect(config.queuePrefix).to.equal(api.queuePrefix);
    }
    expect(new URL(worker.smtpUrl).host).to.equal('mailpit:1025');
    const postgres = environmentOf('postgres');
    const url = new URL(api.databaseUrl);
    expect([url.username, url.pathname.slice(1)]).to.deep.equal([postgres.POSTGRES_USER, postgres.POSTGRES_DB]);
    expect(api.webRoot).to.equal('/app/dist/web');
  });

  // A password in the URL must be percent-encoded, which a ${POSTGRES_PASSWORD} substitution does not do: it goes
  // beside the URL, as PGPASSWORD, which node-postgres reads when the URL has no password.
  for (const password of ['converge', 'p@ss/w:rd#1', 'a%41?b=c&d e\'"\\']) {
    it(`hands both programs the PostgreSQL password as it is (${JSON.stringify(password)})`, () => {
      const given = {
        ...REQUIRED_SETTINGS,
        POSTGRES_USER: 'converge',
        POSTGRES_PASSWORD: password,
        POSTGRES_DB: 'converge',
      };
      expect(environmentOf('postgres', given).POSTGRES_PASSWORD).to.equal(password);
      for (const name of ['api', 'worker']) {
        const environment = environmentOf(name, given);
        expect(new URL(environment.DATABASE_URL ?? '').password, name).to.equal('');
        const client = pgConnectionIn(environment, environment.DATABASE_URL ?? '');
        expect(
          {
            host: client.host,
            port: client.port,
            user: client.user,
            database: client.database,
            password: client.password,
          },
          name,
        ).to.deep.equal({
          host: 'postgres',
          port: 5432,
          user: 'converge',
          database: 'converge',
          password,
        });
      }
    });
  }

  it('keeps the secrets in a named volume that the API and the worker share, on a folder the image makes node’s alone', () => {
    expect(compose.volumes).to.have.property('secrets');
    const folder = String(service('api').environment?.SECRETS_DIR);
    expect(folder).to.match(/^\/var\/lib\//);
    for (const name of ['api', 'worker']) {
      expect(service(name).environment?.SECRETS_DIR, name).to.equal(folder);
      expect(secretsMount(name), name).to.equal(folder);
    }
    // A new volume takes the owner and mode of the image's folder it is mounted on; made before the USER switch (as root).
    const runtime = dockerfile.split(/^FROM /m).at(-1) ?? '';
    const made = runtime.indexOf(`mkdir -p ${folder}`);
    expect(made, 'the runtime stage makes the folder').to.be.greaterThan(-1);
    expect(runtime).to.include(`chown node:node ${folder}`).and.include(`chmod 700 ${folder}`);
    expect(made).to.be.lessThan(runtime.indexOf('USER node'));
    // Never a value in the file itself: the secrets come from .env, the environment or the volume.
    expect(service('api').environment?.BOOKING_LINK_SECRET).to.equal('${BOOKING_LINK_SECRET:-}');
    expect(service('api').environment?.ADMIN_TOKEN).to.equal('${ADMIN_TOKEN:-}');
  });

  it('starts with nothing set: the first program makes the booking-link secret, the API its admin token, and every later start uses them', () => {
    const volume = freshVolume();
    // The worker may be first (the API replicas and the worker start at once when the stack is restarted).
    const worker = loadWorkerConfig(environmentOf('worker', {}, volume));
    const api = loadApiConfig(environmentOf('api', {}, volume));
    expect(worker.bookingLinkSecret).to.match(/^[0-9a-f]{64}$/);
    expect(api.bookingLinkSecret, 'the same secret in both programs').to.equal(worker.bookingLinkSecret);
    expect(api.adminToken)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(api.bookingLinkSecret);
    expect([worker.secretsMade, api.secretsMade]).to.deep.equal([
      [path.join(volume, 'booking-link-secret')],
      [path.join(volume, 'admin-token')],
    ]);
    expect(readdirSync(volume).sort()).to.deep.equal(['admin-token', 'booking-link-secret']);
    for (const file of readdirSync(volume))
      expect(statSync(path.join(volume, file)).mode & 0o777, file).to.equal(0o600);

    const restarted = loadApiConfig(environmentOf('api', {}, volume));
    expect([restarted.bookingLinkSecret, restarted.adminToken]).to.deep.equal([api.bookingLinkSecret, api.adminToken]);
    expect(restarted.secretsMade).to.deep.equal([]);
    expect(loadWorkerConfig(environmentOf('worker', {}, volume)).bookingLinkSecret).to.equal(api.bookingLinkSecret);
  });

  it('lets a BOOKING_LINK_SECRET or ADMIN_TOKEN in .env win over the kept ones, which stay as they are', () => {
    const volume = freshVolume();
    const kept = loadApiConfig(environmentOf('api', {}, volume));
    const given = { BOOKING_LINK_SECRET: 'e'.repeat(64), ADMIN_TOKEN: 'a'.repeat(40) };
    const api = loadApiConfig(environmentOf('api', given, volume));
    expect([api.bookingLinkSecret, api.adminToken]).to.deep.equal([given.BOOKING_LINK_SECRET, given.ADMIN_TOKEN]);
    expect(loadWorkerConfig(environmentOf('worker', given, volume)).bookingLinkSecret).to.equal(
      given.BOOKING_LINK_SECRET,
    );
    expect(readFileSync(path.join(volume, 'booking-link-secret'), 'utf8').trim()).to.equal(kept.bookingLinkSecret);
    expect(api.previousLinkSecrets, 'no grace period unless asked for').to.deep.equal([]);
  });

  it('keeps links signed before a rotation open: BOOKING_LINK_PREVIOUS_SECRETS, else the volume’s booking-link-previous-secrets', () => {
    const volume = freshVolume();
    const before = loadApiConfig(environmentOf('api', {}, volume)).bookingLinkSecret;
    // The rotation as docs/secrets.md tells it: the old secret appended to the list, its file removed, a new one made.
    writeFileSync(path.join(volume, 'booking-link-previous-secrets'), `${before}\n`);
    rmSync(path.join(volume, 'booking-link-secret'));
    const rotated = loadApiConfig(environmentOf('api', {}, volume));
    expect(rotated.bookingLinkSecret)
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(before);
    expect(rotated.previousLinkSecrets).to.deep.equal([before]);
    expect(
      loadWorkerConfig(environmentOf('worker', {}, volume)).bookingLinkSecret,
      'the worker signs with the new one',
    ).to.equal(rotated.bookingLinkSecret);
    const other = 'p'.repeat(64);
    expect(
      loadApiConfig(environmentOf('api', { BOOKING_LINK_PREVIOUS_SECRETS: `${other}, ${before}` }, volume))
        .previousLinkSecrets,
    ).to.deep.equal([other, before]);
    expect(() => loadApiConfig(environmentOf('api', { BOOKING_LINK_PREVIOUS_SECRETS: 'short' }, volume))).to.throw(
      'BOOKING_LINK_PREVIOUS_SECRETS must be at least 32 characters long (it has 5)',
    );
  });

  it('runs the demo team’s calendars: Debian’s xandikos, FROM debian:bookworm-slim, non-root, a volume, healthy once they answer', () => {
    const caldav = service('caldav');
    expect(caldav.build).to.deep.equal({ context: 'docker/caldav' });
    expect(caldav.image).to.be.a('string').and.not.equal(service('api').image);
    expect([...caldavDockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1])).to.deep.equal([
      'debian:bookworm-slim',
    ]);
    expect(caldavDockerfile).to.match(/apt-get install -y --no-install-recommends xandikos tini/);
    const user = /^USER (\S+)/m.exec(caldavDockerfile)?.[1];
    expect(user).to.be.a('string').and.not.be.oneOf(['root', '0']);
    // The data folder is made (and given to that user) before the switch; a new volume mounted there takes it over.
    const folder = caldav.volumes?.find((entry) => entry.startsWith('caldav-data:'))?.slice('caldav-data:'.length);
    expect(folder).to.equal('/var/lib/converge-caldav');
    expect(compose.volumes).to.have.property('caldav-data');
    expect(caldavDockerfile).to.include(`chown ${user}:${user} ${folder}`);
    expect(caldavDockerfile.indexOf(`mkdir -p ${folder}`))
      .to.be.greaterThan(-1)
      .and.lessThan(caldavDockerfile.indexOf(`USER ${user}`));
    expect(caldavDockerfile).to.match(/ENTRYPOINT \["\/usr\/bin\/tini", "--"\]/);
    expect(containerPorts('caldav')).to.deep.equal([8000]);
    expect(healthCommand('caldav')).to.include("'http://127.0.0.1:8000/user/calendars/', method='PROPFIND'");
    expect(service('api').depends_on?.caldav).to.deep.equal({ condition: 'service_healthy' });
  });

  it('publishes nothing on other addresses than 127.0.0.1 but the site', () => {
    for (const [name, { ports = [] }] of Object.entries(compose.services)) {
      if (name === 'api') continue;
      for (const entry of ports) expect(entry, name).to.match(/^127\.0\.0\.1:/);
    }
  });

  it('gives the API and the worker the demo team: TEAM_FILE set, the file mounted read-only, three hosts in the compose calendars', () => {
    for (const name of ['api', 'worker']) {
      expect(service(name).environment?.TEAM_FILE, name).to.equal(`\${TEAM_FILE-${TEAM_PATH}}`);
      expect(service(name).volumes, name).to.include(`./${DEMO_TEAM}:${TEAM_PATH}:ro`);
    }
    const team = loadApiConfig(environmentOf('api')).team?.hosts;
    expect(team?.map((host) => host.name)).to.have.length(3);
    for (const host of team ?? []) {
      const url = new URL(host.calendarUrl);
      expect(url.host, host.name).to.equal(`caldav:${containerPorts('caldav')[0]}`);
      expect(url.pathname, host.name).to.match(/^\/user\/calendars\/[a-z-]+\/$/);
      expect(host.title, host.name).to.not.equal('');
    }
    // The demo shows each option: a daily limit or none, different weights, working hours in two zones or none.
    expect(new Set(team?.map((host) => host.dailyLimit)).size).to.equal(3);
    expect(new Set(team?.map((host) => host.weight)).size).to.equal(3);
    expect(new Set(team?.map((host) => host.workingHours?.timeZone)).size).to.equal(3);
  });

  it('lets the operator turn hosts off (TEAM_FILE empty) or name another file', () => {
    expect(loadApiConfig(environmentOf('api', { ...REQUIRED_SETTINGS, TEAM_FILE: '' })).team).to.equal(undefined);
    expect(() =>
      loadApiConfig(environmentOf('api', { ...REQUIRED_SETTINGS, TEAM_FILE: '/etc/converge/elsewhere.json' })),
    ).to.throw('TEAM_FILE /etc/converge/elsewhere.json cannot be read');
  });

  it('holds no secret: secret settings come from .env or the environment, the demo team’s and the SMSC’s passwords are the placeholders docs/docker-compose.md names', () => {
    for (const [name, { environment = {} }] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(environment)) {
        if (!/(PASSWORD|SECRETS?|TOKEN|PRIVATE_KEY)$/.test(key)) continue;
        if (name === 'smsc' && key === 'SMSC_PASSWORD') expect(value).to.equal(SMSC_PASSWORD);
        else expect(String(value), `${name}: ${key}`).to.match(/^\$\{[A-Z][A-Z0-9_]*:-[^}$]*\}$/);
      }
    }
    expect(caldavDockerfile, 'no ENV or ARG in the CalDAV image').to.not.match(/^(ENV|ARG) /m);
    const hosts = (
      JSON.parse(readFileSync(path.join(REPO_ROOT, DEMO_TEAM), 'utf8')) as { hosts: Array<Record<string, unknown>> }
    ).hosts;
    for (const host of hosts) expect(host.calendarPassword, String(host.name)).to.equal(DEMO_PASSWORD);
    const docs = readFileSync(path.join(REPO_ROOT, 'docs', 'docker-compose.md'), 'utf8');
    expect(docs).to.include(DEMO_PASSWORD);
    expect(docs).to.include(SMSC_PASSWORD);
  });

  it('has no top-level name: (Compose v1 refuses the file); .env.example names the project', () => {
    expect(Object.keys(parse(composeText) as object)).to.not.include('name');
    expect(envExample).to.match(/^COMPOSE_PROJECT_NAME=converge$/m);
  });

  for (const [label, command, prefix] of [
    ['docker compose (v2)', 'docker', ['compose']],
    ['docker-compose (v1)', 'docker-compose', []],
  ] as const) {
    it(`is accepted by \`${label} config\` where it is installed`, function () {
      try {
        execFileSync(command, [...prefix, 'version'], { stdio: 'ignore' });
      } catch {
        this.skip();
      }
      const file = path.join(REPO_ROOT, 'docker-compose.yml');
      // A clean clone: no .env (an empty one in its place, so that a developer's own is not read) and no setting of
      // ours in the environment. Then with .env.example copied to .env as it is.
      const empty = path.join(volumes, 'empty.env');
      writeFileSync(empty, '');
      const ours = new Set([...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
      const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !ours.has(key)));
      for (const envFile of [empty, path.join(REPO_ROOT, '.env.example')]) {
        execFileSync(command, [...prefix, '--env-file', envFile, '-f', file, 'config', '--quiet'], {
          stdio: 'pipe',
          cwd: REPO_ROOT,
          env,
        });
      }
    });
  }
});

describe('.env.example', () => {
  const documented = new Set([...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));

  it('documents every variable the API and the worker read', () => {
    const read = [...new Set([...variablesRead(loadApiConfig), ...variablesRead(loadWorkerConfig)])];
    expect(read.filter((variable) => !documented.has(variable))).to.deep.equal([]);
  });

  it('documents every variable docker-compose.yml takes from the environment', () => {
    const used = [...new Set([...composeText.matchAll(/\$\{(\w+)/g)].map((match) => match[1]))];
    expect(used.length).to.be.greaterThan(5);
    expect(used.filter((variable) => !documented.has(variable))).to.deep.equal([]);
  });

  it("copied to .env, sets nothing npm start reads: every setting is commented out but compose's project name", () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'converge-env-'));
    try {
      const copy = path.join(folder, '.env');
      writeFileSync(copy, envExample);
      // What npm start reads from the copy, beside an empty environment.
      expect(readStartSettings({ ENV_FILE: copy }).env).to.deep.equal({
        ENV_FILE: copy,
        COMPOSE_PROJECT_NAME: 'converge',
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('shows values the programs accept, each line uncommented as it is, and says how to make the secret', () => {
    const values = commentedSettings(envExample);
    expect(Object.keys(values).length).to.be.greaterThan(40);
    expect(values.BOOKING_LINK_SECRET, 'no shared default secret').to.equal('');
    expect(envExample).to.match(/openssl rand -hex 32/);
    // The secrets are left to be made (the webhook endpoint's too, so its example URL stays out), and the files and
    // folders named are this machine's to have or not.
    const {
      BOOKING_LINK_SECRET,
      ADMIN_TOKEN,
      WEBHOOK_URL,
      DKIM_PRIVATE_KEY,
      DKIM_PRIVATE_KEY_FILE,
      TEAM_FILE,
      SECRETS_DIR,
      ...shown
    } = values;
    const left = [
      BOOKING_LINK_SECRET,
      ADMIN_TOKEN,
      WEBHOOK_URL,
      DKIM_PRIVATE_KEY,
      DKIM_PRIVATE_KEY_FILE,
      TEAM_FILE,
      SECRETS_DIR,
    ];
    expect(left.every((value) => value !== undefined)).to.equal(true);
    expect(() => loadApiConfig({ ...shown, ...REQUIRED_SETTINGS })).to.not.throw();
    // The DKIM key is an example to replace (a key shortened with "..."): the worker takes the other lines.
    expect(() =>
      loadWorkerConfig({ ...shown, DKIM_DOMAIN: '', DKIM_SELECTOR: '', ...REQUIRED_SETTINGS }),
    ).to.not.throw();
  });
});

/** The settings a `# NAME=value` line shows, as uncommenting it would set them. */
function commentedSettings(text: string): Env {
  return Object.fromEntries([...text.matchAll(/^# ([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
}

describe('docker/Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1) ?? '';

  it('builds in one stage and runs in a slim one', () => {
    expect(stages).to.have.length(2);
    expect(stages[0]).to.match(/RUN npm run build/);
    expect(dockerfile).to.match(/ARG NODE_IMAGE=node:20[\d.]*-\w+-slim/);
    expect(runtime).to.match(/COPY --from=build \/app\/dist \.\/dist/);
  });

  it("installs the lock's versions with npm ci, production dependencies only in the runtime", () => {
    expect(runtime).to.match(/RUN npm ci --omit=dev/);
    expect(dockerfile).to.not.match(/^RUN .*\bnpm install\b/m);
  });

  it('runs as a non-root user under an init process', () => {
    const user = /^USER (\S+)/m.exec(runtime)?.[1];
    expect(user).to.be.a('string').and.not.be.oneOf(['root', '0']);
    expect(runtime).to.match(/ENTRYPOINT \["\/usr\/bin\/tini", "--"\]/);
    expect(runtime).to.match(/apt-get install -y --no-install-recommends tini/);
  });

  // npm run typecheck reads tsconfig.json; the image compiles with tsconfig.build.json, whose own settings (lib, say)
  // can refuse what the first accepts, and then only `docker build` would tell.
  it('compiles with the production build’s settings (tsconfig.build.json)', function () {
    this.timeout(60_000);
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', path.join(REPO_ROOT, 'tsconfig.build.json'), '--noEmit'], {
      stdio: 'pipe',
      cwd: REPO_ROOT,
    });
  });

  it('starts programs the production build compiles', () => {
    const build = JSON.parse(readFileSync(path.join(REPO_ROOT, 'tsconfig.build.json'), 'utf8')) as {
      compilerOptions: { outDir: string };
      include: string[];
    };
    expect(build.compilerOptions.outDir).to.equal('dist');
    // The three services, the migration step the Kubernetes Job and the API's init container run from the image, and
    // the phone's reply docs/docker-compose.md runs in the SMSC's container.
    // Each program's entry and the tracing entry loaded before it (`--import`).
    const programFiles = (name: string) =>
      (service(name).command ?? []).filter((part) => /^(\.\/)?dist\/.*\.js$/.test(part));
    const entries = [
      ...programFiles('api'),
      ...programFiles('worker'),
      ...programFiles('smsc'),
      'dist/api/migrate.js',
      'dist/smsc/reply.js',
    ];
    expect(entries).to.have.length(7);
    for (const entry of entries) {
      const source = entry.replace(/^(\.\/)?dist\//, '').replace(/\.js$/, '.ts');
      expect(existsSync(path.join(REPO_ROOT, source)), source).to.equal(true);
      expect(build.include).to.include(source.split('/')[0]);
    }
  });
});

describe('docker/caldav: the demo team’s calendars, seeded into a real xandikos', function () {
  this.timeout(60_000);
  const folder = mkdtempSync(path.join(tmpdir(), 'converge-demo-caldav-'));
  let server: ReturnType<typeof spawn> | undefined;
  let base = '';
  const seed = () =>
    execFileSync(
      'python3',
      [path.join(REPO_ROOT, 'docker', 'caldav', 'seed.py'), base, path.join(REPO_ROOT, DEMO_TEAM)],
      { stdio: 'pipe' },
    );

  before(async () => {
    // As docker/caldav/start.sh runs it on the first start.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(
      'xandikos',
      ['-d', path.join(folder, 'dav'), '--autocreate', '-l', '127.0.0.1', '-p', String(port)],
      { stdio: 'ignore' },
    );
    await until(
      async () =>
        (await fetch(`${base}/health`).then(
          (answer) => answer.ok,
          () => false,
        ))
          ? true
          : undefined,
      'xandikos',
      20_000,
    );
  });
  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it('makes each host’s calendar with its events, once however often it runs, and the API reads them as docs/docker-compose.md tells', async () => {
    expect(seed().toString()).to.match(
      /Anna Berg: calendar \/user\/calendars\/anna-berg\/ with weekly-sales-sync, customer-workshop/,
    );
    seed();
    const text = readFileSync(path.join(REPO_ROOT, DEMO_TEAM), 'utf8').replaceAll(/http:\/\/caldav:\d+/g, base);
    const hosts = parseTeam(text, {}).hosts;
    const calendars = new HostCalendars(hosts, { logger: pino({ level: 'silent' }), bookingTimeZone: 'Europe/Berlin' });
    const busy = await calendars.busyTimes();
    expect(calendars.status().map((host) => host.state)).to.deep.equal(['readable', 'readable', 'readable']);
    const free = (index: number, day: CalendarDay, hour: number) => {
      const start = slotStartsOf(day, 'Europe/Berlin')[hour - 7]!;
      return HostCalendars.isFree(busy[index]!, start, slotEnd(start));
    };
    const days = Array.from({ length: 14 }, (_, i) =>
      calendarDayOf(new Date(Date.now() + (i + 1) * 86_400_000), 'Europe/Berlin'),
    );
    const weekday = (day: CalendarDay) => new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
    // A week ahead at least: the one-offs, dated from the seeding day (the workshop 2 weekdays after, Dana away all
    // day 3 weekdays after), may fall on a nearer Tuesday or Friday.
    const tuesday = days.slice(7).find((day) => weekday(day) === 2)!;
    const friday = days.slice(7).find((day) => weekday(day) === 5)!;
    // The weekly sales sync, each Tuesday 15:00-16:00 Berlin, in every calendar; 14:00 free.
    expect([0, 1, 2].map((index) => free(index, tuesday, 15))).to.deep.equal([false, false, false]);
    expect([0, 1, 2].map((index) => free(index, tuesday, 14))).to.deep.equal([true, true, true]);
    // Lina's focus time on Friday mornings is marked free.
    expect(free(2, friday, 10)).to.equal(true);
    // Every host has busy time in the coming week besides the sync: the one-offs, dated from the seeding day.
    const week = Date.now() + 7 * 86_400_000;
    const counts = busy.map((intervals) => (intervals ?? []).filter((interval) => interval.start < week).length);
    for (const count of counts) expect(count).to.be.at.least(2);
    calendars.stop();
  });
});
