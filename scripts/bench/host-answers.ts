/**
 * Issue 39's first figure: the time from a host's deletion of a demo's event in their own calendar to the prospect's
 * e-mail naming the host they meet now, with the default poll (HOST_CALENDAR_POLL_SECONDS unset: 30 s). The real API
 * and worker in this process (test/stack.ts), a team of three hosts with xandikos calendars, an SMTP sink. Ten
 * bookings at ten slots; each event is deleted at a moment of its own spread over one poll period, so that the
 * deletions fall at every phase of the poll, and each is timed from its DELETE's answer to the update's arrival in
 * the sink (looked for every 50 ms). Prints p50 and max of the ten. Figures only.
 */
import { bookableSlots } from '../../test/booking.js';
import { storedDemoEvent } from '../../test/caldav-server.js';
import { startTeamCalendars } from '../../test/team-calendars.js';
import { startStack } from '../../test/stack.js';
import { until } from '../../test/until.js';
import { REFRESH_EVERY_MS } from '../../api/hosts/calendars.js';
import { percentile } from './processes.js';

const DELETIONS = 10;

export interface HostAnswersBenchOptions {
  say: (line?: string) => void;
}

export async function hostAnswersSection({ say }: HostAnswersBenchOptions): Promise<void> {
  say();
  say(
    `Host answers (issue 39): a host deletes a demo's event, to the prospect's e-mail naming the new host (${DELETIONS} deletions, default poll ${REFRESH_EVERY_MS / 1000} s)`,
  );
  const team = await startTeamCalendars({ hosts: ['ana', 'ben', 'cy'] });
  const { caldav, calendars } = team;
  const stack = await startStack({ env: { TEAM_FILE: team.teamFile } });
  try {
    const slots = bookableSlots(DELETIONS);
    const booked: { id: string; email: string; host: string }[] = [];
    for (const [index, slot] of slots.entries()) {
      const email = `prospect${index}@bench-host-answers.com`;
      const answer = await fetch(`${stack.url}/api/demo-request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Bench Prospect', email, company: 'Bench Co', timeSlot: slot.iso }),
      });
      if (answer.status !== 201) throw new Error(`booking answered ${answer.status}`);
      const id = String(((await answer.json()) as { id: string }).id);
      const row = (await stack.db('bookings').where({ id }).first('host_email')) as { host_email: string };
      const host = row.host_email.split('@')[0]!;
      await until(() => storedDemoEvent(calendars[host]!, id), 'the event in its host calendar', 60_000);
      booked.push({ id, email, host });
    }
    const times = await Promise.all(
      booked.map(async ({ id, email, host }, index) => {
        // Spread over one poll period: every phase of the poll is met.
        await new Promise((resolve) => setTimeout(resolve, (index * REFRESH_EVERY_MS) / DELETIONS));
        await caldav.deleteEvent(calendars[host]!, `demo-${id}@converge.localhost`);
        const deletedAt = performance.now();
        await until(
          async () =>
            stack.smtp.messages.find(
              (mail) => mail.envelopeTo.includes(email) && /is now with/.test(mail.parsed.subject ?? ''),
            ),
          "the prospect's update",
          5 * 60_000,
        );
        return performance.now() - deletedAt;
      }),
    );
    const sorted = [...times].sort((a, b) => a - b);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    say(
      `  deletion to the prospect's e-mail: p50 ${seconds(percentile(sorted, 50))}, max ${seconds(sorted.at(-1)!)} (goal under 120 s each)`,
    );
  } finally {
    await stack.close();
    await team.stop();
  }
}
