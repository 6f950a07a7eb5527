/**
 * The sources the funnel counts under their own name (docs/funnel.md, "What is stored"): those listed in
 * FUNNEL_SOURCES, and those a stored booking carries (its attribution's utm_source). Any other counts as 'other', so
 * made-up sources ("john.smith.acme-corp.com", a new one a second) add no rows to the table nor lines to the sales
 * page's funnel. A source is known in its funnel form (funnelSource: lower case, short and plain; the format rule
 * comes first, so a booking's "ada@example.com" makes nothing known).
 *
 * The bookings' sources are those of the last FUNNEL_SOURCE_DAYS days, read when first needed and again at most
 * every FUNNEL_SOURCES_REFRESH_MS (a beacon with a source not known then waits for the read; one with a known source
 * never does). A booking this process stores makes its source known at once; the other processes see it at their
 * next read.
 */
import type { Logger } from 'pino';
import { FUNNEL_OTHER_SOURCE, funnelSource } from '../../domain/funnel.js';
import { ConfigError } from '../../server-shared/settings.js';

/** The bookings whose sources are known: those stored in this many days. */
export const FUNNEL_SOURCE_DAYS = 90;
/** How long one read of the bookings' sources is used. */
export const FUNNEL_SOURCES_REFRESH_MS = 5 * 60_000;
/** After a read that failed (PostgreSQL away), how soon the next is tried. */
export const FUNNEL_SOURCES_RETRY_MS = 30_000;

/** A source of its own in the counts: not none, not already 'other'. */
const ownName = (utmSource: string | null | undefined): string | undefined => {
  const source = funnelSource(utmSource);
  return source === null || source === FUNNEL_OTHER_SOURCE ? undefined : source;
};

/**
 * FUNNEL_SOURCES: comma-separated sources, each of the form the funnel keeps (letters, digits, '.', '-' and '_', at
 * most 40 characters; any case, kept lower case). Unset or empty: none listed.
 */
export function parseFunnelSources(value: string | undefined): string[] {
  if (value === undefined) return [];
  const sources = value
    .split(',')
    .map((source) => source.trim())
    .filter((source) => source !== '');
  for (const source of sources) {
    if (funnelSource(source) !== source.toLowerCase()) {
      throw new ConfigError(
        `FUNNEL_SOURCES must be sources separated by commas, each of letters, digits, '.', '-' and '_' (at most 40 characters), got "${source}"`,
      );
    }
  }
  return [...new Set(sources.map((source) => source.toLowerCase()))];
}

export interface KnownFunnelSourcesOptions {
  /** FUNNEL_SOURCES, parsed. */
  listed: readonly string[];
  /** The utm_source of the bookings of the last FUNNEL_SOURCE_DAYS days, as stored. */
  readBookingSources: () => Promise<readonly string[]>;
  logger: Logger;
  /** Milliseconds, for the refresh; performance.now() unless a test sets it. */
  clock?: () => number;
}

export class KnownFunnelSources {
  private readonly listed: ReadonlySet<string>;
  private fromBookings = new Set<string>();
  /** Booked while a read was on its way: the read may have missed them. */
  private readonly bookedDuringRead = new Set<string>();
  private nextReadAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;
  private readonly clock: () => number;

  constructor(private readonly options: KnownFunnelSourcesOptions) {
    this.listed = new Set(options.listed);
    this.clock = options.clock ?? (() => performance.now());
  }

  /** The source as the funnel counts it: its funnel form when known, 'other' when not, null for none. */
  async counted(utmSource: string | null | undefined): Promise<string | null> {
    const source = funnelSource(utmSource);
    if (source === null || source === FUNNEL_OTHER_SOURCE) return source;
    const due = this.clock() >= this.nextReadAt;
    if (this.isKnown(source)) {
      // Read again in the background, so that a source whose bookings are all older than the window is let go.
      if (due) void this.read();
      return source;
    }
    if (due) await this.read();
    return this.isKnown(source) ? source : FUNNEL_OTHER_SOURCE;
  }

  /** A booking was stored with this utm_source: known from now on. */
  booked(utmSource: string | null | undefined): void {
    const source = ownName(utmSource);
    if (source === undefined) return;
    this.fromBookings.add(source);
    if (this.reading) this.bookedDuringRead.add(source);
  }

  private isKnown(source: string): boolean {
    return this.listed.has(source) || this.fromBookings.has(source);
  }

  /** One read at a time; it never throws (a failure keeps what was known, and is tried again sooner). */
  private read(): Promise<void> {
    this.reading ??= (async () => {
      try {
        const known = new Set<string>();
        for (const stored of await this.options.readBookingSources()) {
          const source = ownName(stored);
          if (source !== undefined) known.add(source);
        }
        for (const source of this.bookedDuringRead) known.add(source);
        this.fromBookings = known;
        this.nextReadAt = this.clock() + FUNNEL_SOURCES_REFRESH_MS;
      } catch (err) {
        this.options.logger.warn(
          { error: err instanceof Error ? err.message : String(err) },
          "funnel sources not read: the listed ones and the last read's stay known",
        );
        this.nextReadAt = this.clock() + FUNNEL_SOURCES_RETRY_MS;
      } finally {
        this.bookedDuringRead.clear();
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
