/**
 * Section `scale` of `npm run bench`: the same figures at several sizes of the data (--sizes, default 10k,1m,10m
 * bookings), each size on a database of its own, made in SQL with generate_series and dropped when done, and the
 * ratio of the largest size's figures to the smallest's, side by side in one run.
 *
 * The data: two years of bookings whose slots are past (their history, which grows with the size), each with its
 * e-mail rows (confirmation, reminder, the sales desk's notice: old ones sent, some failed, some dropped), its
 * idempotency key and, for a share, attribution, over 50,000 company domains; and at every size the same 1,000
 * bookings to come over the next four weeks (the live window, which a slot's capacity bounds whatever the history).
 *
 * The figures, per size: a booking through the API (a fixed number of new bookings on domains of the history, the
 * ceilings at their defaults): p50/p99 and the API's CPU per booking; GET /api/slots for a day of the coming weeks;
 * GET /api/bookings/{token} of the latest 2,000 bookings (the links prospects open); the operations list's first page and a page in the
 * middle of the history; the sales page's list searched and filtered (p50/p99 over a mix of each); the sweep's query
 * for due e-mails and a claim of 500 of them with 100,000 due (about the latest 10,000 bookings); the API's
 * and the worker's memory after a full collection (read through the inspector: both run with --inspect on a port
 * of 127.0.0.1 for this bench only).
 */
import { randomBytes } from 'node:crypto';
import { label } from './scale-data.js';
import { BOOKINGS, CONNECTIONS, measure, type Figure } from './scale-measure.js';

export interface ScaleOptions {
  sizes: number[];
  /** Seconds each read figure is loaded for. */
  duration: number;
  adminUrl: string;
  redisUrl: string;
  say: (line?: string) => void;
  /** Print the hot queries' plans at the largest size. */
  explain: boolean;
  /**
   * Keep each size's generated data as a database of its own (converge_scale_data_…) and measure on copies of it: a
   * later run with the same statements, within a day, copies it (minutes) instead of making it again (39 minutes at 10M).
   */
  keepData?: boolean;
}

/** "10k,1m,10m" as numbers. */
export function parseSizes(text: string): number[] {
  return text.split(',').map((size) => {
    const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(size.trim());
    if (!match) throw new Error(`--sizes: "${size}" is not a size such as 10k or 1m`);
    return Math.round(
      Number(match[1]) * ({ k: 1e3, m: 1e6, '': 1 } as Record<string, number>)[match[2]!.toLowerCase()]!,
    );
  });
}

export { dropScaleDatabases } from './scale-data.js';

/**
 * The section: each size in turn, then the smallest again (the machine is shared: what it did meanwhile shows as the
 * smallest size's drift), then every figure side by side with the ratio of the largest size to the mean of the
 * smallest size's two runs.
 */
export async function scaleSection(options: ScaleOptions): Promise<void> {
  const { say } = options;
  const run = randomBytes(4).toString('hex');
  const smallest = Math.min(...options.sizes);
  const largest = Math.max(...options.sizes);
  const order = [...options.sizes, smallest];
  say(
    `\n6. Cost as the data grows: ${order.map(label).join(', ')} (again) bookings of history (with e-mails, keys, attribution), each on a database of its own`,
  );
  say(
    `   (${BOOKINGS} bookings from ${CONNECTIONS} connections; reads loaded ${options.duration} s from ${CONNECTIONS} connections; the machine is shared)`,
  );
  const bySize: Figure[][] = [];
  for (const [i, size] of order.entries())
    bySize.push(
      await measure(size, options, `${run}${i}`, options.explain && size === largest && i < options.sizes.length),
    );
  const columns = [...options.sizes.map(label), `${label(smallest)} again`];
  const small = options.sizes.indexOf(smallest);
  const big = options.sizes.indexOf(largest);
  say(
    `\n    ${'figure'.padEnd(36)} ${columns.map((column) => column.padStart(10)).join(' ')}   ${`${label(largest)}/${label(smallest)}`.padStart(9)}  goal`,
  );
  bySize[0]!.forEach((figure, i) => {
    const values = bySize.map((figures) => figures[i]!.value);
    const counted = (value: number) => Math.max(value, figure.resolution ?? 0);
    const ratio = counted(values[big]!) / counted((values[small]! + values.at(-1)!) / 2);
    say(
      `    ${`${figure.title} (${figure.unit})`.padEnd(36)} ${values.map((value) => value.toFixed(value < 10 ? 2 : 0).padStart(10)).join(' ')}   ${`${ratio.toFixed(2)}x`.padStart(9)}  <= 1.20x ${ratio <= 1.2 ? 'met' : 'NOT met'}`,
    );
  });
  say(
    `    (ratio: the ${label(largest)} figure over the mean of the two ${label(smallest)} runs; autocannon counts whole milliseconds,`,
  );
  say('    so a request under 1 ms reads 0.00 and counts as 1 ms in its ratio)');
}
