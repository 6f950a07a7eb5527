import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../settings.js';
import { hostDay, parseTeam, readTeamFile, withinWorkingHours } from './team.js';

const host = (extra: Record<string, unknown> = {}) => ({
  name: 'Anna Berg',
  title: 'Solutions engineer',
  email: 'anna@converge.test',
  calendarUrl: 'https://dav.example/anna/calendar',
  calendarUsername: 'anna',
  calendarPassword: 'secret',
  ...extra,
});
const team = (...hosts: unknown[]) => JSON.stringify({ hosts });

describe('the team file', () => {
  it('gives each host with the defaults filled in', () => {
    const [anna] = parseTeam(
      team(
        host({
          dailyLimit: 4,
          workingHours: { days: [1, 2, 3], start: '09:00', end: '17:30', timeZone: 'America/New_York' },
        }),
      ),
      {},
    ).hosts;
    expect(anna).to.deep.include({
      index: 0,
      name: 'Anna Berg',
      calendarUrl: 'https://dav.example/anna/calendar/',
      calendarPassword: 'secret',
      dailyLimit: 4,
      weight: 1,
    });
    expect(anna!.workingHours).to.deep.equal({
      days: [1, 2, 3],
      start: '09:00',
      end: '17:30',
      timeZone: 'America/New_York',
    });
  });

  it('takes a password from the environment variable the host names', () => {
    const [anna] = parseTeam(team(host({ calendarPassword: undefined, calendarPasswordEnv: 'ANNA_CALDAV_PASSWORD' })), {
      ANNA_CALDAV_PASSWORD: 'from-env',
    }).hosts;
    expect(anna!.calendarPassword).to.equal('from-env');
    expect(() =>
      parseTeam(team(host({ calendarPassword: undefined, calendarPasswordEnv: 'ANNA_CALDAV_PASSWORD' })), {}),
    ).to.throw(ConfigError, '/hosts/0/calendarPasswordEnv names ANNA_CALDAV_PASSWORD, which is not set');
    expect(() => parseTeam(team(host({ calendarPasswordEnv: 'ANNA_CALDAV_PASSWORD' })), {})).to.throw(
      ConfigError,
      'needs one of calendarPassword and calendarPasswordEnv',
    );
  });

  it('stops start-up naming the field that is wrong', () => {
    const cases: [string, string][] = [
      [team(host({ email: undefined })), '/hosts/0/email is missing'],
      [team(host(), host({ dailyLimit: 0 })), '/hosts/1/dailyLimit must be >= 1'],
      [team(host({ calendarUrl: 'ftp://x' })), '/hosts/0/calendarUrl must match'],
      [
        team(host({ workingHours: { days: [1], start: '9:00', end: '17:00', timeZone: 'Europe/Berlin' } })),
        '/hosts/0/workingHours/start must match',
      ],
      [
        team(host({ workingHours: { days: [1], start: '09:00', end: '17:00', timeZone: 'Mars/Olympus' } })),
        '/hosts/0/workingHours/timeZone is not a time zone',
      ],
      [
        team(host({ workingHours: { days: [1], start: '17:00', end: '09:00', timeZone: 'Europe/Berlin' } })),
        '/hosts/0/workingHours/end must be later than start',
      ],
      [team(host({ colour: 'red' })), '/hosts/0 has an unknown field "colour"'],
      [JSON.stringify({ hosts: [] }), '/hosts must NOT have fewer than 1 items'],
      ['{"hosts": [', 'is not JSON'],
    ];
    for (const [text, message] of cases) expect(() => parseTeam(text, {}), message).to.throw(ConfigError, message);
  });

  it('gives its routing with the hosts, and stops start-up on a route naming no host of the file', () => {
    const questions = [{ id: 'companySize', label: 'Company size', options: ['1-49', '5000+'] }];
    const routes = [{ when: { companySize: ['5000+'] }, hosts: ['anna@dav.example'] }, { hosts: '*' }];
    const parsed = parseTeam(JSON.stringify({ hosts: [host({ email: 'anna@dav.example' })], questions, routes }), {});
    expect(parsed.hosts).to.have.length(1);
    expect(parsed.routing).to.deep.equal({ questions, routes });
    expect(parseTeam(team(host()), {}).routing).to.deep.equal({ questions: [], routes: undefined });
    expect(() =>
      parseTeam(JSON.stringify({ hosts: [host()], routes: [{ hosts: ['lina@dav.example'] }] }), {}, 'TEAM_FILE'),
    ).to.throw(ConfigError, 'TEAM_FILE: /routes/0/hosts "lina@dav.example" is not a host of the file');
    expect(() => parseTeam(JSON.stringify({ hosts: [host()], colour: 'red' }), {})).to.throw(
      ConfigError,
      'has an unknown field "colour"',
    );
  });

  it('is read from TEAM_FILE, and without it there is no team', async () => {
    expect(readTeamFile({})).to.equal(undefined);
    const folder = await mkdtemp(path.join(tmpdir(), 'converge-team-'));
    try {
      const file = path.join(folder, 'team.json');
      await writeFile(file, team(host()));
      expect(readTeamFile({ TEAM_FILE: file })?.hosts).to.have.length(1);
      expect(() => readTeamFile({ TEAM_FILE: path.join(folder, 'missing.json') })).to.throw(
        ConfigError,
        'cannot be read: ENOENT',
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("bounds a host's day on their clock on a day it starts at 01:00, west of UTC", () => {
    const [havana] = parseTeam(
      team(host({ workingHours: { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', timeZone: 'America/Havana' } })),
      {},
    ).hosts;
    // Havana's clock goes from 00:00 to 01:00 on 8 March 2026, so 7 March ends at 05:00 UTC, not an hour before.
    const day = hostDay(havana!, new Date('2026-03-08T04:59:00Z'), 'Europe/Berlin');
    expect([day.start.toISOString(), day.end.toISOString()]).to.deep.equal([
      '2026-03-07T05:00:00.000Z',
      '2026-03-08T05:00:00.000Z',
    ]);
    const next = hostDay(havana!, new Date('2026-03-08T05:00:00Z'), 'Europe/Berlin');
    expect(next.start.toISOString()).to.equal('2026-03-08T05:00:00.000Z');
  });

  it("keeps a slot within its host's hours throughout when their clock is turned back in it, not only at its ends", () => {
    const hostIn = (timeZone: string, start: string, end: string) =>
      parseTeam(team(host({ workingHours: { days: [1, 2, 3, 4, 5, 6, 7], start, end, timeZone } })), {}).hosts[0]!;
    const slot = (iso: string): [Date, Date] => [new Date(iso), new Date(new Date(iso).getTime() + 3_600_000)];
    // Amsterdam's clock reads 02:30–02:59 CEST, then 02:00–02:29 CET in this slot of 25 October 2026: before 02:30.
    const amsterdam = hostIn('Europe/Amsterdam', '02:30', '23:00');
    expect(withinWorkingHours(amsterdam, ...slot('2026-10-25T00:30:00Z'))).to.equal(false);
    expect(withinWorkingHours(amsterdam, ...slot('2026-10-25T01:30:00Z'))).to.equal(true);
    // Santiago's reads 23:30–23:59, then 23:00–23:29 on 6 April 2030: past an end of 23:45.
    expect(withinWorkingHours(hostIn('America/Santiago', '15:15', '23:45'), ...slot('2030-04-07T02:30:00Z'))).to.equal(
      false,
    );
    expect(withinWorkingHours(hostIn('America/Santiago', '15:15', '24:00'), ...slot('2030-04-07T02:30:00Z'))).to.equal(
      true,
    );
  });
});
