/**
 * The SMSC as a program of its own, the `smsc` service of docker compose (the app image, another command): binds
 * with SMSC_SYSTEM_ID and SMSC_PASSWORD on SMSC_PORT (2775), each text written to SMSC_DIR (its volume), replies read
 * from SMSC_DIR/replies. Stops on SIGTERM.
 */
import { createLogger } from '../server-shared/logger.js';
import { ConfigError, parsePort, setting } from '../server-shared/settings.js';
import { closeOnSignals } from '../server-shared/shutdown.js';
import { startFolderSmsc } from './folder.js';

/** SMPP's customary port. */
const SMSC_PORT = 2775;
const SMSC_DIR = '/var/lib/converge-smsc';

const env = process.env;
const logger = createLogger('smsc', setting(env, 'LOG_LEVEL') ?? 'info');
try {
  const systemId = setting(env, 'SMSC_SYSTEM_ID');
  const password = setting(env, 'SMSC_PASSWORD');
  if (!systemId || !password) throw new ConfigError('SMSC_SYSTEM_ID and SMSC_PASSWORD must be set');
  const port = parsePort(setting(env, 'SMSC_PORT'), SMSC_PORT);
  const dir = setting(env, 'SMSC_DIR') ?? SMSC_DIR;
  const smsc = await startFolderSmsc({
    systemId,
    password,
    host: setting(env, 'SMSC_HOST') ?? '0.0.0.0',
    port,
    dir,
    receiptAfterMs: 1000,
    logger,
  });
  logger.info({ port: smsc.port, dir }, `SMSC ready on port ${smsc.port}; each text saved in ${dir}`);
  closeOnSignals(logger, smsc.stop);
} catch (err) {
  if (err instanceof ConfigError) logger.fatal(err.message);
  else logger.fatal({ err }, 'the SMSC failed to start');
  process.exit(1);
}
