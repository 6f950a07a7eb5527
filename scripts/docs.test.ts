/**
 * README.md is the front door and docs/ holds the rest, one topic a file: README stays within 250 lines, links every
 * file of docs/, and every relative link in README.md, BENCHMARKS.md and docs/ reaches a file that exists and, with
 * a #fragment, a heading of that file (its anchor as GitHub makes it); a path they name in code (`api/…`) exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from './dev-services/config.js';

const README_MAX_LINES = 250;
const DOCS = path.join(REPO_ROOT, 'docs');

function markdownIn(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return markdownIn(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The lines outside fenced code blocks, inline code cut out (a link or heading there is only text). */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === undefined) fence = opening[1]![0]!.repeat(opening[1]!.length);
      else if (line.trim().startsWith(fence)) fence = undefined;
      lines.push('');
      continue;
    }
    lines.push(fence === undefined ? line : '');
  }
  return lines;
}

/** A heading's anchor as GitHub writes it (github-slugger): the text lower case, punctuation dropped, spaces as -. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file's headings make, a repeated one with -1, -2 … as GitHub numbers them. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = githubSlug(heading[1]!);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/** The inline links of a file's prose: [text](target), images too, each with its line number. */
function linksOf(file: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  proseLines(readFileSync(file, 'utf8')).forEach((text, index) => {
    const prose = text.replace(/(`+)[^`]*?\1/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: index + 1, target: match[1]! });
    }
  });
  return links;
}

const files = [path.join(REPO_ROOT, 'README.md'), path.join(REPO_ROOT, 'BENCHMARKS.md'), ...markdownIn(DOCS)];

describe('README and docs/', () => {
  it(`keep README.md a front door of at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
    expect(lines.length).to.be.at.most(README_MAX_LINES);
  });

  it('give in the quick start the test command .ci/run runs', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const quickStart = /## Quick start\n+```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = quickStart.split('\n').map((line) => line.replace(/#.*$/, '').trim());
    expect(commands).to.include('npm test');
    expect(readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8')).to.match(/^npm test$/m);
  });

  it('link every file of docs/ from README.md', () => {
    const readme = path.join(REPO_ROOT, 'README.md');
    const linked = new Set(
      linksOf(readme)
        .filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
        .map(({ target }) => path.resolve(REPO_ROOT, decodeURIComponent(target.split('#')[0]!))),
    );
    const unlinked = markdownIn(DOCS).filter((file) => !linked.has(file));
    expect(unlinked.map((file) => path.relative(REPO_ROOT, file))).to.deep.equal([]);
  });

  it('have every relative link reach an existing file, and every #anchor a heading of it', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const { line, target } of linksOf(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: not ours to check
        const [pathPart = '', fragment] = target.split('#');
        const where = `${path.relative(REPO_ROOT, file)}:${line} → ${target}`;
        const linked = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
        if (!existsSync(linked)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (fragment === undefined || fragment === '') continue;
        if (!linked.endsWith('.md')) {
          broken.push(`${where}: an anchor into a file that is not Markdown`);
          continue;
        }
        if (!anchorsOf(linked).has(decodeURIComponent(fragment))) broken.push(`${where}: no such heading`);
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('name only files and folders of the repository that exist, where they name one by its path', () => {
    const missing: string[] = [];
    const named =
      /`((?:api|worker|server-shared|domain|web|scripts|smsc|test|db|docker|deploy|migrations)\/[\w./-]*)`/g;
    for (const file of [path.join(REPO_ROOT, 'README.md'), ...markdownIn(DOCS)]) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(named)) {
        if (!existsSync(path.join(REPO_ROOT, name!))) missing.push(`${path.relative(REPO_ROOT, file)}: ${name}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('make anchors as GitHub does', () => {
    expect(githubSlug('`npm start`: one command, embedded services where none is configured')).to.equal(
      'npm-start-one-command-embedded-services-where-none-is-configured',
    );
    expect(githubSlug('Converge — marketing site and Request Demo pipeline')).to.equal(
      'converge--marketing-site-and-request-demo-pipeline',
    );
    expect(githubSlug("The team: hosts' own calendars (`TEAM_FILE`)")).to.equal(
      'the-team-hosts-own-calendars-team_file',
    );
  });
});
