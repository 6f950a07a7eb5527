/** The texts: a booking with the consent reaches the `smsc` service, which keeps it as a file in its volume. */
import { book, type Booking } from './http.js';
import { check, note, waitFor } from './run.js';
import { composeRun } from './stack.js';

/** Where the compose file mounts the SMSC's volume (SMSC_DIR). */
const SMSC_DIR = '/var/lib/converge-smsc';
const PHONE = '+33612345678';

/**
 * Books with a mobile number and the consent, with nothing set for the texts: the confirmation is a file in the SMSC's
 * volume (to that number, from the default sender, one GSM-7 part, the host's first name), and the worker took the
 * SMSC's delivery receipt.
 */
export async function textedBooking(apiUrl: string, index: number, slot: string): Promise<Booking> {
  const routing = await fetch(`${apiUrl}/api/routing`, { signal: AbortSignal.timeout(15_000) });
  const offered = (await routing.json()) as { texts?: boolean };
  check(offered.texts === true, 'GET /api/routing does not offer the texts: SMPP_URL did not reach the API');
  const booking = await book(apiUrl, index, slot, { phone: '+33 6 12 34 56 78', smsConsent: true });
  const file = await waitFor('the confirmation text in the smsc volume', 60_000, async () => {
    const listing = await composeRun(['exec', '-T', 'smsc', 'sh', '-c', `cat ${SMSC_DIR}/*.txt 2>/dev/null; true`]);
    return listing.stdout
      .split(/(?=^Message-Id: )/m)
      .find((text) => text.includes(`\nTo: ${PHONE}\n`) && text.includes('booked:'));
  });
  check(/^From: Converge$/m.test(file), `the text is not from Converge:\n${file}`);
  check(/^Encoding: GSM-7 \(data_coding \d\), \d+ septets, 1 part$/m.test(file), `not one GSM-7 part:\n${file}`);
  const firstName = booking.host?.name.split(' ')[0] ?? '';
  check(
    firstName !== '' && file.includes(`\n\nConverge demo with ${firstName} booked: `),
    `the text does not name the host ${booking.host?.name ?? '(none)'}:\n${file}`,
  );
  const messageId = /^Message-Id: (\S+)$/m.exec(file)?.[1];
  check(messageId, `the text has no message id:\n${file}`);
  await waitFor('the delivery receipt taken by a worker', 30_000, async () => {
    const logs = await composeRun(['logs', '--no-color', 'smsc'], { timeoutMs: 60_000 });
    return logs.stdout.split('\n').some((line) => line.includes('DELIVRD taken') && line.includes(messageId))
      ? true
      : undefined;
  });
  note(`booked ${booking.id} with the consent: the text ${messageId} to ${PHONE} from Converge, in ${SMSC_DIR}:`);
  for (const line of file.trim().split('\n')) note(`  ${line}`);
  note('its DELIVRD receipt taken by a worker');
  return booking;
}
