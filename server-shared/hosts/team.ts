/**
 * The team that gives the demos (TEAM_FILE): each host's CalDAV calendar, daily limit, weight and working hours, and
 * the routing's questions and routes (routing-file.ts). Read and validated with Ajv once at start; a bad file stops
 * start-up with a message naming the field.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type JSONSchemaType } from 'ajv';
import { calendarDayOf, isValidTimeZone, zonedParts, zonedTimeToInstant } from '../../domain/booking.js';
import { ConfigError, type Env } from '../settings.js';
import { fileProblem } from './file-problem.js';
import { parseTeamRouting, type TeamRouting } from './routing-file.js';

export interface WorkingHours {
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  days: number[];
  /** "HH:MM" in `timeZone`; a slot must start at or after `start` and end at or before `end`. */
  start: string;
  end: string;
  timeZone: string;
}

interface HostEntry {
  name: string;
  title: string;
  email: string;
  calendarUrl: string;
  calendarUsername: string;
  calendarPassword?: string;
  /** The name of an environment variable holding the password, in place of `calendarPassword`. */
  calendarPasswordEnv?: string;
  dailyLimit?: number;
  weight?: number;
  workingHours?: WorkingHours;
}

export interface Host {
  /** The host's place in the file, from 0: how logs and the operators' endpoint name a host besides its name. */
  index: number;
  name: string;
  title: string;
  email: string;
  calendarUrl: string;
  calendarUsername: string;
  calendarPassword: string;
  dailyLimit: number | undefined;
  weight: number;
  workingHours: WorkingHours | undefined;
}

/** The team file: its hosts, and who of them may take which prospect. */
export interface Team {
  hosts: Host[];
  routing: TeamRouting;
}

const clock = '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$';

const teamSchema: JSONSchemaType<{ hosts: HostEntry[] }> = {
  type: 'object',
  additionalProperties: false,
  required: ['hosts'],
  properties: {
    hosts: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'title', 'email', 'calendarUrl', 'calendarUsername'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          title: { type: 'string', maxLength: 200 },
          email: { type: 'string', pattern: '^[^\\s@]+@[^\\s@]+$', maxLength: 254 },
          calendarUrl: { type: 'string', pattern: '^https?://' },
          calendarUsername: { type: 'string' },
          calendarPassword: { type: 'string', nullable: true },
          calendarPasswordEnv: { type: 'string', pattern: '^[A-Z_][A-Z0-9_]*$', nullable: true },
          dailyLimit: { type: 'integer', minimum: 1, nullable: true },
          weight: { type: 'number', exclusiveMinimum: 0, nullable: true },
          workingHours: {
            type: 'object',
            nullable: true,
            additionalProperties: false,
            required: ['days', 'start', 'end', 'timeZone'],
            properties: {
              days: {
                type: 'array',
                minItems: 1,
                uniqueItems: true,
                items: { type: 'integer', minimum: 1, maximum: 7 },
              },
              start: { type: 'string', pattern: clock },
              end: { type: 'string', pattern: clock },
              timeZone: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

const validate = new Ajv({ allErrors: false }).compile(teamSchema);

const minutesOf = (clockTime: string): number => Number(clockTime.slice(0, 2)) * 60 + Number(clockTime.slice(3, 5));

/** The team in `text` (the file's content); `env` gives the passwords named by `calendarPasswordEnv`. */
export function parseTeam(text: string, env: Env, source = 'TEAM_FILE'): Team {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source} is not JSON: ${(error as Error).message}`);
  }
  // The routing's keys are routing-file.ts's to check; the hosts are checked here without them.
  const { questions, routes, ...rest } = (typeof data === 'object' && data !== null ? data : {}) as Record<
    string,
    unknown
  >;
  const hostsPart = typeof data === 'object' && data !== null ? rest : data;
  if (!validate(hostsPart)) throw fileProblem(validate.errors, source);
  const hosts = hostsOf(hostsPart.hosts, env, source);
  const routingPart = {
    ...(questions === undefined ? {} : { questions }),
    ...(routes === undefined ? {} : { routes }),
  };
  return { hosts, routing: parseTeamRouting(routingPart, hosts, source) };
}

function hostsOf(entries: HostEntry[], env: Env, source: string): Host[] {
  return entries.map((entry, index) => {
    const at = `${source}: /hosts/${index}`;
    if ((entry.calendarPassword === undefined) === (entry.calendarPasswordEnv === undefined)) {
      throw new ConfigError(`${at} needs one of calendarPassword and calendarPasswordEnv`);
    }
    const password = entry.calendarPassword ?? env[entry.calendarPasswordEnv!];
    if (password === undefined || password === '')
      throw new ConfigError(`${at}/calendarPasswordEnv names ${entry.calendarPasswordEnv}, which is not set`);
    const hours = entry.workingHours;
    if (hours && !isValidTimeZone(hours.timeZone))
      throw new ConfigError(`${at}/workingHours/timeZone is not a time zone: ${hours.timeZone}`);
    if (hours && minutesOf(hours.start) >= minutesOf(hours.end))
      throw new ConfigError(`${at}/workingHours/end must be later than start`);
    return {
      index,
      name: entry.name,
      title: entry.title,
      email: entry.email,
      calendarUrl: entry.calendarUrl.endsWith('/') ? entry.calendarUrl : `${entry.calendarUrl}/`,
      calendarUsername: entry.calendarUsername,
      calendarPassword: password,
      dailyLimit: entry.dailyLimit,
      weight: entry.weight ?? 1,
      workingHours: hours,
    };
  });
}

/** The team named by TEAM_FILE, or undefined when it is unset (slots by SLOT_CAPACITY, no host). */
export function readTeamFile(env: Env): Team | undefined {
  const file = env.TEAM_FILE?.trim();
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `TEAM_FILE ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseTeam(text, env, `TEAM_FILE ${file}`);
}

/** The zone's wall clock at the instant, read as UTC's (ms): two readings' difference is the time the clock shows between. */
const wallTime = (instant: number, timeZone: string): number => {
  const p = zonedParts(new Date(instant), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
};

/**
 * The minutes of `start`..`end` at which the host's clock reads earliest and latest: the first and the last, and, where
 * its clock is turned forward or back within the slot, the last before the change and the first after it (the
 * reading rises with time but at a change, which a slot holds at most one of).
 */
function extremeMinutes(start: Date, end: Date, timeZone: string): number[] {
  const first = start.getTime();
  const last = end.getTime() - 60_000;
  const minutes = [first, last];
  if (wallTime(last, timeZone) - wallTime(first, timeZone) === last - first) return minutes;
  // The first minute read with the later offset, halving the slot down to the minute.
  let before = first;
  let after = last;
  while (after - before > 60_000) {
    const middle = before + Math.floor((after - before) / 120_000) * 60_000;
    if (wallTime(middle, timeZone) - wallTime(first, timeZone) === middle - first) before = middle;
    else after = middle;
  }
  return [...minutes, before, after];
}

/**
 * Whether a slot of `start`..`end` lies inside the host's working hours (no hours: the booking grid alone): every
 * minute of it read on one working day of theirs, at or after `start` and ending at or before `end`.
 */
export function withinWorkingHours(host: Host, start: Date, end: Date): boolean {
  const hours = host.workingHours;
  if (!hours) return true;
  const from = zonedParts(start, hours.timeZone);
  const isoWeekday = from.weekday === 0 ? 7 : from.weekday;
  if (!hours.days.includes(isoWeekday)) return false;
  return extremeMinutes(start, end, hours.timeZone).every((minute) => {
    const read = zonedParts(new Date(minute), hours.timeZone);
    // A slot ending at midnight ends on its own day: its last minute is read, not its end.
    if (read.year !== from.year || read.month !== from.month || read.day !== from.day) return false;
    const clock = read.hour * 60 + read.minute;
    return clock >= minutesOf(hours.start) && clock + 1 <= minutesOf(hours.end);
  });
}

/**
 * The host's day that holds `instant`, midnight to midnight on their clock (their working hours' zone, else the
 * booking zone): the day their daily limit counts demos in.
 */
export function hostDay(host: Host, instant: Date, bookingTimeZone: string): { start: Date; end: Date } {
  const zone = host.workingHours?.timeZone ?? bookingTimeZone;
  const day = calendarDayOf(instant, zone);
  // The next day's midnight: Date.UTC carries a day past the month's end into the next month.
  return { start: zonedTimeToInstant(day, 0, zone), end: zonedTimeToInstant({ ...day, day: day.day + 1 }, 0, zone) };
}
