import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { closedFolderOnTheWay } from './embedded-postgres.js';

describe('the embedded PostgreSQL as root', () => {
  it('names the first folder on the way that other users cannot enter', async () => {
    const top = await mkdtemp(path.join(tmpdir(), 'converge-perm-'));
    try {
      const open = path.join(top, 'open', 'data');
      const closed = path.join(top, 'closed');
      await mkdir(open, { recursive: true });
      await mkdir(path.join(closed, 'inner'), { recursive: true });
      await chmod(top, 0o755);
      await chmod(closed, 0o700);
      expect(await closedFolderOnTheWay(open)).to.equal(undefined);
      expect(await closedFolderOnTheWay(path.join(closed, 'inner', 'postgres'))).to.equal(closed);
      expect(await closedFolderOnTheWay(path.join(top, 'not-made-yet', 'postgres'))).to.equal(undefined);
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });
});
