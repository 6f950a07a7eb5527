/**
 * A real CalDAV server for the tests: Debian's xandikos on a free loopback port over a temporary folder, and in front
 * of it a small proxy that checks HTTP Basic credentials and can be told to fail the way a calendar server does:
 * refuse the login, answer 500, stall, or cut its answer off.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/dev-services/ports.js';
import { until } from './until.js';

/**
 * The sync faults answer a sync-collection REPORT in xandikos's stead: `invalid-sync-token` refuses it as RFC 6578
 * refuses an expired token (403), `sync-truncated` reports the collection truncated (507), `sync-not-implemented` 501.
 */
export type ProxyFault =
  | 'none'
  | 'refuse-login'
  | 'error-500'
  | 'stall'
  | 'cut-off'
  | 'invalid-sync-token'
  | 'sync-truncated'
  | 'sync-not-implemented';

export const CALDAV_USER = 'host';
export const CALDAV_PASSWORD = 'calendar-password';

export interface CalDavServer {
  /** The proxy's base URL (credentials checked there). */
  baseUrl: string;
  /** Makes a calendar collection and gives its URL. */
  makeCalendar(name: string): Promise<string>;
  /** Stores an iCalendar object in a collection, by plain HTTP PUT. */
  putEvent(calendarUrl: string, name: string, ics: string): Promise<void>;
  deleteEvent(calendarUrl: string, name: string): Promise<void>;
  /** How the proxy answers the requests for the collections whose URL starts with `prefix` (all: '/'). */
  setFault(fault: ProxyFault, prefix?: string): void;
  /** Requests that reached xandikos through the proxy, by method. */
  requests: string[];
  /** The REPORTs that reached xandikos, by the name of their body's root element (sync-collection, …). */
  reports: string[];
  stop(): Promise<void>;
}

const basic = `Basic ${Buffer.from(`${CALDAV_USER}:${CALDAV_PASSWORD}`).toString('base64')}`;

export async function startCalDavServer(): Promise<CalDavServer> {
  const folder = await mkdtemp(path.join(tmpdir(), 'converge-caldav-'));
  const port = await freePort();
  const xandikos: ChildProcess = spawn(
    'xandikos',
    ['-d', folder, '--defaults', '-l', '127.0.0.1', '-p', String(port)],
    { stdio: 'ignore' },
  );
  const upstream = `http://127.0.0.1:${port}`;
  await until(
    async () =>
      (await fetch(`${upstream}/user/calendars/`, { method: 'PROPFIND', headers: { Depth: '0' } }).then(
        (answer) => answer.status,
        () => undefined,
      )) === 207
        ? true
        : undefined,
    'xandikos',
    20_000,
  );

  const faults = new Map<string, ProxyFault>();
  const requests: string[] = [];
  const reports: string[] = [];
  const sockets = new Set<Socket>();
  const faultFor = (url: string): ProxyFault => {
    let found: ProxyFault = 'none';
    let length = -1;
    for (const [prefix, fault] of faults)
      if (url.startsWith(prefix) && prefix.length > length) [found, length] = [fault, prefix.length];
    return found;
  };
  const proxy: Server = createServer((incoming, outgoing) => {
    const fault = faultFor(incoming.url ?? '/');
    if (incoming.headers.authorization !== basic || fault === 'refuse-login') {
      outgoing.writeHead(401, { 'WWW-Authenticate': 'Basic realm="calendars"' }).end('login refused');
      return;
    }
    if (fault === 'error-500') {
      outgoing.writeHead(500).end('internal error');
      return;
    }
    if (fault === 'stall') return; // never answers; the socket is destroyed at stop()
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => forward(Buffer.concat(chunks)));
    const forward = (body: Buffer) => {
      const report =
        incoming.method === 'REPORT'
          ? /<(?:[\w-]+:)?([\w-]+)[\s>]/.exec(body.toString().replace(/<\?xml[^>]*\?>/, ''))?.[1]
          : undefined;
      if (report === 'sync-collection' && (fault === 'invalid-sync-token' || fault.startsWith('sync-'))) {
        const xml = { 'Content-Type': 'application/xml; charset=utf-8' };
        if (fault === 'invalid-sync-token')
          outgoing.writeHead(403, xml).end('<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>');
        else if (fault === 'sync-truncated')
          outgoing
            .writeHead(207, xml)
            .end(
              `<D:multistatus xmlns:D="DAV:"><D:response><D:href>${incoming.url}</D:href>` +
                '<D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>' +
                '<D:sync-token>http://example.invalid/truncated</D:sync-token></D:multistatus>',
            );
        else outgoing.writeHead(501).end('not implemented');
        return;
      }
      requests.push(incoming.method ?? '');
      if (report) reports.push(report);
      const forwarded = request(
        `${upstream}${incoming.url}`,
        { method: incoming.method, headers: { ...incoming.headers, host: `127.0.0.1:${port}` } },
        (answer) => {
          if (fault === 'cut-off') {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => {
              const body = Buffer.concat(chunks);
              // Announces the whole body, sends half of it, and closes the connection.
              outgoing.writeHead(answer.statusCode ?? 502, {
                'Content-Type': answer.headers['content-type'] ?? 'text/xml',
                'Content-Length': String(body.length),
              });
              outgoing.write(body.subarray(0, Math.floor(body.length / 2)), () => outgoing.socket?.destroy());
            });
            return;
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.end(body);
    };
  });
  proxy.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const direct = async (url: string, init: RequestInit, expected: number[]) => {
    const answer = await fetch(url.replace(baseUrl, upstream), init);
    if (!expected.includes(answer.status))
      throw new Error(`${init.method} ${url}: ${answer.status} ${await answer.text()}`);
  };

  return {
    baseUrl,
    requests,
    reports,
    async makeCalendar(name) {
      const url = `${baseUrl}/user/calendars/${name}/`;
      await direct(url, { method: 'MKCALENDAR' }, [201]);
      return url;
    },
    async putEvent(calendarUrl, name, ics) {
      await direct(
        `${calendarUrl}${name}.ics`,
        { method: 'PUT', headers: { 'Content-Type': 'text/calendar; charset=utf-8' }, body: ics },
        [201, 204],
      );
    },
    async deleteEvent(calendarUrl, name) {
      await direct(`${calendarUrl}${name}.ics`, { method: 'DELETE' }, [204, 200]);
    },
    setFault(fault, prefix = '/') {
      const key = prefix.startsWith('http') ? new URL(prefix).pathname : prefix;
      if (fault === 'none') faults.delete(key);
      else faults.set(key, fault);
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      const exited = new Promise<void>((resolve) => xandikos.once('exit', () => resolve()));
      xandikos.kill('SIGTERM');
      await exited;
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** An iCalendar object of one event; `lines` are added inside the VEVENT (RRULE, TRANSP, STATUS, …). */
export function eventIcs(uid: string, start: string, end: string, lines: string[] = [], zones = ''): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Converge tests//EN',
    ...(zones ? [zones] : []),
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261101T000000Z',
    start,
    end,
    'SUMMARY:Busy',
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** The booking's event as a host's calendar holds it, or undefined when it holds none. */
export async function storedDemoEvent(calendarUrl: string, bookingId: string): Promise<string | undefined> {
  const answer = await fetch(`${calendarUrl}${encodeURIComponent(`demo-${bookingId}@converge.localhost`)}.ics`, {
    headers: { Authorization: basic },
  });
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw new Error(`the calendar answered ${answer.status}`);
  return answer.text();
}
