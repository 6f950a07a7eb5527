/** Wires the API's parts together and listens. Closing stops accepting, lets requests in flight finish, then lets go. */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { settlesWithin } from '../server-shared/time-limits.js';
import { createApp } from './app.js';
import type { ApiConfig } from './config.js';
import { createDeliveryQueue } from './delivery-queue.js';
import { createDb, type Db } from './db.js';
import { createRateLimiter } from './rate-limit.js';
import { purgeExpiredIdempotencyKeys } from './idempotency.js';
import { boundConnectionsPerClient } from './client-connections.js';
import { purgeTrapped } from './bookings/trapped-repository.js';
import { HostCalendars } from './hosts/calendars.js';
import { serveMetrics } from '../server-shared/metrics.js';
import { createApiMetrics } from './metrics.js';
import { createProspectRouting } from './routing/prospect-route.js';
import { registerEnvironmentEndpoint } from './webhooks/repository.js';

export interface RunningApi {
  url: string;
  port: number;
  /** The Prometheus endpoint (METRICS_PORT), when there is one. */
  metricsUrl?: string;
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 8000;
/** How often Node looks for requests past their headers or request timeout (its default, 30 s, would let them run that much longer). */
const TIMEOUT_CHECK_INTERVAL_MS = 500;

const WEBHOOK_ENDPOINT_RETRY_MS = 5000;

function registerEnvironmentEndpointUntilDone(
  db: Db,
  endpoint: ApiConfig['webhooks']['endpoint'],
  logger: Logger,
): { done: Promise<void>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const done = new Promise<void>((resolve) => {
    const attempt = () => {
      registerEnvironmentEndpoint(db, endpoint).then(
        () => {
          if (endpoint) logger.info('webhook endpoint of WEBHOOK_URL in use');
          resolve();
        },
        (err: unknown) => {
          logger.warn(
            { error: err instanceof Error ? err.message : String(err) },
            "could not record WEBHOOK_URL's endpoint; trying again",
          );
          if (!stopped) timer = setTimeout(attempt, WEBHOOK_ENDPOINT_RETRY_MS);
          else resolve();
        },
      );
    };
    attempt();
  });
  return {
    done,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

export async function startApiServer(config: ApiConfig, logger: Logger): Promise<RunningApi> {
  const db = createDb(config.databaseUrl, undefined, logger);
  // WEBHOOK_URL's endpoint as set now (or none), written before the first request so that every booking's event
  // reaches it; with PostgreSQL away at start, tried again every few seconds until it answers.
  const webhookEndpointWritten = registerEnvironmentEndpointUntilDone(db, config.webhooks.endpoint, logger);
  const queue = createDeliveryQueue(config.redisUrl, config.queuePrefix);
  const limiter = await createRateLimiter(config.redisUrl, config.queuePrefix);
  // The team's calendars are read at once and then in the background; until a host's first read it is not offered.
  const hostCalendars = config.team
    ? new HostCalendars(config.team.hosts, { logger, bookingTimeZone: config.bookingTimeZone })
    : undefined;
  hostCalendars?.start(config.calendarPollMs);
  const metrics = config.metricsPort === undefined ? undefined : createApiMetrics(hostCalendars);
  const routing = config.team
    ? createProspectRouting(config.team, config.routing, logger, (why) => {
        logger.warn({ why }, 'owner lookup failed: the accounts file and the routes decide');
        metrics?.ownerLookupFailed(why);
      })
    : undefined;
  const app = createApp({
    metrics,
    db,
    queue,
    logger,
    timeZone: config.bookingTimeZone,
    booking: config.booking,
    webRoot: config.webRoot,
    publicUrl: config.publicUrl,
    contact: config.contact,
    adminToken: config.adminToken,
    linkSecret: config.bookingLinkSecret,
    previousLinkSecrets: config.previousLinkSecrets,
    mailFrom: config.mailFrom,
    trustProxy: config.trustProxy,
    hostCalendars,
    ...(routing ? { routing } : {}),
    webhookAllowPrivate: config.webhooks.allowPrivate,
    funnelSources: config.funnelSources,
    limits: {
      limiter,
      demoRequestsPerHour: config.demoRequestsPerHour,
      emailChecksPerMinute: config.emailChecksPerMinute,
    },
  });
  // The first try settles before the API listens (a success, or PostgreSQL away: then it goes on in the background).
  await Promise.race([webhookEndpointWritten.done, new Promise((resolve) => setTimeout(resolve, 6000).unref())]);
  // A slow client is let go: its headers must come within headersTimeoutMs and its whole request within
  // requestTimeoutMs (Node answers 408 and closes), counted from the request's first byte; answering takes as long
  // as it takes. Node's defaults (60 s and 300 s) let a trickle hold a socket for minutes.
  const server: Server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    app.callback(),
  );
  // Behind a proxy every socket is the proxy's: a bound per socket address would throttle every visitor at once, so
  // there the proxy bounds its clients' connections (and buffers their bodies) instead.
  if (config.connectionsPerClient > 0 && config.trustProxy === 0)
    boundConnectionsPerClient(server, config.connectionsPerClient, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.keepAliveTimeout = 5000;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  // Answers to idempotency keys are kept a day, and the honeypot's catches a week past their slot (their client's
  // network an hour); both tables are tidied hourly by whichever API process gets to it.
  const purge = setInterval(() => {
    purgeExpiredIdempotencyKeys(db).catch((err: unknown) =>
      logger.warn({ err }, 'could not purge expired idempotency keys'),
    );
    purgeTrapped(db).catch((err: unknown) => logger.warn({ err }, "could not purge the honeypot's expired catches"));
  }, 3_600_000);
  purge.unref();
  const metricsEndpoint =
    metrics && config.metricsPort !== undefined
      ? await serveMetrics(metrics.registry, config.metricsPort, config.metricsHost)
      : undefined;
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      webhookEndpointWritten.stop();
      clearInterval(purge);
      hostCalendars?.stop();
      routing?.close();
      await metricsEndpoint?.close();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        // Idle keep-alive sockets would hold close() open; busy ones finish their request, then hang up.
        server.closeIdleConnections();
        for (const res of inFlight) {
          if (!res.headersSent) res.setHeader('Connection', 'close');
          res.once('finish', () => server.closeIdleConnections());
        }
      });
      // Bounded: a database that stopped answering must not keep the process from exiting.
      await settlesWithin(Promise.allSettled([db.destroy(), queue.close(), limiter.close()]), 1500);
    })());

  return { url, port, ...(metricsEndpoint ? { metricsUrl: metricsEndpoint.url } : {}), close };
}
