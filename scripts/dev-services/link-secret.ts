/** `npm start`'s booking-link secret: made once per data folder and kept there, so links in sent e-mails keep working. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from './startup-error.js';

function kept(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function localLinkSecret(dataDir: string): string {
  const file = path.join(dataDir, 'booking-link-secret');
  try {
    const existing = kept(file);
    if (existing) return existing;
    mkdirSync(dataDir, { recursive: true });
    try {
      // wx: of two first starts on one folder, one writes and the other reads what it wrote.
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const made = kept(file);
    if (!made) throw new Error(`${file} is empty`);
    return made;
  } catch (err) {
    throw new StartupError(
      `Cannot keep the booking-link secret in ${file} (${err instanceof Error ? err.message : String(err)}). Set BOOKING_LINK_SECRET, or DATA_DIR to a folder this user can write.`,
    );
  }
}
