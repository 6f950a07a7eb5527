/**
 * The SMSC `npm start` runs when SMPP_URL is unset (smsc/, the one the compose service runs too): on a free loopback
 * port, bound with a password kept in the data folder, each text written to DATA_DIR/sms/ and replies read from its
 * replies/ folder (`npm run sms:reply`).
 */
import type { Logger } from 'pino';
import { startFolderSmsc, type FolderSmsc } from '../../smsc/folder.js';
import { displayPath } from './config.js';
import { LOCAL_SECRETS, localSecret } from './local-secrets.js';

/** The account the API and the worker bind with. */
const SYSTEM_ID = 'converge';
/** SMPP 3.4 gives a password 8 characters (9 octets with its NUL): the first 8 of the kept secret. */
const PASSWORD_LENGTH = 8;
/** The sender the texts show when SMS_FROM is unset. */
export const DEFAULT_SMS_FROM = 'Converge';

export function startEmbeddedSmsc(options: { dataDir: string; dir: string; logger: Logger }): Promise<FolderSmsc> {
  return startFolderSmsc({
    systemId: SYSTEM_ID,
    password: localSecret(options.dataDir, LOCAL_SECRETS.smscPassword).slice(0, PASSWORD_LENGTH),
    dir: options.dir,
    receiptAfterMs: 1000,
    logger: options.logger.child({ service: 'smsc' }),
    display: displayPath,
  });
}
