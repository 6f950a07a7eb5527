/** The kept secrets, the env file's secrets that win over them, and the PostgreSQL password. */
import { EMAIL_LOGO } from '../../domain/brand.js';
import { bookingToken } from '../../server-shared/booking-link.js';
import { KEPT_SECRET_FILES } from '../../server-shared/kept-secrets.js';
import { bookingIdOf, http, mailbox, type Booking } from './http.js';
import { check, note, run } from './run.js';
import { APP_IMAGE, POSTGRES_PASSWORD, PROJECT, SECRETS_DIR, STACK } from './settings.js';
import { composeRun, waitHealthy } from './stack.js';

export interface KeptSecrets {
  linkSecret: string;
  adminToken: string;
}

export async function keptSecrets(): Promise<KeptSecrets> {
  const read = async (service: string, file: string) =>
    (await composeRun(['exec', '-T', service, 'cat', `${SECRETS_DIR}/${file}`], { secretOutput: true })).stdout.trim();
  const linkSecret = await read('api', KEPT_SECRET_FILES.bookingLinkSecret);
  check(
    linkSecret === (await read('worker', KEPT_SECRET_FILES.bookingLinkSecret)),
    'the API and the worker read different booking-link secrets',
  );
  return { linkSecret, adminToken: await read('api', KEPT_SECRET_FILES.adminToken) };
}

/** Made on the first start, in the volume only, readable by node alone; the same in both programs. */
export async function secretsMadeOnce(): Promise<KeptSecrets> {
  const listing = await composeRun(['exec', '-T', 'api', 'sh', '-c', `cd ${SECRETS_DIR} && stat -c '%a %U %n' . *`]);
  const entries = listing.stdout
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .sort();
  const expected = ['600 node admin-token', '600 node booking-link-secret', '700 node .'].sort();
  check(
    JSON.stringify(entries) === JSON.stringify(expected),
    `the secrets folder holds ${JSON.stringify(entries)}, expected ${JSON.stringify(expected)}`,
  );
  note(`${SECRETS_DIR}: ${entries.join(', ')}`);
  const kept = await keptSecrets();
  check(
    /^[0-9a-f]{64}$/.test(kept.linkSecret) && /^[0-9a-f]{64}$/.test(kept.adminToken),
    'the kept secrets are not 32 random bytes in hex',
  );
  check(kept.linkSecret !== kept.adminToken, 'the admin token is the booking-link secret');
  const image = await run('docker', ['run', '--rm', '--entrypoint', 'ls', APP_IMAGE, '-A', SECRETS_DIR]);
  check(image.stdout.trim() === '', `the image itself holds ${image.stdout.trim()} in ${SECRETS_DIR}`);
  note('the API and the worker read the same booking-link secret; the image holds none');
  return kept;
}

/** No log line of any service holds a secret; on the first start the programs say where they kept them, never what. */
export async function noSecretInTheLogs(secrets: string[], made: boolean): Promise<void> {
  const logs = await composeRun(['logs', '--no-color'], { timeoutMs: 60_000 });
  const text = `${logs.stdout}\n${logs.stderr}`;
  if (made) check(/secrets made and kept for later starts/.test(text), 'no log line says where the secrets were kept');
  for (const secret of secrets) check(!text.includes(secret), 'a log line holds a secret');
  note(`${text.split('\n').length} log lines, none with a secret${made ? '; a line says where they were kept' : ''}`);
}

/** A booking's links, in the 201 answer and in its confirmation, are signed with `secret`. */
export async function linksSignedWith(
  apiUrl: string,
  mailpitUrl: string,
  booking: Booking,
  secret: string,
): Promise<string> {
  const token = bookingToken(booking.id, secret);
  check(
    booking.invitePath === `/api/bookings/${token}/invite.ics`,
    `the API answered ${booking.invitePath}, not a link signed with the expected secret`,
  );
  const mail = (await mailbox(mailpitUrl)).find((m) => bookingIdOf(m) === booking.id);
  check(mail, `no confirmation for ${booking.id}`);
  // Quoted-printable breaks long lines with "=" at the end; the token's characters are never encoded.
  const raw = (await http<string>(`${mailpitUrl}/api/v1/message/${mail.ID}/raw`)).text.replace(/=\r?\n/g, '');
  check(
    raw.includes(`/booking/${token}`),
    'the confirmation does not link the booking with a token of the expected secret',
  );
  const page = await http<{ status: string }>(`${apiUrl}/api/bookings/${token}`);
  check(page.status === 200, `the booking's link answered ${page.status}`);
  note(`the 201 answer and the e-mail link /booking/${token.slice(0, 6)}…, which answers 200`);
  // The image holds the pictures the web build draws: the confirmation's logo is one, at the site's address
  // (PUBLIC_URL, which the clean clone leaves at compose's default).
  check(raw.includes(`${EMAIL_LOGO.path}"`), `the confirmation does not show the logo ${EMAIL_LOGO.path}`);
  const logo = await fetch(`${apiUrl}${EMAIL_LOGO.path}`, { signal: AbortSignal.timeout(15_000) });
  check(
    logo.status === 200 && logo.headers.get('content-type') === 'image/png',
    `the e-mails' logo answered ${logo.status} ${logo.headers.get('content-type')}`,
  );
  note(`the confirmation's logo ${EMAIL_LOGO.path}, a PNG the site serves`);
  return token;
}

export async function adminTokenWorks(apiUrl: string, adminToken: string, booking: Booking): Promise<void> {
  const list = await http<{ demoRequests: Array<{ id: string }> }>(`${apiUrl}/api/demo-requests`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  check(list.status === 200, `GET /api/demo-requests answered ${list.status} to the kept admin token`);
  check(
    list.body.demoRequests.some((row) => String(row.id) === booking.id),
    'the booking is not in GET /api/demo-requests',
  );
  note('GET /api/demo-requests answers 200 to the kept admin token');
}

/** `down` (volumes kept) and `up`: the secret read from the volume again, and a link of the first start still opens. */
export async function restartKeepsTheSecret(apiUrl: string, kept: KeptSecrets, token: string): Promise<void> {
  await composeRun(['down', '-t', '15'], { timeoutMs: 120_000 });
  await composeRun(['up', '-d'], { timeoutMs: 300_000 });
  await waitHealthy(STACK);
  const again = await keptSecrets();
  check(
    again.linkSecret === kept.linkSecret && again.adminToken === kept.adminToken,
    'the secrets changed across down/up',
  );
  const page = await http(`${apiUrl}/api/bookings/${token}`);
  check(page.status === 200, `the first start's booking link answered ${page.status} after down/up`);
  note('same secrets after down/up; the link from the first confirmation answers 200');
}

/** The .env cases start on a new database (the password is set when PostgreSQL makes it) and queue; the secrets stay. */
export async function newDatabaseKeepSecrets(): Promise<void> {
  await composeRun(['down', '-t', '15'], { timeoutMs: 120_000 });
  await run('docker', ['volume', 'rm', `${PROJECT}_postgres-data`, `${PROJECT}_redis-data`]);
  note(`removed ${PROJECT}_postgres-data and ${PROJECT}_redis-data; ${PROJECT}_secrets stays`);
}

export async function envFileWins(kept: KeptSecrets): Promise<void> {
  await composeRun(['up', '-d'], { timeoutMs: 300_000 });
  await waitHealthy(STACK);
  const still = await keptSecrets();
  check(still.linkSecret === kept.linkSecret, 'the kept secret changed while .env set another');
  note('the volume still holds the kept secret, unused while .env sets one');
}

/** The API being ready proves its connection; this proves the connection needed the password (no trust over TCP). */
export async function postgresWantsThePassword(): Promise<void> {
  const psql = (password: string) =>
    composeRun(
      [
        'exec',
        '-T',
        '-e',
        `PGPASSWORD=${password}`,
        'postgres',
        'psql',
        '-h',
        '127.0.0.1',
        '-U',
        'converge',
        '-d',
        'converge',
        '-tAc',
        'select 1',
      ],
      {
        allowFailure: true,
      },
    );
  check(
    (await psql('wrong')).code !== 0,
    'PostgreSQL accepted a wrong password over TCP: the test would prove nothing',
  );
  check((await psql(POSTGRES_PASSWORD)).code === 0, `PostgreSQL refused ${POSTGRES_PASSWORD} over TCP`);
  note(`over TCP PostgreSQL refuses a wrong password and takes ${POSTGRES_PASSWORD}`);
}

/** What the Kubernetes Job and the API's init container run, from the image just built. */
export async function migrationStep(): Promise<void> {
  for (const args of [['dist/api/migrate.js'], ['dist/api/migrate.js', '--wait']]) {
    const result = await composeRun(['run', '--rm', '--no-deps', '-T', 'api', 'node', ...args], { timeoutMs: 120_000 });
    check(/schema up to date/.test(result.stdout), `node ${args.join(' ')} did not say the schema is up to date`);
    note(`node ${args.join(' ')}: schema up to date, exit 0`);
  }
}
