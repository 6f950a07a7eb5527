import { expect } from 'chai';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Writable } from 'node:stream';
import { ConfigError } from '../../server-shared/settings.js';
import { until } from '../../test/until.js';
import { ownerWithin, parseAccounts, readAccountsFile } from './accounts.js';

const team = new Map([
  ['dana@converge.test', 'Dana@converge.test'],
  ['anna@converge.test', 'anna@converge.test'],
]);

describe('the accounts file (ACCOUNTS_FILE)', () => {
  it("reads each domain's owner, as the team file writes the host, and leaves out owners who are not hosts", () => {
    const { owners, strangers } = parseAccounts(
      '\uFEFFdomain,owner\nBank.example, dana@converge.test\n@shop.example,ANNA@converge.test\n\nold.example,gone@converge.test\n',
      team,
      'ACCOUNTS_FILE test',
    );
    expect([...owners]).to.deep.equal([
      ['bank.example', 'Dana@converge.test'],
      ['shop.example', 'anna@converge.test'],
    ]);
    expect(strangers).to.equal(1);
    // Columns are found by their header's names, in any order, beside any others a CRM adds.
    expect([
      ...parseAccounts('owner,region,domain\nanna@converge.test,EU,x.example\n', team, 'f').owners,
    ]).to.deep.equal([['x.example', 'anna@converge.test']]);
  });

  it('stops start-up naming the line that is wrong', () => {
    const cases: [string, string][] = [
      [
        'domain,owner\nbank.example,dana@converge.test\nnot a domain,dana@converge.test\n',
        'line 3: "not a domain" is not a domain',
      ],
      ['company,owner\nbank.example,dana@converge.test\n', 'the header must name the columns domain and owner'],
      ['domain,owner\nbank.example\n', 'is not CSV'],
      ['domain,owner\n"bank.example,dana@converge.test\n', 'is not CSV'],
    ];
    for (const [content, message] of cases)
      expect(() => parseAccounts(content, team, 'ACCOUNTS_FILE f'), message).to.throw(ConfigError, message);
  });

  it('finds the owner of a domain or of its nearest parent, never of a bare top-level domain', () => {
    const owners = new Map([
      ['bank.example', 'dana'],
      ['eu.bank.example', 'anna'],
      ['example', 'nobody'],
    ]);
    expect(ownerWithin(owners, 'bank.example')).to.equal('dana');
    expect(ownerWithin(owners, 'Payments.EU.bank.example')).to.equal('anna');
    expect(ownerWithin(owners, 'us.bank.example')).to.equal('dana');
    expect(ownerWithin(owners, 'shop.example')).to.equal(undefined);
    expect(ownerWithin(owners, 'notbank.example')).to.equal(undefined);
  });

  it('reads the file again when it is replaced, and keeps the accounts last read when the new one is bad', async function () {
    this.timeout(20_000);
    const folder = await mkdtemp(path.join(tmpdir(), 'converge-accounts-'));
    const lines: { msg: string }[] = [];
    const logger = pino(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as { msg: string });
          done();
        },
      }),
    );
    const file = path.join(folder, 'accounts.csv');
    await writeFile(file, 'domain,owner\nbank.example,dana@converge.test\n');
    const accounts = readAccountsFile(file, [...team.values()], logger, 100);
    try {
      expect(accounts.ownerOf('bank.example')).to.equal('Dana@converge.test');
      // The CRM writes a new export and renames it over the old one.
      await writeFile(
        `${file}.new`,
        'domain,owner\nbank.example,anna@converge.test\nshop.example,dana@converge.test\n',
      );
      await rename(`${file}.new`, file);
      await until(async () => (accounts.size === 2 ? true : undefined), 'the new accounts');
      expect(accounts.ownerOf('bank.example')).to.equal('anna@converge.test');
      await writeFile(file, 'domain,owner\nnot a domain,dana@converge.test\nanother.example,anna@converge.test\n');
      await until(async () => lines.find((line) => line.msg.includes('cannot be used')), 'the bad file logged');
      expect(accounts.ownerOf('shop.example'), 'the accounts last read').to.equal('Dana@converge.test');
    } finally {
      accounts.close();
      await rm(folder, { recursive: true, force: true });
    }
    expect(() => readAccountsFile(path.join(folder, 'missing.csv'), [], logger)).to.throw(
      ConfigError,
      'cannot be read: ENOENT',
    );
  });
});
