import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { secretsFolder } from './kept-secrets.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('secrets a deployment keeps for itself', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'converge-kept-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('are made once, readable by their owner only, and the same on every later start', async () => {
    const first = secretsFolder(path.join(dir, 'secrets'));
    const made = first.secret('booking-link-secret');
    expect(made).to.match(/^[0-9a-f]{64}$/);
    expect(first.made).to.deep.equal([path.join(dir, 'secrets', 'booking-link-secret')]);
    expect((await stat(path.join(dir, 'secrets', 'booking-link-secret'))).mode & 0o777).to.equal(0o600);

    const later = secretsFolder(path.join(dir, 'secrets'));
    expect(later.secret('booking-link-secret')).to.equal(made);
    expect(later.made, 'a later start makes nothing').to.deep.equal([]);
    expect(later.secret('admin-token'), 'each file its own secret')
      .to.match(/^[0-9a-f]{64}$/)
      .and.not.equal(made);
    expect((await readdir(path.join(dir, 'secrets'))).sort(), 'no draft left behind').to.deep.equal([
      'admin-token',
      'booking-link-secret',
    ]);
  });

  it("keep what an operator wrote, and read an operator's file that is there", async () => {
    await writeFile(path.join(dir, 'booking-link-secret'), '  chosen-by-the-operator-0123456789abcdef\n');
    await writeFile(path.join(dir, 'booking-link-previous-secrets'), 'one\ntwo\n');
    const folder = secretsFolder(dir);
    expect(folder.secret('booking-link-secret')).to.equal('chosen-by-the-operator-0123456789abcdef');
    expect(folder.read('booking-link-previous-secrets')).to.equal('one\ntwo\n');
    expect(folder.read('no-such-file')).to.equal(undefined);
  });

  it('refuse to replace an empty file, saying how to get a new secret', async () => {
    await writeFile(path.join(dir, 'booking-link-secret'), '\n');
    expect(() => secretsFolder(dir).secret('booking-link-secret')).to.throw(
      /booking-link-secret is empty: delete it and a new secret is made on the next start$/,
    );
    expect(await readFile(path.join(dir, 'booking-link-secret'), 'utf8')).to.equal('\n');
  });

  // The API's replicas and the worker start together on one volume: however they interleave, they end up with one
  // secret. One start is over in a fraction of a millisecond, so each starter runs through many files in step with the
  // others, and some of those files are reached by two starters at the very same moment.
  it('are one secret for processes that start at the same moment on an empty folder', async function () {
    this.timeout(60_000);
    const starters = 4;
    const files = 400;
    const startAt = Date.now() + 4000;
    const program = `
      import { secretsFolder } from ${JSON.stringify(path.join(HERE, 'kept-secrets.ts'))};
      // Asleep until the same moment, so that they wake together rather than in turn.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ${startAt} - Date.now()));
      const folder = secretsFolder(${JSON.stringify(dir)});
      const secrets = Array.from({ length: ${files} }, (_, i) => folder.secret('secret-' + i));
      process.stdout.write(JSON.stringify({ secrets, made: folder.made.length }));
    `;
    const results = await Promise.all(
      Array.from(
        { length: starters },
        () =>
          new Promise<{ secrets: string[]; made: number }>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
              stdio: ['ignore', 'pipe', 'pipe'],
            });
            let out = '';
            let err = '';
            child.stdout.on('data', (chunk: Buffer) => (out += chunk));
            child.stderr.on('data', (chunk: Buffer) => (err += chunk));
            child.on('close', (code) =>
              code === 0
                ? resolve(JSON.parse(out) as { secrets: string[]; made: number })
                : reject(new Error(`starter exited ${code}: ${err}`)),
            );
          }),
      ),
    );
    const disagreements = Array.from({ length: files }, (_, i) => i).filter(
      (i) => new Set(results.map((r) => r.secrets[i])).size !== 1,
    );
    expect(disagreements, 'files whose starters use different secrets').to.deep.equal([]);
    expect(
      results.reduce((sum, r) => sum + r.made, 0),
      'files made',
    ).to.equal(files);
    for (let i = 0; i < files; i += 97) {
      expect((await readFile(path.join(dir, `secret-${i}`), 'utf8')).trim()).to.equal(results[0]?.secrets[i]);
    }
    expect(
      (await readdir(dir)).filter((name) => name.endsWith('.tmp')),
      'drafts left behind',
    ).to.deep.equal([]);
  });
});
