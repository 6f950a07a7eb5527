/**
 * `npm start`: the whole product from one command. Each service with no URL in the environment is provided here
 * (embedded PostgreSQL, a local or spawned Redis, an SMTP server writing .eml files, an SMSC writing each text to a
 * file); then migrations, the API with
 * the page, and the worker run in this process. SIGINT/SIGTERM stop everything this command started.
 */
import path from 'node:path';
import { loadApiConfig } from '../api/config.js';
import { isConnectionError, migrateLatest } from '../api/db.js';
import { startApiServer } from '../api/server.js';
import { createLogger } from '../server-shared/logger.js';
import { ConfigError, setting } from '../server-shared/settings.js';
import { checkWebhookUrlAddresses } from '../server-shared/webhooks.js';
import { loadWorkerConfig } from '../worker/config.js';
import { startWorker } from '../worker/index.js';
import { derivedQueuePrefix, displayPath, readStartSettings, redactUrl } from './dev-services/config.js';
import { startEmbeddedPostgres } from './dev-services/embedded-postgres.js';
import { LOCAL_SECRETS, localSecret, localSecretFile } from './dev-services/local-secrets.js';
import { startMailSink } from './dev-services/mail-sink.js';
import { LOCAL_REDIS_URL, redisAnswers, startRedisServer } from './dev-services/redis.js';
import { DEFAULT_SMS_FROM, startEmbeddedSmsc } from './dev-services/smsc.js';
import { StartupError } from './dev-services/startup-error.js';
import { buildWeb, isWebBuilt } from './dev-services/web-build.js';

const settings = readStartSettings();
const logger = createLogger('start', settings.logLevel);

interface Running {
  name: string;
  stop(): Promise<void>;
}
/** What this command started, in start order; stopped in reverse. */
const services: Running[] = [];
const programs: Running[] = [];
let shutdown: Promise<void> | undefined;
let firstSignalAt = 0;
/** Cancels a page build still running when a shutdown begins. */
const stopping = new AbortController();

/** Whole-shutdown limit: past it, the exit hooks still stop PostgreSQL and Redis. */
const SHUTDOWN_LIMIT_MS = 20_000;

async function stopAll(): Promise<void> {
  // The API stops accepting and finishes its requests while the worker finishes the job in hand.
  if (programs.length > 0) {
    const results = await Promise.allSettled(programs.map((program) => program.stop()));
    for (const [index, result] of results.entries()) {
      if (result.status === 'rejected')
        logger.error({ err: result.reason }, `${programs[index]?.name ?? 'program'} did not stop cleanly`);
    }
    logger.info(`${programs.map((program) => program.name).join(' and ')} stopped`);
  }
  for (const service of [...services].reverse()) {
    try {
      await service.stop();
      logger.info(`${service.name} stopped`);
    } catch (err) {
      logger.error({ err }, `${service.name} did not stop cleanly`);
    }
  }
}

function exitAfterStopping(code: number): Promise<void> {
  stopping.abort();
  shutdown ??= (async () => {
    const limit = setTimeout(() => {
      logger.error(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    limit.unref();
    await stopAll();
    process.exit(code);
  })();
  return shutdown;
}

function onSignal(signal: NodeJS.Signals): void {
  const now = Date.now();
  if (shutdown === undefined) {
    firstSignalAt = now;
    logger.info({ signal }, 'stopping everything npm start started (Ctrl-C again to force)');
    void exitAfterStopping(0);
    return;
  }
  // One Ctrl-C can arrive twice (from the terminal, and relayed by npm): only a later one forces.
  if (now - firstSignalAt < 1500) return;
  logger.warn({ signal }, 'forced exit');
  process.exit(1);
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

type RedisPlan = { kind: 'configured' | 'local'; url: string } | { kind: 'spawn' };

async function main(): Promise<void> {
  // On a developer's machine every booking comes from 127.0.0.1: the per-client limits stay off unless set.
  // The booking links' secret and the sales page's token: each setting when set, else made once and kept in the
  // data folder.
  const adminTokenSet = setting(settings.env, 'ADMIN_TOKEN') !== undefined;
  const env = {
    DEMO_REQUESTS_PER_HOUR: '0',
    EMAIL_CHECKS_PER_MINUTE: '0',
    ...settings.env,
    BOOKING_LINK_SECRET:
      setting(settings.env, 'BOOKING_LINK_SECRET') ?? localSecret(settings.dataDir, LOCAL_SECRETS.bookingLinkSecret),
    ADMIN_TOKEN: setting(settings.env, 'ADMIN_TOKEN') ?? localSecret(settings.dataDir, LOCAL_SECRETS.adminToken),
  };
  // Checks PORT, HOST, BOOKING_TIME_ZONE, WEBHOOK_URL (and the addresses of its name) before anything is started.
  const planned = loadApiConfig(env);
  loadWorkerConfig(env);
  const webhookUrlUnresolved = await checkWebhookUrlAddresses(planned.webhooks);
  if (webhookUrlUnresolved) logger.warn(webhookUrlUnresolved);
  const siteUrl = `http://${planned.host === '0.0.0.0' ? '127.0.0.1' : planned.host}:${planned.port}`;
  logger.info(`Converge starting on ${siteUrl}`);
  logger.info(
    adminTokenSet
      ? `sales page: ${siteUrl}/admin, signed into with ADMIN_TOKEN`
      : `sales page: ${siteUrl}/admin, signed into with the token in ${displayPath(localSecretFile(settings.dataDir, LOCAL_SECRETS.adminToken))} (ADMIN_TOKEN not set)`,
  );
  if (settings.envFile) logger.info(`settings from the environment and ${displayPath(settings.envFile)}`);

  let redisPlan: RedisPlan;
  if (settings.redisUrl) redisPlan = { kind: 'configured', url: settings.redisUrl };
  else if (await redisAnswers(LOCAL_REDIS_URL)) redisPlan = { kind: 'local', url: LOCAL_REDIS_URL };
  else redisPlan = { kind: 'spawn' };

  // Checkouts sharing one Redis would take each other's jobs under one prefix: each database gets its own.
  const queuePrefix = setting(env, 'QUEUE_PREFIX') ?? derivedQueuePrefix(settings.databaseUrl, settings.dataDir);
  const mailDir = path.join(settings.dataDir, 'mail');
  const smsDir = path.join(settings.dataDir, 'sms');
  logger.info(
    settings.databaseUrl
      ? `PostgreSQL: configured, DATABASE_URL=${redactUrl(settings.databaseUrl)}`
      : `PostgreSQL: embedded (DATABASE_URL not set), data in ${displayPath(path.join(settings.dataDir, 'postgres'))}`,
  );
  logger.info(
    redisPlan.kind === 'configured'
      ? `Redis: configured, REDIS_URL=${redactUrl(redisPlan.url)}`
      : redisPlan.kind === 'local'
        ? `Redis: the local one answering at ${LOCAL_REDIS_URL} (REDIS_URL not set)`
        : `Redis: none on 127.0.0.1:6379 and REDIS_URL not set; starting redis-server, data in ${displayPath(path.join(settings.dataDir, 'redis'))}`,
  );
  logger.info(
    settings.smtpUrl
      ? `SMTP: configured, SMTP_URL=${redactUrl(settings.smtpUrl)}`
      : `SMTP: embedded (SMTP_URL not set), each e-mail saved as an .eml file in ${displayPath(mailDir)}`,
  );
  // SMPP_URL set empty turns the texts off, as under compose; unset, the embedded SMSC takes them.
  const embeddedSmsc = !settings.smppUrl && settings.env.SMPP_URL === undefined;
  logger.info(
    settings.smppUrl
      ? `SMS: configured, SMPP_URL=${redactUrl(settings.smppUrl)}`
      : embeddedSmsc
        ? `SMS: embedded SMSC (SMPP_URL not set), each text saved as a .txt file in ${displayPath(smsDir)}; answer as the phone with npm run sms:reply -- +<number> STOP`
        : 'SMS: off (SMPP_URL set empty): no texts, and the dialog offers no consent',
  );
  logger.info(
    `queue: key prefix ${queuePrefix} in Redis${setting(env, 'QUEUE_PREFIX') ? '' : ' (QUEUE_PREFIX not set: named after this database)'}`,
  );
  logger.info(
    planned.team
      ? `hosts: ${planned.team.hosts.length} from TEAM_FILE (${planned.team.hosts.map((host) => host.name).join(', ')}); each booking gets a free host, written into their calendar`
      : `hosts: none (TEAM_FILE not set); slots take SLOT_CAPACITY=${planned.booking.limits.slotCapacity} bookings each, with no host named`,
  );

  if (!settings.webRoot && !isWebBuilt(planned.webRoot)) await buildWeb(logger, stopping.signal);
  if (shutdown) return;

  let databaseUrl = settings.databaseUrl;
  if (!databaseUrl) {
    const postgres = await startEmbeddedPostgres({ dataDir: settings.dataDir, logger });
    services.push({ name: 'embedded PostgreSQL', stop: postgres.stop });
    databaseUrl = postgres.url;
    logger.info(`embedded PostgreSQL ready on 127.0.0.1:${postgres.port}`);
  }
  if (shutdown) return;

  let redisUrl: string;
  if (redisPlan.kind === 'spawn') {
    const redis = await startRedisServer({ dataDir: settings.dataDir, logger });
    services.push({ name: 'redis-server', stop: redis.stop });
    redisUrl = redis.url;
    logger.info({ redisPid: redis.pid }, `redis-server ready on ${redis.url}`);
  } else {
    redisUrl = redisPlan.url;
    // The worker would wait for it for ever, repeating connection errors; say it once and stop instead.
    // (TLS, rediss://, is not probed here: the worker's own connection reports it.)
    if (
      redisPlan.kind === 'configured' &&
      redisUrl.startsWith('redis://') &&
      !(await redisAnswers(redisUrl, 3000, true))
    ) {
      throw new StartupError(
        `Nothing answers at REDIS_URL=${redactUrl(redisUrl)}. Start that Redis (with Docker: docker compose up -d redis, ` +
          'then REDIS_URL=redis://127.0.0.1:6380), or unset REDIS_URL to use a local one.',
      );
    }
  }
  if (shutdown) return;

  let smtpUrl = settings.smtpUrl;
  if (!smtpUrl) {
    const sink = await startMailSink({ dir: mailDir, logger });
    services.push({ name: 'embedded SMTP server', stop: sink.close });
    smtpUrl = sink.url;
  }

  let sms = {};
  if (embeddedSmsc) {
    const smsc = await startEmbeddedSmsc({ dataDir: settings.dataDir, dir: smsDir, logger });
    services.push({ name: 'embedded SMSC', stop: smsc.stop });
    sms = { SMPP_URL: smsc.url, SMS_FROM: setting(env, 'SMS_FROM') ?? DEFAULT_SMS_FROM };
  }

  try {
    const applied = await migrateLatest(databaseUrl, logger);
    logger.info(applied.length ? `migrations applied: ${applied.join(', ')}` : 'database schema up to date');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new StartupError(
      isConnectionError(err)
        ? `PostgreSQL does not answer at DATABASE_URL=${redactUrl(databaseUrl)} (${reason}). Start it, or unset DATABASE_URL to use the embedded one.`
        : `Migrations could not run on ${redactUrl(databaseUrl)}: ${reason}`,
    );
  }
  if (shutdown) return;

  const programEnv = {
    ...env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SMTP_URL: smtpUrl,
    ...sms,
    QUEUE_PREFIX: queuePrefix,
  };
  const apiConfig = loadApiConfig(programEnv);
  let api;
  try {
    api = await startApiServer(apiConfig, createLogger('api', apiConfig.logLevel));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new StartupError(
        `Port ${apiConfig.port} on ${apiConfig.host} is already in use. Stop what uses it, or pick another: PORT=3001 npm start`,
      );
    }
    throw err;
  }
  programs.push({ name: 'API', stop: api.close });

  // Links in the e-mails point where the page really is, unless PUBLIC_URL says otherwise.
  // One METRICS_PORT for both programs of this process: the worker's endpoint is on the next port.
  const metricsPort = setting(programEnv, 'METRICS_PORT');
  const workerMetrics = metricsPort && Number(metricsPort) > 0 ? { METRICS_PORT: String(Number(metricsPort) + 1) } : {};
  const workerConfig = loadWorkerConfig({ PUBLIC_URL: api.url, ...programEnv, ...workerMetrics });
  const worker = await startWorker(workerConfig, createLogger('worker', workerConfig.logLevel));
  programs.push({ name: 'worker', stop: worker.close });

  logger.info(
    { url: api.url, readyInSeconds: Math.round(process.uptime() * 10) / 10 },
    `Converge is running at ${api.url} (page, API and worker). Ctrl-C stops everything.`,
  );
}

main().catch(async (err: unknown) => {
  if (err instanceof StartupError || err instanceof ConfigError) {
    logger.fatal(err.message);
  } else {
    logger.fatal({ err }, 'npm start failed');
  }
  stopping.abort();
  shutdown ??= (async () => {
    await stopAll();
    process.exit(1);
  })();
});
