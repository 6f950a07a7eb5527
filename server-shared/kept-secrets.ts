/**
 * Secrets a deployment makes for itself on its first start and keeps in a folder: under docker compose a named volume
 * that the API and the worker share (SECRETS_DIR), under `npm start` its data folder. Every later start, and every
 * other process on the same folder, reads the same value; a value set in the environment is never replaced by one
 * of these (each config.ts asks here only when its variable is unset).
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The files of a secrets folder: one value each, made here when missing. */
export const KEPT_SECRET_FILES = {
  bookingLinkSecret: 'booking-link-secret',
  adminToken: 'admin-token',
} as const;
/** Written by the operator when rotating (docs/secrets.md): earlier booking-link secrets, one a line, still accepted. */
export const PREVIOUS_LINK_SECRETS_FILE = 'booking-link-previous-secrets';

export interface SecretsFolder {
  readonly dir: string;
  /** The secret kept in this file, made (32 random bytes, hex) if there is none yet. */
  secret(name: string): string;
  /** The text of a file the operator may keep here, or undefined when there is none. */
  read(name: string): string | undefined;
  /** The files this process made, for a log line that names them (never their values). */
  readonly made: readonly string[];
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function secretsFolder(dir: string): SecretsFolder {
  const made: string[] = [];
  return {
    dir,
    made,
    read: (name) => readIfThere(path.join(dir, name)),
    secret(name) {
      const file = path.join(dir, name);
      const existing = readIfThere(file)?.trim();
      if (existing) return existing;
      // No mode for the folder: npm start's data folder must stay reachable by the embedded PostgreSQL's user. The
      // compose volume's folder is private from the image (docker/Dockerfile), and the file is the owner's alone.
      mkdirSync(dir, { recursive: true });
      // Written whole under a name of its own, then linked into place: link() never replaces a file, so of several
      // processes starting at once on one folder (the API, its replicas, the worker) exactly one value wins, and
      // none of them reads a file another is still writing.
      const draft = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      try {
        linkSync(draft, file);
        made.push(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        unlinkSync(draft);
      }
      const kept = readIfThere(file)?.trim();
      // An empty file is the operator's to mend: replacing it could part the API from the worker.
      if (!kept) throw new Error(`${file} is empty: delete it and a new secret is made on the next start`);
      return kept;
    },
  };
}
