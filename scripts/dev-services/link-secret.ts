/** `npm start`'s booking-link secret: made once per data folder and kept there, so links in sent e-mails keep working. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function localLinkSecret(dataDir: string): string {
  const file = path.join(dataDir, 'booking-link-secret');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept !== '') return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
