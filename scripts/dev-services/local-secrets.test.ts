import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOCAL_SECRETS, localSecret } from './local-secrets.js';
import { StartupError } from './startup-error.js';

describe("npm start's secrets: the booking-link secret and the sales page's token", () => {
  for (const secret of Object.values(LOCAL_SECRETS)) {
    it(`keeps the ${secret.what} in the data folder's ${secret.file}: made once, private, the same on every later start`, async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'converge-secret-'));
      try {
        const dataDir = path.join(dir, 'data');
        const first = localSecret(dataDir, secret);
        expect(first).to.match(/^[0-9a-f]{64}$/);
        expect(localSecret(dataDir, secret)).to.equal(first);
        expect((await readFile(path.join(dataDir, secret.file), 'utf8')).trim()).to.equal(first);
        expect((await stat(path.join(dataDir, secret.file))).mode & 0o777).to.equal(0o600);
        expect(localSecret(path.join(dir, 'other'), secret)).to.not.equal(first);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  it('keeps the two apart: the token that opens the sales page signs no link', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'converge-secret-'));
    try {
      expect(localSecret(dir, LOCAL_SECRETS.adminToken)).to.not.equal(
        localSecret(dir, LOCAL_SECRETS.bookingLinkSecret),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says what to do, without a stack trace, when the data folder cannot hold them', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'converge-secret-'));
    try {
      const notAFolder = path.join(dir, 'file');
      await writeFile(notAFolder, 'x');
      expect(() => localSecret(notAFolder, LOCAL_SECRETS.bookingLinkSecret)).to.throw(
        StartupError,
        /^Cannot keep the booking-link secret in .*Set BOOKING_LINK_SECRET, or DATA_DIR to a folder this user can write\.$/,
      );
      expect(() => localSecret(notAFolder, LOCAL_SECRETS.adminToken)).to.throw(
        StartupError,
        /^Cannot keep the sales page's token in .*Set ADMIN_TOKEN, or DATA_DIR/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
