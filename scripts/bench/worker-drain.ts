/**
 * Section 3 of `npm run bench`: confirmations sent per second by one built worker process from a queued backlog,
 * beside nodemailer's own pooled transport sending the same messages to the same SMTP server (nodemailer-floor.ts),
 * and the ratio, of the rates and of each process's CPU time an e-mail.
 */
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { DELIVERY_QUEUE, deliveryJob, deliveryJobOptions, jobIdOf } from '../../server-shared/jobs.js';
import { REPO_ROOT } from '../dev-services/config.js';
import { cpuMs, percentile, start, stop } from './processes.js';
import type { BenchRun } from './run.js';
import type { BuiltStack } from './built-stack.js';

export async function workerDrainSection(
  { say }: BenchRun,
  stack: BuiltStack,
  {
    slots,
    jobs,
    rounds,
    redisUrl,
    prefix,
  }: {
    slots: readonly string[];
    /** The backlog's size, each round. */
    jobs: number;
    rounds: number;
    redisUrl: string;
    prefix: string;
  },
): Promise<void> {
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    await db.query("UPDATE deliveries SET sent_at = now() WHERE channel <> 'webhook' AND sent_at IS NULL");
    say(
      `\n3. One worker process draining ${jobs} queued confirmations into a local SMTP server, beside nodemailer's own`,
    );
    say(
      `   pooled transport sending the same messages to the same server with nothing around it (the floor); ${rounds} round(s)`,
    );
    const ratios: number[] = [];
    // The worker's CPU time an e-mail against the floor's (each process's whole life, start-up included): what the
    // worker costs beyond nodemailer, less moved than the rates by what else the machine is doing.
    const cpuRatios: number[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      // A backlog stored and queued while no worker runs, then one worker process drains it.
      const { rows } = await db.query<{ id: string; email_id: string; due: string; created_at: string }>(
        `WITH booked AS (
         INSERT INTO bookings (name, email, company, time_slot)
           SELECT 'Backlog Prospect ' || n, 'backlog' || n || '@northwind-' || (n % 97) || '.io', 'Northwind ' || (n % 97), $1::timestamptz
             FROM generate_series(1, $2::int) AS n
         RETURNING id, time_slot, created_at)
       INSERT INTO deliveries (channel, booking_id, kind, time_slot, sequence, created_at)
         SELECT 'email', id, 'confirmation', time_slot, 0, created_at FROM booked
       RETURNING booking_id AS id, id AS email_id, (extract(epoch FROM due_at) * 1000)::bigint AS due,
         created_at::text AS created_at`,
        [slots[0], jobs],
      );
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
      const queue = new Queue(DELIVERY_QUEUE, { connection: redis, prefix, defaultJobOptions: deliveryJobOptions });
      for (let i = 0; i < rows.length; i += 500) {
        const jobs = rows.slice(i, i + 500).map((row) => deliveryJob(row.email_id, Number(row.due)));
        await queue.addBulk(jobs.map((job) => ({ name: job.name, data: job.payload, opts: { jobId: jobIdOf(job) } })));
      }
      await queue.close();
      redis.disconnect();
      const drainByWorker = async () => {
        const startedAt = Date.now();
        const worker = stack.startWorker();
        const rate = await stack.acceptedRate(
          rows.map((row) => `<demo-${row.id}@converge.localhost>`),
          startedAt,
        );
        const cpu = cpuMs(worker.pid);
        await stop(worker);
        return { ...rate, cpuMsPerEmail: cpu === undefined ? NaN : cpu / rows.length };
      };
      // The same rows' confirmations, rendered by the worker's template, through nodemailer's pool alone.
      const sendThroughFloor = async () => {
        const startedAt = Date.now();
        let cpu = NaN;
        const floorProcess = start(
          ['--import', 'tsx', path.join(REPO_ROOT, 'scripts', 'bench', 'nodemailer-floor.ts')],
          // As text: PostgreSQL keeps microseconds, which a Date would lose.
          { ...stack.env, PUBLIC_URL: stack.api, FLOOR_CREATED_AT: rows[0]!.created_at },
          // Its last line is the CPU time it used; with a listener its errors reach the terminal too.
          (line) => (cpu = Number(/^cpu (\d+)/.exec(line)?.[1] ?? cpu)),
        );
        const rate = await stack.acceptedRate(
          rows.map((row) => `<floor-${row.id}@converge.localhost>`),
          startedAt,
        );
        await new Promise((resolve) =>
          floorProcess.exitCode === null ? floorProcess.once('exit', resolve) : resolve(null),
        );
        return { ...rate, cpuMsPerEmail: cpu / rows.length };
      };
      // Every other round the floor goes first, so that a machine getting busier or quieter favours neither.
      const floorFirst = round % 2 === 0;
      const floor = floorFirst ? await sendThroughFloor() : undefined;
      const sent = await drainByWorker();
      const floorRate = floor ?? (await sendThroughFloor());
      ratios.push(sent.perSecond / floorRate.perSecond);
      cpuRatios.push(floorRate.cpuMsPerEmail / sent.cpuMsPerEmail);
      const cpuOf = (rate: { cpuMsPerEmail: number }) => `${(rate.cpuMsPerEmail * 1000).toFixed(0)} µs CPU an e-mail`;
      say(
        `    round ${round}${floorFirst ? ' (floor first)' : ''}: worker ${sent.perSecond.toFixed(0)} e-mails/s, ${cpuOf(sent)} (first accepted ${sent.firstMs} ms after it started, last ${sent.lastMs} ms)`,
      );
      say(
        `             nodemailer's pool ${floorRate.perSecond.toFixed(0)} e-mails/s, ${cpuOf(floorRate)} (first ${floorRate.firstMs} ms after its process started, last ${floorRate.lastMs} ms)`,
      );
      say(
        `             ratio ${(sent.perSecond / floorRate.perSecond).toFixed(2)}x (by CPU an e-mail: ${(floorRate.cpuMsPerEmail / sent.cpuMsPerEmail).toFixed(2)}x)`,
      );
    }
    const median = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      ).toFixed(2);
    if (rounds > 1)
      say(`    median ratio ${median(ratios)}x, by CPU an e-mail ${median(cpuRatios)}x (the goal: 0.8x or more)`);
  } finally {
    await db.end();
  }
}
