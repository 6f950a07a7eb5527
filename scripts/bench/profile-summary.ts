/**
 * Sums up a V8 CPU profile (.cpuprofile, as `node --cpu-prof` writes it): where the samples fell, by package (or our
 * own folder) and by function, self time only. `tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top]`
 */
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<package> (scoped too), our folder under the repository, node: internals, or the V8 label. */
function ownerOf(url: string, functionName: string): string {
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (module) return module;
  if (url.startsWith('node:')) return url.split('/')[0] ?? url;
  const ours = /\/dist\/([^/]+)\//.exec(url)?.[1];
  if (ours) return `(ours) ${ours}/`;
  return url === '' ? `(${functionName || 'program'})` : url;
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMs = new Map<number, number>();
profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
const total = [...selfMs.values()].reduce((a, b) => a + b, 0);
const idle = [...selfMs]
  .filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)?.callFrame.functionName ?? ''))
  .reduce((a, [, ms]) => a + ms, 0);

const sum = (key: (node: ProfileNode) => string) => {
  const totals = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const node = byId.get(id);
    if (node) totals.set(key(node), (totals.get(key(node)) ?? 0) + ms);
  }
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 15));
};
const line = ([name, ms]: [string, number]) =>
  `  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${name}`;
process.stdout.write(
  `${file}: ${total.toFixed(0)} ms sampled, ${((idle / total) * 100).toFixed(0)}% idle or outside JS\n`,
);
process.stdout.write(
  `by owner (self time):\n${sum((node) => ownerOf(node.callFrame.url, node.callFrame.functionName))
    .map(line)
    .join('\n')}\n`,
);
process.stdout.write(
  `by function (self time):\n${sum(
    (node) =>
      `${node.callFrame.functionName || '(anonymous)'} ${ownerOf(node.callFrame.url, node.callFrame.functionName)}:${node.callFrame.lineNumber + 1}`,
  )
    .map(line)
    .join('\n')}\n`,
);
