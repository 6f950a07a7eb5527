/**
 * Where an account's owner is found: ACCOUNTS_FILE (a CRM's export) and OWNER_LOOKUP_URL with OWNER_LOOKUP_SECRET
 * (the company's own service, signed as webhooks are). Both need a team (TEAM_FILE) whose hosts own the accounts.
 */
import { ConfigError, setting, type Env } from '../../server-shared/settings.js';
import { parseWebhookSecret } from '../../server-shared/webhooks.js';

export interface RoutingSettings {
  accountsFile: string | undefined;
  ownerLookup: { url: string; secret: string } | undefined;
}

export function parseRoutingSettings(env: Env, hasTeam: boolean): RoutingSettings {
  const accountsFile = setting(env, 'ACCOUNTS_FILE');
  const url = setting(env, 'OWNER_LOOKUP_URL');
  const secret = setting(env, 'OWNER_LOOKUP_SECRET');
  if (!hasTeam && (accountsFile !== undefined || url !== undefined))
    throw new ConfigError(
      `${accountsFile !== undefined ? 'ACCOUNTS_FILE' : 'OWNER_LOOKUP_URL'} names owners among the team's hosts: set TEAM_FILE too`,
    );
  if (url === undefined && secret !== undefined)
    throw new ConfigError('OWNER_LOOKUP_SECRET is set without OWNER_LOOKUP_URL: set both, or neither');
  if (url === undefined) return { accountsFile, ownerLookup: undefined };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`OWNER_LOOKUP_URL is not a URL: "${url}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new ConfigError(`OWNER_LOOKUP_URL must be an http(s) URL, got "${url}"`);
  if (secret === undefined)
    throw new ConfigError(
      `OWNER_LOOKUP_URL is set without OWNER_LOOKUP_SECRET; make one with: echo "whsec_$(openssl rand -base64 32)"`,
    );
  return { accountsFile, ownerLookup: { url, secret: parseWebhookSecret('OWNER_LOOKUP_SECRET', secret) } };
}
