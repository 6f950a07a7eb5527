import { expect } from 'chai';
import { HostCalendars } from './hosts/calendars.js';
import { parseTeam } from '../server-shared/hosts/team.js';
import { sample } from '../test/prometheus.js';
import { silentLogger } from '../test/stack.js';
import { createApiMetrics } from './metrics.js';

describe("the API's metrics of the hosts' calendars", () => {
  it("says which host's calendar reads and when it last read well, by the host's name", async () => {
    const team = parseTeam(
      JSON.stringify({
        hosts: [
          {
            name: 'Dana Whitfield',
            title: 'Solutions Engineer',
            email: 'dana@converge.test',
            calendarUrl: 'http://127.0.0.1:1/dana/',
            calendarUsername: 'dana',
            calendarPassword: 'x',
          },
        ],
      }),
      {},
    ).hosts;
    const calendars = new HostCalendars(team, {
      logger: silentLogger,
      bookingTimeZone: 'Europe/Berlin',
      timeoutMs: 500,
    });
    const metrics = createApiMetrics(calendars);
    await calendars.busyTimes();
    const text = await metrics.registry.metrics();
    expect(sample(text, 'converge_host_calendar_readable', { host: 'Dana Whitfield' })).to.equal(0);
    expect(text).to.match(/^converge_host_calendar_readable\{host="Dana Whitfield",program="api"\} 0$/m);
    expect(text).to.not.match(/^converge_host_calendar_last_read_seconds\{/m);
    expect(text).to.not.include('dana@converge.test');
  });
});
