/**
 * A team whose hosts' calendars are on a real CalDAV server started for the test (xandikos behind its proxy,
 * test/caldav-server.ts), and its team file for TEAM_FILE: the setup every test of a team with calendars shares.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CALDAV_PASSWORD, CALDAV_USER, startCalDavServer, type CalDavServer } from './caldav-server.js';

/** A host's address in these teams: their name in lower case at converge.test ('Ana': ana@converge.test). */
export const hostEmail = (name: string): string => `${name.toLowerCase()}@converge.test`;

export interface TeamCalendarsOptions {
  /** The hosts, each with a calendar of their own named after them in lower case ('ana'). */
  hosts: readonly string[];
  /** The name the team file gives a host, when not the one above (an acceptance check's 'Anna Host'). */
  hostName?: (name: string) => string;
  /** Every host's title (default 'Solutions Engineer'). */
  title?: string;
  /** More of the team file beside its hosts: its questions and routes. */
  file?: Record<string, unknown>;
}

export interface TeamCalendars {
  caldav: CalDavServer;
  /** Each host's calendar URL, by their name in lower case ('ana'). */
  calendars: Readonly<Record<string, string>>;
  /** The team file, for TEAM_FILE. */
  teamFile: string;
  /** The team file's folder, for the test's other files (removed with it). */
  folder: string;
  stop(): Promise<void>;
}

export async function startTeamCalendars(options: TeamCalendarsOptions): Promise<TeamCalendars> {
  const caldav = await startCalDavServer();
  const calendars: Record<string, string> = {};
  for (const name of options.hosts) calendars[name.toLowerCase()] = await caldav.makeCalendar(name.toLowerCase());
  const folder = await mkdtemp(path.join(tmpdir(), 'converge-team-'));
  const teamFile = path.join(folder, 'team.json');
  const hosts = options.hosts.map((name) => ({
    name: options.hostName?.(name) ?? name,
    title: options.title ?? 'Solutions Engineer',
    email: hostEmail(name),
    calendarUrl: calendars[name.toLowerCase()],
    calendarUsername: CALDAV_USER,
    calendarPassword: CALDAV_PASSWORD,
  }));
  await writeFile(teamFile, JSON.stringify({ hosts, ...options.file }));
  return {
    caldav,
    calendars,
    teamFile,
    folder,
    async stop() {
      await caldav.stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
