import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const APP = path.join(WEB, 'app');
/** What features and components may take from app/: the store, the API and the theme. */
const OPEN_TO_ALL = ['store.ts', 'api.ts', 'theme.ts'].map((file) => path.join(APP, file));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The relative modules a source imports, statically or dynamically, resolved to .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*(?:\/\*[^]*?\*\/\s*)?|^import\s+)'(\.[^']+)'/gm)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts'));
}

describe('import rules of the web client', () => {
  it('features and components take only the store, the API and the theme from app/', () => {
    const files = [...sources(path.join(WEB, 'features')), ...sources(path.join(WEB, 'components'))];
    expect(files.length).to.be.greaterThan(20);
    const crossings = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(APP + path.sep))
        .filter((target) => !OPEN_TO_ALL.includes(target))
        .map((target) => `${path.relative(WEB, file)} imports ${path.relative(WEB, target)}`),
    );
    expect(crossings).to.deep.equal([]);
  });
});
