/**
 * Each host's busy times, read from their CalDAV calendar (RFC 4791) through tsdav and kept with bounded staleness.
 * A refresh asks the collection what changed since the last read (a sync-collection REPORT from the kept sync-token,
 * RFC 6578, where the server offers it; else its events' ETags, one REPORT calendar-query) and fetches only the
 * objects that are new or changed (calendar-multiget); the rest keep the intervals read before.
 *
 * Fail closed: a read that fails (a refused login, any answer but 2xx/207, a timeout, a cut-off or malformed answer)
 * marks the host unreadable, and an unreadable host is offered nothing until a read succeeds again. One log line
 * when a host goes bad and one when it comes back; neither holds a password or a URL with credentials.
 */
import { calendarQuery, fetchCalendarObjects } from 'tsdav';
import { ReadError, syncChanges, syncOffer, syncRefused } from './calendar-sync.js';
import type { Logger } from 'pino';
import { oneMonthAfter } from '../../domain/booking.js';
import { busyIntervals, type Interval } from './busy-times.js';
import { eventAnswers, type EventAnswers } from './event-answers.js';
import type { Host } from '../../server-shared/hosts/team.js';

/** Busy times offered to visitors are never older than this. */
export const MAX_STALENESS_MS = 60_000;
/** The background refresh runs this often, so that visitors seldom wait for a read. */
export const REFRESH_EVERY_MS = 30_000;
/** An unreadable host is tried again (in the background of a slot list) at most this often. */
export const RETRY_UNREADABLE_MS = 5_000;
/** A read (every request of it, bodies included) that takes longer fails. */
export const READ_TIMEOUT_MS = 5_000;

export type CalendarState = 'unread' | 'readable' | 'unreadable';

export interface HostCalendarStatus {
  index: number;
  name: string;
  state: CalendarState;
  /** When the last read that succeeded began; null before the first. */
  lastGoodReadAt: string | null;
  lastTriedAt: string | null;
  /** Why the last read failed (no credentials, no URL); null while readable. */
  lastError: string | null;
}

/** One object of a calendar as its last good read left it. */
interface KeptObject {
  etag: string | undefined;
  busy: Interval[];
  events: EventAnswers[];
}

/**
 * A good read of one host's calendar: when it began and every event in it, by UID (api/hosts/host-answers.ts
 * compares them with what the database says the calendar holds).
 */
export interface CalendarRead {
  began: Date;
  events: ReadonlyMap<string, EventAnswers>;
  /**
   * False only when sync-collection reported no member changed since the last good read, under the same sync-token:
   * nobody, neither the host nor the product, wrote into the calendar meanwhile (a token moves with every change,
   * even an event added and deleted again between two reads). True after every full read.
   */
  changed: boolean;
}

export type CalendarReadListener = (index: number, read: CalendarRead) => void | Promise<void>;

interface Kept {
  state: CalendarState;
  /** Busy intervals and events of the last good read, by object URL, with the ETag they were read at. */
  objects: Map<string, KeptObject>;
  busy: Interval[];
  goodAt: number | undefined;
  triedAt: number | undefined;
  error: string | undefined;
  inFlight: Promise<void> | undefined;
  /** The end of the window `objects` were expanded over. */
  windowEnd: number | undefined;
  /** Whether the server offers sync-collection; undefined until asked. */
  offersSync: boolean | undefined;
  /** The sync-token `objects` were read at, when the server offers sync-collection. */
  syncToken: string | undefined;
}

export interface HostCalendarsOptions {
  logger: Logger;
  now?: () => Date;
  /** The zone of the booking grid: all-day and floating times of a host without working hours are read in it. */
  bookingTimeZone: string;
  maxStalenessMs?: number;
  timeoutMs?: number;
}

/** A fetch for tsdav that sends the host's credentials, bounds the whole exchange in time and fails on any bad answer. */
function hostFetch(host: Host, timeoutMs: number): typeof fetch {
  const authorization = `Basic ${Buffer.from(`${host.calendarUsername}:${host.calendarPassword}`).toString('base64')}`;
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', authorization);
    let answer: Response;
    let body: string;
    const signal = AbortSignal.timeout(timeoutMs);
    const failure = (error: unknown, what: string) => {
      const name = (error as Error).name;
      return new ReadError(
        name === 'TimeoutError' || name === 'AbortError'
          ? `no answer within ${timeoutMs} ms`
          : `${what} (${(error as Error).message})`,
      );
    };
    try {
      answer = await fetch(input, { ...init, headers, signal, redirect: 'error' });
    } catch (error) {
      throw failure(error, 'the connection failed');
    }
    try {
      body = await answer.text();
    } catch (error) {
      throw failure(error, 'the answer was cut off');
    }
    if (answer.status === 401 || answer.status === 403)
      throw new ReadError(`the login was refused (${answer.status})`, answer.status);
    if (answer.status !== 207 && (answer.status < 200 || answer.status > 299))
      throw new ReadError(`the server answered ${answer.status}`, answer.status);
    // A multistatus answer must end as one: a body cut off on the way does not read as an empty calendar.
    if (answer.status === 207 && !/(<\/([\w-]+:)?multistatus>|<([\w-]+:)?multistatus\b[^>]*\/>)\s*$/.test(body))
      throw new ReadError('the answer was cut off or malformed');
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  };
}

const overlaps = (busy: readonly Interval[], start: number, end: number): boolean =>
  busy.some((interval) => interval.start < end && interval.end > start);

export class HostCalendars {
  readonly hosts: readonly Host[];
  private readonly kept: Kept[];
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly bookingTimeZone: string;
  private readonly maxStalenessMs: number;
  private readonly timeoutMs: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: CalendarReadListener[] = [];

  constructor(hosts: readonly Host[], options: HostCalendarsOptions) {
    this.hosts = hosts;
    this.kept = hosts.map(() => ({
      state: 'unread',
      objects: new Map(),
      busy: [],
      goodAt: undefined,
      triedAt: undefined,
      error: undefined,
      inFlight: undefined,
      windowEnd: undefined,
      offersSync: undefined,
      syncToken: undefined,
    }));
    this.logger = options.logger;
    this.now = options.now ?? (() => new Date());
    this.bookingTimeZone = options.bookingTimeZone;
    this.maxStalenessMs = options.maxStalenessMs ?? MAX_STALENESS_MS;
    this.timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
  }

  /** Reads every calendar now and then every `everyMs` in the background (never two reads of one host at once). */
  start(everyMs = REFRESH_EVERY_MS): void {
    void this.refreshAll();
    this.timer = setInterval(() => void this.refreshAll(), everyMs);
    this.timer.unref();
  }

  /** Told after every good read of a host's calendar, in the background (a listener's failure is its own to log). */
  onRead(listener: CalendarReadListener): void {
    this.listeners.push(listener);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Each host's busy intervals, no older than the bound (a host read longer ago is read again first, and concurrent
   * callers share that read), or undefined for a host whose calendar cannot be read (tried again meanwhile).
   */
  async busyTimes(): Promise<(readonly Interval[] | undefined)[]> {
    const at = this.now().getTime();
    await Promise.all(
      this.kept.map((kept, index) => {
        if (
          kept.state === 'unread' ||
          (kept.state === 'readable' && (kept.goodAt === undefined || at - kept.goodAt >= this.maxStalenessMs))
        )
          return this.refresh(index);
        // An unreadable host is tried again without keeping the visitor waiting on a server that may stall.
        if (kept.state === 'unreadable' && (kept.triedAt === undefined || at - kept.triedAt >= RETRY_UNREADABLE_MS))
          void this.refresh(index);
        return undefined;
      }),
    );
    return this.kept.map((kept) => (kept.state === 'readable' ? kept.busy : undefined));
  }

  /** One host's busy intervals read from the server now (booking time), or undefined when it cannot be read. */
  async freshBusyTimes(index: number): Promise<readonly Interval[] | undefined> {
    const running = this.kept[index]!.inFlight;
    // A read already on the way may have begun before the caller's moment: wait for it, then read once more.
    if (running) await running;
    await this.refresh(index);
    const kept = this.kept[index]!;
    return kept.state === 'readable' ? kept.busy : undefined;
  }

  /** Whether `host` is free over [start, end) by `busy` (from busyTimes or freshBusyTimes). */
  static isFree(busy: readonly Interval[], start: Date, end: Date): boolean {
    return !overlaps(busy, start.getTime(), end.getTime());
  }

  status(): HostCalendarStatus[] {
    return this.hosts.map((host, index) => {
      const kept = this.kept[index]!;
      return {
        index,
        name: host.name,
        state: kept.state,
        lastGoodReadAt: kept.goodAt === undefined ? null : new Date(kept.goodAt).toISOString(),
        lastTriedAt: kept.triedAt === undefined ? null : new Date(kept.triedAt).toISOString(),
        lastError: kept.state === 'unreadable' ? (kept.error ?? null) : null,
      };
    });
  }

  private refreshAll(): Promise<void> {
    return Promise.all(this.kept.map((_, index) => this.refresh(index))).then(() => undefined);
  }

  private refresh(index: number): Promise<void> {
    const kept = this.kept[index]!;
    kept.inFlight ??= this.read(index).finally(() => {
      kept.inFlight = undefined;
    });
    return kept.inFlight;
  }

  private async read(index: number): Promise<void> {
    const host = this.hosts[index]!;
    const kept = this.kept[index]!;
    const began = this.now();
    kept.triedAt = began.getTime();
    try {
      const { objects, busy, windowEnd, syncToken, changed } = await this.readCalendar(host, kept, began);
      kept.objects = objects;
      kept.windowEnd = windowEnd;
      kept.syncToken = syncToken;
      kept.busy = busy;
      kept.goodAt = began.getTime();
      if (kept.state === 'unreadable')
        this.logger.info({ host: host.name, hostIndex: index }, 'host calendar readable again');
      kept.state = 'readable';
      kept.error = undefined;
      if (this.listeners.length > 0) {
        const events = new Map<string, EventAnswers>();
        for (const object of objects.values()) for (const event of object.events) events.set(event.uid, event);
        for (const listener of this.listeners) void listener(index, { began, events, changed });
      }
    } catch (error) {
      const reason =
        error instanceof ReadError ? error.message : `the answer could not be read (${(error as Error).message})`;
      if (kept.state !== 'unreadable')
        this.logger.warn(
          { host: host.name, hostIndex: index, reason },
          'host calendar unreadable: not offered until it reads again',
        );
      kept.state = 'unreadable';
      kept.error = reason;
      kept.busy = [];
    }
  }

  private async readCalendar(
    host: Host,
    kept: Kept,
    now: Date,
  ): Promise<{
    objects: Kept['objects'];
    busy: Interval[];
    windowEnd: number;
    syncToken: string | undefined;
    changed: boolean;
  }> {
    const fetchForHost = hostFetch(host, this.timeoutMs);
    const zone = host.workingHours?.timeZone ?? this.bookingTimeZone;
    // From now to past the booking window's end. Objects are expanded a week further than needed, and kept by ETag
    // until the window passes that end: then every object is read and expanded again.
    const from = now;
    const needed = oneMonthAfter(now, this.bookingTimeZone).getTime() + 86_400_000;
    const widened = kept.windowEnd === undefined || kept.windowEnd < needed;
    const to = new Date(widened ? needed + 7 * 86_400_000 : kept.windowEnd!);
    const reusable = widened ? new Map<string, KeptObject>() : kept.objects;
    let objects: Kept['objects'] | undefined;
    let changed: string[] = [];
    let syncToken: string | undefined;
    let quiet = false;
    if (!widened && kept.offersSync && kept.syncToken !== undefined) {
      const changes = await syncChanges(host.calendarUrl, kept.syncToken, fetchForHost);
      if (changes === 'not-offered') kept.offersSync = false;
      else if (changes !== 'start-again') {
        quiet = changes.token === kept.syncToken && changes.changed.size === 0 && changes.removed.length === 0;
        objects = new Map(reusable);
        for (const url of changes.removed) objects.delete(url);
        for (const [url, etag] of changes.changed) {
          const before = reusable.get(url);
          if (before && etag !== undefined && before.etag === etag) continue;
          objects.delete(url);
          changed.push(url);
        }
        syncToken = changes.token;
      }
    }
    if (!objects) ({ objects, changed, syncToken } = await this.listCalendar(host, kept, reusable, fetchForHost));
    if (changed.length > 0) {
      const fetched = await fetchCalendarObjects({
        calendar: { url: host.calendarUrl },
        objectUrls: changed,
        urlFilter: () => true,
        fetch: fetchForHost,
      });
      const byUrl = new Map(fetched.map((object) => [object.url, object]));
      for (const url of changed) {
        const object = byUrl.get(url);
        if (!object || typeof object.data !== 'string' || object.data.trim() === '')
          throw new ReadError('an event listed could not be fetched');
        // The intervals are kept over the whole window; an object's ETag changes with its content.
        objects.set(url, {
          etag: object.etag,
          busy: busyIntervals([object.data], from, to, zone),
          events: eventAnswers(object.data),
        });
      }
    }
    const busy = [...objects.values()].flatMap((object) => object.busy).sort((a, b) => a.start - b.start);
    return { objects, busy, windowEnd: to.getTime(), syncToken, changed: !quiet };
  }

  /**
   * Every event's URL and ETag (the full read): the objects whose ETag is unchanged are reused, the others are to be
   * fetched. On a server that offers sync-collection, the token is asked first, so the next read syncs from it.
   */
  private async listCalendar(
    host: Host,
    kept: Kept,
    reusable: Kept['objects'],
    fetchForHost: typeof fetch,
  ): Promise<{ objects: Kept['objects']; changed: string[]; syncToken: string | undefined }> {
    let syncToken: string | undefined;
    if (kept.offersSync !== false) {
      try {
        const offer = await syncOffer(host.calendarUrl, kept.offersSync === undefined, fetchForHost);
        kept.offersSync = offer.offered;
        syncToken = offer.offered ? offer.token : undefined;
      } catch (error) {
        // A 403 here is a refused login, which the listing reports too; not a sign the server lacks the report.
        if (!syncRefused(error) || (error as ReadError).status === 403) throw error;
        kept.offersSync = false;
      }
    }
    // Every event's URL and ETag, without a time range: a server's own range filter can miss a recurring event whose
    // first instance lies before the window (xandikos does), and a missed event would read as free time.
    const listed = await calendarQuery({
      url: host.calendarUrl,
      props: { 'd:getetag': {} },
      filters: {
        'c:comp-filter': {
          _attributes: { name: 'VCALENDAR' },
          'c:comp-filter': { _attributes: { name: 'VEVENT' } },
        },
      },
      depth: '1',
      fetch: fetchForHost,
    });
    const objects: Kept['objects'] = new Map();
    const changed: string[] = [];
    for (const response of listed) {
      if (!response.href) continue;
      const url = new URL(response.href, host.calendarUrl).href;
      const etag = response.props?.getetag === undefined ? undefined : String(response.props.getetag);
      const before = reusable.get(url);
      if (before && etag !== undefined && before.etag === etag) objects.set(url, before);
      else changed.push(url);
    }
    return { objects, changed, syncToken };
  }
}
