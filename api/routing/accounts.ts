/**
 * The accounts a CRM exports (ACCOUNTS_FILE): a CSV of `domain,owner` with a header, the owner being a host's e-mail.
 * A prospect whose domain, or a parent of it, has an owner on the team is offered the owner first. Read at start (a
 * file that cannot be read or parsed stops start-up, naming the line) and again whenever it changes; a file that turns
 * bad later keeps the accounts last read, and the log says why.
 */
import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Logger } from 'pino';
import { ConfigError } from '../../server-shared/settings.js';

export interface AccountOwners {
  /** The owner (a host's e-mail, as the team file writes it) of `domain` or of its nearest parent that has one. */
  ownerOf(domain: string): string | undefined;
  /** How many domains have an owner on the team. */
  readonly size: number;
  close(): void;
}

interface ParsedAccounts {
  owners: Map<string, string>;
  /** Lines whose owner is not a host of the team: kept out, and counted in the log. */
  strangers: number;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The accounts in `content`; `team` maps each host's e-mail, lower case, to the e-mail as the team file has it. */
export function parseAccounts(content: string, team: ReadonlyMap<string, string>, source: string): ParsedAccounts {
  let rows: Record<string, string>[];
  try {
    rows = parse(content, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw new ConfigError(`${source} is not CSV: ${(error as Error).message}`);
  }
  const owners = new Map<string, string>();
  let strangers = 0;
  for (const [index, row] of rows.entries()) {
    // The header is line 1.
    const at = `${source}: line ${index + 2}`;
    if (row.domain === undefined || row.owner === undefined)
      throw new ConfigError(`${source}: the header must name the columns domain and owner`);
    const domain = row.domain.toLowerCase().replace(/^@/, '');
    if (!DOMAIN.test(domain)) throw new ConfigError(`${at}: "${row.domain}" is not a domain`);
    const owner = team.get(row.owner.toLowerCase());
    if (owner === undefined) strangers += 1;
    else owners.set(domain, owner);
  }
  return { owners, strangers };
}

/** The owner of `domain` or of its nearest parent (eu.bank.example, then bank.example; never a bare top-level domain). */
export function ownerWithin(owners: ReadonlyMap<string, string>, domain: string): string | undefined {
  let name = domain.toLowerCase();
  for (;;) {
    const owner = owners.get(name);
    if (owner !== undefined) return owner;
    const dot = name.indexOf('.');
    if (dot < 0 || name.indexOf('.', dot + 1) < 0) return undefined;
    name = name.slice(dot + 1);
  }
}

/**
 * Reads ACCOUNTS_FILE now, and again each time it changes (polled every `pollMs`: a CRM's export is often written
 * to a new file and renamed over the old, which a stat sees and an inotify watch may not).
 */
export function readAccountsFile(
  file: string,
  teamEmails: readonly string[],
  logger: Logger,
  pollMs = 2000,
): AccountOwners {
  const team = new Map(teamEmails.map((email) => [email.toLowerCase(), email]));
  const source = `ACCOUNTS_FILE ${file}`;
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `${source} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let current = parseAccounts(content, team, source);
  const loaded = (accounts: ParsedAccounts, what: string) =>
    logger.info(
      { accounts: accounts.owners.size, ownersNotOnTeam: accounts.strangers },
      `${what}: ${accounts.owners.size} accounts owned by a host${accounts.strangers ? `, ${accounts.strangers} lines naming an owner who is not a host of the team left out` : ''}`,
    );
  loaded(current, 'accounts read');
  const changed = (now: Stats, before: Stats) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size) return;
    readFile(file, 'utf8')
      .then((text) => {
        current = parseAccounts(text, team, source);
        loaded(current, 'accounts read again');
      })
      .catch((err: unknown) =>
        logger.error({ err }, 'accounts file changed but cannot be used: the accounts last read stay'),
      );
  };
  watchFile(file, { interval: pollMs, persistent: false }, changed);
  return {
    ownerOf: (domain) => ownerWithin(current.owners, domain),
    get size() {
      return current.owners.size;
    },
    close: () => unwatchFile(file, changed),
  };
}
