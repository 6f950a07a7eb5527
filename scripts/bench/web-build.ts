/**
 * How long `npm run build:web` takes: first (no webpack cache, as on a fresh clone and under `npm start`'s first
 * build) and again (the cache in node_modules/.cache/webpack, nothing changed). Alternates the two for --rounds rounds
 * and prints each time and the medians; asserts nothing. The cache in place before is set aside and put back.
 *   tsx scripts/bench/web-build.ts [--rounds N]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cache = path.join(root, 'node_modules/.cache/webpack');
const setAside = `${cache}.bench-${process.pid}`;
const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 3;

function build(): number {
  const started = performance.now();
  const result = spawnSync('npm', ['run', 'build:web'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build:web failed:\n${result.stdout}\n${result.stderr}`);
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const kept = existsSync(cache);
if (kept) renameSync(cache, setAside);
try {
  const first: number[] = [];
  const again: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    rmSync(cache, { recursive: true, force: true });
    first.push(build());
    again.push(build());
    process.stdout.write(`round ${round}: first ${first.at(-1)!.toFixed(1)} s, again ${again.at(-1)!.toFixed(1)} s\n`);
  }
  const [cold, warm] = [median(first), median(again)];
  process.stdout.write(
    `median: first ${cold.toFixed(1)} s, again ${warm.toFixed(1)} s (${(cold / warm).toFixed(1)}x)\n`,
  );
} finally {
  if (kept) {
    rmSync(cache, { recursive: true, force: true });
    renameSync(setAside, cache);
  }
}
