/** `npm start`'s booking-link secret: made once per data folder and kept there, so links in sent e-mails keep working. */
import path from 'node:path';
import { KEPT_SECRET_FILES, secretsFolder } from '../../server-shared/kept-secrets.js';
import { StartupError } from './startup-error.js';

export function localLinkSecret(dataDir: string): string {
  try {
    return secretsFolder(dataDir).secret(KEPT_SECRET_FILES.bookingLinkSecret);
  } catch (err) {
    const file = path.join(dataDir, KEPT_SECRET_FILES.bookingLinkSecret);
    throw new StartupError(
      `Cannot keep the booking-link secret in ${file} (${err instanceof Error ? err.message : String(err)}). Set BOOKING_LINK_SECRET, or DATA_DIR to a folder this user can write.`,
    );
  }
}
