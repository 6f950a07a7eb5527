/**
 * Build-time entry, bundled by webpack for Node together with styled-components so that class names
 * match the browser bundle's. Running it writes the prerendered pages next to the client assets.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';
import { htmlDocument } from './html-document.js';
import { Root } from './root.js';
import { pageMeta, routeFor } from './routes.js';

interface ClientManifest {
  scripts: string[];
  favicon: string;
}

function render(pathname: string): { body: string; styles: string } {
  const sheet = new ServerStyleSheet();
  try {
    const body = renderToString(sheet.collectStyles(<Root pathname={pathname} />));
    return { body, styles: sheet.getStyleTags() };
  } finally {
    sheet.seal();
  }
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? 'dist/web');
  const manifestPath = path.resolve(process.argv[3] ?? 'dist/web-ssr/client-manifest.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as ClientManifest;
  await mkdir(outDir, { recursive: true });
  const pages = [
    // The 404 page needs no script: it has nothing to click but a link.
    { file: 'index.html', pathname: '/', scripts: manifest.scripts },
    { file: '404.html', pathname: '/404', scripts: [] },
  ];
  for (const page of pages) {
    const { body, styles } = render(page.pathname);
    const html = htmlDocument({
      meta: pageMeta[routeFor(page.pathname)],
      body,
      styles,
      scripts: page.scripts,
      favicon: manifest.favicon,
    });
    await writeFile(path.join(outDir, page.file), html);
  }
  console.warn(`prerendered ${pages.map((page) => page.file).join(', ')} into ${path.relative(process.cwd(), outDir)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
