/**
 * `npm start`'s secrets, each made once per data folder and kept there as compose keeps its own in a volume: the
 * booking-link secret, so links in sent e-mails keep working, the sales page's token, so /admin can be signed into,
 * and the embedded SMSC's password.
 */
import path from 'node:path';
import { KEPT_SECRET_FILES, secretsFolder } from '../../server-shared/kept-secrets.js';
import { StartupError } from './startup-error.js';

/** Each secret's file in the data folder, and the setting that takes its place when set. */
export const LOCAL_SECRETS = {
  bookingLinkSecret: {
    file: KEPT_SECRET_FILES.bookingLinkSecret,
    variable: 'BOOKING_LINK_SECRET',
    what: 'booking-link secret',
  },
  adminToken: { file: KEPT_SECRET_FILES.adminToken, variable: 'ADMIN_TOKEN', what: "sales page's token" },
  smscPassword: { file: 'smsc-password', variable: 'SMPP_URL', what: "embedded SMSC's password" },
} as const;

export type LocalSecret = (typeof LOCAL_SECRETS)[keyof typeof LOCAL_SECRETS];

/** Where the secret is kept under this data folder. */
export function localSecretFile(dataDir: string, secret: LocalSecret): string {
  return path.join(dataDir, secret.file);
}

export function localSecret(dataDir: string, secret: LocalSecret): string {
  try {
    return secretsFolder(dataDir).secret(secret.file);
  } catch (err) {
    throw new StartupError(
      `Cannot keep the ${secret.what} in ${localSecretFile(dataDir, secret)} (${err instanceof Error ? err.message : String(err)}). Set ${secret.variable}, or DATA_DIR to a folder this user can write.`,
    );
  }
}
