import { expect } from 'chai';
import { ConfigError } from '../../server-shared/settings.js';
import { parseRoutingSettings } from './settings.js';

const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('where owners are found (ACCOUNTS_FILE, OWNER_LOOKUP_URL)', () => {
  it('takes neither, either or both with a team', () => {
    expect(parseRoutingSettings({}, false)).to.deep.equal({ accountsFile: undefined, ownerLookup: undefined });
    expect(
      parseRoutingSettings(
        {
          ACCOUNTS_FILE: '/data/accounts.csv',
          OWNER_LOOKUP_URL: 'http://crm.internal/owner',
          OWNER_LOOKUP_SECRET: secret,
        },
        true,
      ),
    ).to.deep.equal({
      accountsFile: '/data/accounts.csv',
      ownerLookup: { url: 'http://crm.internal/owner', secret },
    });
  });

  it('stops start-up saying what is missing or wrong', () => {
    const cases: [Record<string, string>, boolean, string][] = [
      [{ ACCOUNTS_FILE: '/data/accounts.csv' }, false, 'ACCOUNTS_FILE names owners among the team'],
      [{ OWNER_LOOKUP_URL: 'http://crm.internal/owner', OWNER_LOOKUP_SECRET: secret }, false, 'set TEAM_FILE too'],
      [{ OWNER_LOOKUP_URL: 'http://crm.internal/owner' }, true, 'OWNER_LOOKUP_URL is set without OWNER_LOOKUP_SECRET'],
      [{ OWNER_LOOKUP_SECRET: secret }, true, 'OWNER_LOOKUP_SECRET is set without OWNER_LOOKUP_URL'],
      [{ OWNER_LOOKUP_URL: 'ftp://crm.internal', OWNER_LOOKUP_SECRET: secret }, true, 'must be an http(s) URL'],
      [
        { OWNER_LOOKUP_URL: 'http://crm.internal', OWNER_LOOKUP_SECRET: 'plain' },
        true,
        'OWNER_LOOKUP_SECRET must be whsec_',
      ],
    ];
    for (const [env, hasTeam, message] of cases)
      expect(() => parseRoutingSettings(env, hasTeam), message).to.throw(ConfigError, message);
  });
});
