import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { localLinkSecret } from './link-secret.js';
import { StartupError } from './startup-error.js';

describe("npm start's booking-link secret", () => {
  it('is made once per data folder, kept private, and the same on every later start', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'converge-secret-'));
    try {
      const dataDir = path.join(dir, 'data');
      const first = localLinkSecret(dataDir);
      expect(first).to.match(/^[0-9a-f]{64}$/);
      expect(localLinkSecret(dataDir)).to.equal(first);
      expect((await readFile(path.join(dataDir, 'booking-link-secret'), 'utf8')).trim()).to.equal(first);
      expect((await stat(path.join(dataDir, 'booking-link-secret'))).mode & 0o777).to.equal(0o600);
      expect(localLinkSecret(path.join(dir, 'other'))).to.not.equal(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says what to do, without a stack trace, when the data folder cannot hold it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'converge-secret-'));
    try {
      const notAFolder = path.join(dir, 'file');
      await writeFile(notAFolder, 'x');
      expect(() => localLinkSecret(notAFolder)).to.throw(StartupError, /^Cannot keep the booking-link secret in .*Set BOOKING_LINK_SECRET, or DATA_DIR to a folder this user can write\.$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
