/** Starts the worker: makes the outbox's deliveries from the queue and sweeps the outbox on a schedule. */
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import knex from 'knex';
import type { Logger } from 'pino';
import { knexConfig } from '../knexfile.js';
import { DELIVERY_QUEUE, deliveryJobOptions, enqueueJob, type QueuedJob } from '../server-shared/jobs.js';
import { queueTelemetry } from '../server-shared/telemetry.js';
import { settlesWithin } from '../server-shared/time-limits.js';
import type { WorkerConfig } from './config.js';
import { bookingIdOfFailure } from './deliver.js';
import { deliveryContext, runJob, type JobContext } from './job.js';
import { createHostCalendarWriter } from './host-calendar.js';
import { createWorkerMetrics } from './metrics.js';
import { createSendMail } from './send-mail.js';
import { serveMetrics } from '../server-shared/metrics.js';
import { startSweepTimer } from './sweep.js';
import type { DNSResolver } from 'mailauth';
import { startReplyReader } from './replies/reader.js';
import { inboundRecorder } from './sms/inbound.js';
import { SmppLink, type SmppLinkOptions } from './sms/smpp-link.js';

/** Shutdown must end within 10 s: the jobs in hand get most of it. */
const JOB_FINISH_GRACE_MS = 6000;

/** Thrown to hand a job back to the queue, unlogged: its row is not in this worker's database. */
class NotInThisDatabase extends Error {
  constructor(id: string) {
    super(`delivery ${id} is not in this database`);
  }
}

export interface RunningWorker {
  /** The Prometheus endpoint (METRICS_PORT), when there is one. */
  metricsUrl?: string;
  close(): Promise<void>;
}

export interface WorkerOptions {
  /** Sweep grace period; tests shorten it. */
  sweepGraceMs?: number;
  sweepEveryMs?: number;
  /** DNS for the replies' DKIM and SPF checks; tests answer their own records. */
  replyResolver?: DNSResolver;
  /** The SMPP bind's timings (keep-alive, rebind); tests shorten them. */
  smpp?: Pick<SmppLinkOptions, 'enquireLinkMs' | 'rebindFirstMs' | 'rebindMaxMs' | 'submitTimeoutMs'>;
}

export async function startWorker(
  config: WorkerConfig,
  logger: Logger,
  options: WorkerOptions = {},
): Promise<RunningWorker> {
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  // ioredis retries every few hundred milliseconds while Redis is away: one line when it goes, one when it is back.
  let redisAway = false;
  connection.on('error', (err) => {
    if (redisAway) return;
    redisAway = true;
    logger.warn({ error: err.message }, 'redis unreachable; retrying');
  });
  connection.on('ready', () => {
    if (!redisAway) return;
    redisAway = false;
    logger.info('redis reachable again');
  });
  // A job holds a connection only for its claim and its mark, so a few serve many jobs; one more for the sweep.
  const db = knex(knexConfig(config.databaseUrl, { min: 0, max: Math.min(config.concurrency, 10) + 1 }, logger));
  const mailer = createSendMail(config.smtpUrl, { dkim: config.dkim });
  // With tracing on, a job the sweep enqueues starts a trace of its own; the worker's `process` span continues the
  // trace a job carries (the request that stored its row, or that sweep).
  const telemetry = queueTelemetry();
  const queue = new Queue<QueuedJob['payload']>(DELIVERY_QUEUE, {
    connection,
    prefix: config.queuePrefix,
    defaultJobOptions: deliveryJobOptions,
    ...telemetry,
  });
  // Without a listener BullMQ prints connection errors to the console; the connection's own listener reports them.
  queue.on('error', () => {});
  const enqueue = (job: QueuedJob) => enqueueJob(queue, job);
  const metrics = config.metricsPort === undefined ? undefined : createWorkerMetrics(db, queue);
  const metricsEndpoint =
    metrics && config.metricsPort !== undefined
      ? await serveMetrics(metrics.registry, config.metricsPort, config.metricsHost)
      : undefined;
  // The bind to the SMSC, kept from the start (a text waits for it a moment, then is tried again by its backoff).
  // A STOP is confirmed over the same bind, outside the outbox: it belongs to a number, not to a booking.
  const confirm = (to: string, text: string) => smpp!.submit(to, text, AbortSignal.timeout(15_000));
  const smpp: SmppLink | undefined = config.sms
    ? new SmppLink({
        settings: config.sms,
        logger,
        onInbound: inboundRecorder(db, logger, confirm, enqueue, metrics),
        ...(metrics ? { metrics } : {}),
        ...options.smpp,
      })
    : undefined;
  smpp?.start();
  const deps = {
    db,
    ...(smpp ? { sms: smpp } : {}),
    sendMail: mailer.sendMail,
    mailFrom: config.mailFrom,
    replyTo: config.replyTo,
    timeZone: config.bookingTimeZone,
    publicUrl: config.publicUrl,
    contact: config.contact,
    linkSecret: config.bookingLinkSecret,
    questions: config.questions,
    replyAddress: config.replyMailbox?.address,
    writeHostCalendar: createHostCalendarWriter(config.team),
    ...(metrics ? { metrics } : {}),
    logger,
    enqueue,
    webhooks: config.webhooks,
  };

  // A job for a row this worker's database does not hold belongs to another deployment on the same Redis (or its
  // row was deleted): said once, and handed back through the job's retries so that its owner can take it.
  const notMine = new Set<string>();
  const leaveToOwner = (job: Job, id: string): string => {
    if (!notMine.has(id)) {
      if (notMine.size >= 10_000) notMine.clear();
      notMine.add(id);
      logger.warn(
        { deliveryId: id, queuePrefix: config.queuePrefix },
        'job for a delivery this database does not hold: left to its owner',
      );
    }
    if (job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw new NotInThisDatabase(id);
    return 'missing';
  };
  const context: JobContext = { ...deliveryContext(deps), leaveToOwner };

  const worker = new Worker(
    DELIVERY_QUEUE,
    // Three parameters: BullMQ passes the abort signal only to a processor that declares it.
    (job: Job, token?: string, signal?: AbortSignal) => runJob(context, job, signal, token),
    { connection, prefix: config.queuePrefix, concurrency: config.concurrency, ...telemetry },
  );
  worker.on('failed', (job, err) => {
    if (err instanceof NotInThisDatabase) return;
    logger.warn(
      { jobId: job?.id, bookingId: bookingIdOfFailure(err), attemptsMade: job?.attemptsMade, err: err.message },
      'job failed',
    );
  });
  worker.on('error', (err) => {
    if (!redisAway) logger.error({ error: err.message }, 'worker error');
  });

  await worker.waitUntilReady();
  const sweep = startSweepTimer(db, enqueue, logger, {
    everyMs: options.sweepEveryMs,
    graceMs: options.sweepGraceMs,
    retentionDays: config.retentionDays,
  });
  // The prospects' answers: the worker keeps running while the mailbox is away, and reads it once it is back.
  const replies = config.replyMailbox
    ? startReplyReader({
        db,
        logger,
        enqueue,
        mailbox: config.replyMailbox,
        mailFrom: config.mailFrom,
        linkSecret: config.bookingLinkSecret,
        salesNotifyEmail: config.salesNotifyEmail,
        ...(options.replyResolver ? { resolver: options.replyResolver } : {}),
      })
    : undefined;
  // Where receivers look the signing key up, so an operator can check that the DNS record is there.
  const dkimRecord = config.dkim ? `${config.dkim.keySelector}._domainkey.${config.dkim.domainName}` : 'off';
  logger.info(
    {
      queue: DELIVERY_QUEUE,
      concurrency: config.concurrency,
      dkim: dkimRecord,
      metrics: metricsEndpoint?.url ?? 'off',
      replyMailbox: config.replyMailbox ? config.replyMailbox.folder : 'off',
    },
    'worker ready',
  );

  let closing: Promise<void> | undefined;
  return {
    ...(metricsEndpoint ? { metricsUrl: metricsEndpoint.url } : {}),
    close: () =>
      (closing ??= (async () => {
        await settlesWithin(sweep.stop(), 1000);
        await settlesWithin(replies?.stop() ?? Promise.resolve(), 1500);
        await settlesWithin(metricsEndpoint?.close() ?? Promise.resolve(), 500);
        // Lets the jobs in hand finish; jobs not started stay queued for the next worker.
        const closed = worker.close();
        // With Redis away no job can report its end: nothing is gained by waiting.
        const grace = connection.status === 'ready' ? JOB_FINISH_GRACE_MS : 0;
        if (!(await settlesWithin(closed, grace))) {
          // A send still waiting on the SMTP server is abandoned: recorded on its row and retried with backoff
          // (or, with Redis away, enqueued again by the sweep).
          logger.warn({ graceMs: grace }, 'jobs in hand did not finish in time; handing them back');
          worker.cancelAllJobs('worker shutting down');
          if (!(await settlesWithin(closed, 1500))) await settlesWithin(worker.close(true), 500);
        }
        await settlesWithin(queue.close(), 1000);
        connection.disconnect();
        mailer.close();
        await settlesWithin(smpp?.close() ?? Promise.resolve(), 1500);
        // A send cut short above may still hold a pooled connection; exiting releases it and its row lock.
        await settlesWithin(db.destroy(), 1000);
      })()),
  };
}
