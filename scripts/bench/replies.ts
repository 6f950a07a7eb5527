/**
 * A prospect's Decline landing in the reply mailbox to their slot offered again (issue 39): the product in this
 * process (test/stack.ts: the API and the worker on a database and key prefix of their own) with a reply mailbox on a
 * real dovecot started for the run, at the default poll setting (the reader waits in IDLE). Each round books a demo,
 * waits for its confirmation, then appends a Decline shaped as Google Calendar sends it (DKIM-signed by the prospect's
 * domain, its DNS answered in this process) and times until GET /api/slots shows the slot bookable again. Prints the
 * p50 and the max of the rounds beside the goal. Figures only.
 */
import { bookableSlots } from '../../test/booking.js';
import { startImapServer } from '../../test/imap-server.js';
import { testDns } from '../../test/itip-replies.js';
import { TEST_LINK_SECRET, startStack } from '../../test/stack.js';
import { taggedReplyAddress } from '../../worker/replies/organizer.js';
import { percentile } from './processes.js';

const REPLY_ADDRESS = 'demo-replies@converge.localhost';
const CLIENT_IP = '192.0.2.41';
const GOAL_MS = 120_000;

export interface RepliesBenchOptions {
  say: (line?: string) => void;
  rounds?: number;
}

async function poll<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 180_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function repliesSection({ say, rounds = 10 }: RepliesBenchOptions): Promise<void> {
  const dns = testDns();
  dns.publish('hopper-systems.com', [CLIENT_IP]);
  const imap = await startImapServer();
  const stack = await startStack({
    env: { REPLY_MAILBOX_URL: imap.url, REPLY_MAILBOX_ADDRESS: REPLY_ADDRESS },
    workerOptions: { replyResolver: dns.resolver },
  });
  try {
    const slots = bookableSlots(rounds);
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const slot = slots[round]!.iso;
      const email = `bench${round}@hopper-systems.com`;
      const response = await fetch(`${stack.url}/api/demo-request`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Grace Hopper', email, company: 'Hopper Systems', timeSlot: slot }),
      });
      if (response.status !== 201) throw new Error(`booking answered ${response.status}`);
      const id = String(((await response.json()) as { id: string }).id);
      await poll(async () => stack.smtp.messages.find((mail) => mail.envelopeTo.includes(email)), 'the confirmation');
      const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(slot));
      const offered = async () => {
        const day = (await (await fetch(`${stack.url}/api/slots?date=${date}`)).json()) as {
          slots: { start: string; available: boolean }[];
        };
        return day.slots.find((entry) => entry.start === slot)?.available ? true : undefined;
      };
      const decline = await dns.reply({
        shape: 'google',
        uid: `demo-${id}@converge.localhost`,
        organizer: taggedReplyAddress(REPLY_ADDRESS, id, TEST_LINK_SECRET),
        attendee: { name: 'Grace Hopper', email },
        partstat: 'DECLINED',
        signedBy: 'hopper-systems.com',
        clientIp: CLIENT_IP,
      });
      const started = performance.now();
      await imap.append([decline]);
      await poll(offered, 'the slot offered again');
      times.push(performance.now() - started);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    say();
    say(`A Decline in the reply mailbox to the slot offered again (${rounds} rounds, default poll, IDLE)`);
    say(`  p50 ${s(percentile(sorted, 50))}, max ${s(sorted.at(-1)!)} (goal under ${s(GOAL_MS)})`);
    say(`  each: ${times.map(s).join(', ')}`);
  } finally {
    await stack.close();
    await imap.stop();
  }
}
