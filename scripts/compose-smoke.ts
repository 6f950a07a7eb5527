/**
 * `npm run test:compose`: the compose smoke test. On a Debian machine (root, or a user of the docker group) it runs
 * the real stack of docker-compose.yml and checks what operations rely on:
 *
 *   1. Docker: installs Debian's docker.io and docker-compose if missing, starts dockerd if none answers, and uses
 *      Compose v2 (`docker compose`) where it exists, else v1 (`docker-compose`).
 *   2. Base images: pulled where Docker Hub answers, else built as local stand-ins by
 *      shared/container-images/build-standins.sh: STANDINS_SCRIPT if set, else the first found beside this
 *      checkout or one of its parent folders, or beside the repository it was cloned from (a CI clone elsewhere).
 *   3. As a clean clone: no .env (an empty file in its place, so a developer's own is not read) and none of the
 *      settings of .env.example in the environment but the free host ports. `up --build`, every service healthy;
 *      the booking-link secret and the admin token made once in the `secrets` volume (node's alone, 700 and 600;
 *      the same in the API and the worker; nothing in the image). The demo team: GET /api/hosts shows its three
 *      calendars readable, none failed to read on the way, the CalDAV server is not root; the slot of the weekly
 *      sales sync (every host busy) and those of the seeded one-off workshop are not offered while the slots beside
 *      them are; a free one is booked (201). Its confirmation in Mailpit with links signed by the kept secret; the
 *      operations endpoint answers the kept token; no log line holds either secret. `down` then `up` (no -v): the
 *      same secret, and the first booking's link still answers 200.
 *   4. The .env cases, on new PostgreSQL and Redis volumes (the secrets volume stays): an env file with a PostgreSQL
 *      password full of URL syntax (p@ss/w:rd#1), a BOOKING_LINK_SECRET and an ADMIN_TOKEN of its own, which win
 *      over the kept ones. dist/api/migrate.js (the Kubernetes migration Job and the API's init container) runs
 *      from the image. One demo booked, its links signed with the .env secret.
 *   5. The worker scaled to 3; 20 more bookings, in slots GET /api/slots offers; exactly 20 more e-mails, one per
 *      booking (by Message-ID).
 *      One more booked with a mobile number and the texts' consent: its confirmation text is a file in the `smsc`
 *      service's volume (to that number, from Converge, one GSM-7 part, the host's first name), its receipt taken.
 *   6. The workers stopped: each exits 0 within 10 s (`stop -t 10`: a worker still running then is killed, 137).
 *   7. `down` then `up`: the rows are still there (GET /api/demo-requests, and psql in the postgres container).
 *
 * It runs as its own compose project (converge-smoke, or COMPOSE_SMOKE_PROJECT) on free host ports, always ends with `down -v` (also on a
 * failure, Ctrl-C or the overall time limit) and prints each step with its time. Settings: COMPOSE_SMOKE_TIMEOUT_MINUTES
 * (default 20), COMPOSE_SMOKE_KEEP=1 (leave the stack running for a look; `down -v` is then yours to run).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bookingToken } from '../server-shared/booking-link.js';
import { REPO_ROOT } from './dev-services/config.js';
import {
  bookFirst,
  bookMore,
  downUpKeepsRows,
  metricsAfterBookings,
  scaleWorkers,
  stopWorkers,
} from './compose/bookings.js';
import { demoTeam } from './compose/demo-team.js';
import { chooseCompose, ensureBaseImages, ensureDocker } from './compose/docker.js';
import { cleanCloneSettings, envFileSettings } from './compose/env.js';
import { eventInHostCalendar, http, offeredSlots } from './compose/http.js';
import { check, children, note, say, seconds, startedAt, step } from './compose/run.js';
import {
  adminTokenWorks,
  envFileWins,
  migrationStep,
  linksSignedWith,
  newDatabaseKeepSecrets,
  noSecretInTheLogs,
  postgresWantsThePassword,
  restartKeepsTheSecret,
  secretsMadeOnce,
} from './compose/secrets.js';
import { LOG_FILE, MORE_BOOKINGS, TIMEOUT_MINUTES, WORKERS, STOP_SECONDS } from './compose/settings.js';
import { cleanUp, showLogs, stack, upAndHealthy } from './compose/stack.js';
import { textedBooking } from './compose/texts.js';

async function abort(reason: string): Promise<never> {
  say(`\nFAILED: ${reason}`);
  for (const child of children) child.kill('SIGKILL');
  await showLogs();
  await cleanUp();
  say(
    `compose smoke test failed after ${seconds(Date.now() - startedAt)} (full output: ${path.relative(REPO_ROOT, LOG_FILE)})`,
  );
  process.exit(1);
}

// --- main ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  mkdirSync(path.dirname(LOG_FILE), { recursive: true });
  writeFileSync(LOG_FILE, `compose smoke test, ${new Date().toISOString()}\n`);
  say(`compose smoke test (time limit ${TIMEOUT_MINUTES} min; full output in ${path.relative(REPO_ROOT, LOG_FILE)})`);
  const hardLimit = setTimeout(
    () => void abort(`the overall time limit of ${TIMEOUT_MINUTES} min ran out`),
    TIMEOUT_MINUTES * 60_000,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void abort(`interrupted (${signal})`));

  await step('Docker: installed and running', ensureDocker);
  const chosen = await step('Compose: v2 where it exists, else v1', chooseCompose);
  note(chosen.label);
  await step('base images: pulled, or built as local stand-ins', ensureBaseImages);
  const ports = await step('a clean clone: own project, free ports, no .env, nothing else set', cleanCloneSettings);
  stack.compose = chosen;
  const apiUrl = `http://127.0.0.1:${ports.api}`;
  const mailpitUrl = `http://127.0.0.1:${ports.mailpitUi}`;
  const caldavUrl = `http://127.0.0.1:${ports.caldav}`;
  try {
    await step('up --build with nothing set, then every service healthy', upAndHealthy);
    const kept = await step(
      'the secrets: made once in the secrets volume, node’s alone, shared, not in the image',
      secretsMadeOnce,
    );
    const slots = await step(
      'the demo team: three calendars readable, a slot is offered only while a host is free',
      async () => {
        const free = await demoTeam(apiUrl, caldavUrl, kept.adminToken);
        return [free, ...(await offeredSlots(apiUrl, 2 + MORE_BOOKINGS, [free]))];
      },
    );
    const token = await step(
      'book the free slot beside the sync (201): a host, the event in their calendar; its confirmation and links signed with the kept secret',
      async () => {
        const booking = await bookFirst(apiUrl, mailpitUrl, slots[0]!);
        await eventInHostCalendar(caldavUrl, booking);
        await adminTokenWorks(apiUrl, kept.adminToken, booking);
        return linksSignedWith(apiUrl, mailpitUrl, booking, kept.linkSecret);
      },
    );
    await step('no log line holds a secret', () => noSecretInTheLogs([kept.linkSecret, kept.adminToken], true));
    await step('down, then up: the same secrets, the first link still answers 200', () =>
      restartKeepsTheSecret(apiUrl, kept, token),
    );

    await step('the .env cases: new database and queue volumes, the secrets volume kept', newDatabaseKeepSecrets);
    const chosenSecrets = await step(
      'an env file with a password full of URL syntax and secrets of its own',
      async () => envFileSettings(ports),
    );
    await step('up: every service healthy, the kept secret left as it is', () => envFileWins(kept));
    await step('PostgreSQL wants the password the API got through', postgresWantsThePassword);
    await step('the image’s migration step (the Kubernetes Job and init container)', migrationStep);
    const first = await step(
      'book a demo: the .env secret signs its links, the .env admin token lists it',
      async () => {
        const booking = await bookFirst(apiUrl, mailpitUrl, slots[1]!);
        await linksSignedWith(apiUrl, mailpitUrl, booking, chosenSecrets.linkSecret);
        const old = await http(`${apiUrl}/api/bookings/${bookingToken(booking.id, kept.linkSecret)}`);
        check(old.status === 404, `a token of the kept secret answered ${old.status} while .env sets another`);
        await adminTokenWorks(apiUrl, chosenSecrets.adminToken, booking);
        return booking;
      },
    );
    await step(`scale the worker to ${WORKERS}`, scaleWorkers);
    const more = await step(
      `book ${MORE_BOOKINGS} more: exactly ${MORE_BOOKINGS} more confirmations and host invitations, no duplicates`,
      () => bookMore(apiUrl, mailpitUrl, slots.slice(2, 2 + MORE_BOOKINGS), [first]),
    );
    const texted = await step(
      'book with the texts’ consent: the confirmation text in the smsc service’s volume, its receipt taken',
      () => textedBooking(apiUrl, 1 + MORE_BOOKINGS, slots[2 + MORE_BOOKINGS]!),
    );
    await step('the metrics after those bookings: the API and a worker, each on its own port inside the network', () =>
      metricsAfterBookings(2 + MORE_BOOKINGS),
    );
    await step('no log line holds a secret of the env file', () =>
      noSecretInTheLogs([chosenSecrets.linkSecret, chosenSecrets.adminToken], false),
    );
    await step(`stop the workers: each exits 0 within ${STOP_SECONDS} s`, stopWorkers);
    await step('down, then up: the rows are kept', () =>
      downUpKeepsRows(apiUrl, chosenSecrets.adminToken, [first, ...more, texted]),
    );
  } catch (err) {
    clearTimeout(hardLimit);
    await abort(err instanceof Error ? err.message : String(err));
  }
  await cleanUp();
  clearTimeout(hardLimit);
  say(`\ncompose smoke test passed in ${seconds(Date.now() - startedAt)} (Compose ${chosen.label})`);
}

main().catch((err: unknown) => abort(err instanceof Error ? (err.stack ?? err.message) : String(err)));
