/**
 * Build-time entry, bundled by webpack for Node together with styled-components so that class names
 * match the browser bundle's. Running it writes the prerendered pages next to the client assets.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';
import { brand } from '../../domain/brand.js';
import { DEFAULT_BOOKING_TIME_ZONE } from '../../domain/booking.js';
import { LEGAL_DOCUMENTS } from '../features/legal/legal-documents.js';
import { htmlDocument } from './html-document.js';
import { Root } from './root.js';
import { pageMeta, routeFor, type PageMeta } from './routes.js';

interface ClientManifest {
  scripts: string[];
  favicon: string;
}

function render(element: ReactElement): { body: string; styles: string } {
  const sheet = new ServerStyleSheet();
  try {
    const body = renderToString(sheet.collectStyles(element));
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
  // styled-components numbers its components in the order they are defined, and the class names follow.
  // The legal pages' components must come after every component the browser bundle has, or the landing
  // page's classes would differ from the browser's: so their module is loaded only now, after Root's.
  const { LegalRoot } = await import(/* webpackChunkName: "legal" */ './legal-root.js');
  const pages: { file: string; element: ReactElement; meta: PageMeta; scripts: readonly string[]; bookingTimeZone?: string }[] = [
    // The server writes its own booking zone into the landing page's meta tag; the calendar reads it there.
    {
      file: 'index.html',
      element: <Root pathname="/" />,
      meta: pageMeta[routeFor('/')],
      scripts: manifest.scripts,
      bookingTimeZone: DEFAULT_BOOKING_TIME_ZONE,
    },
    // The 404 and legal pages need no script: they have nothing to click but links.
    { file: '404.html', element: <Root pathname="/404" />, meta: pageMeta[routeFor('/404')], scripts: [] },
    ...LEGAL_DOCUMENTS.map((document) => ({
      file: `legal/${document.slug}.html`,
      element: <LegalRoot document={document} />,
      meta: { title: `${document.title} | ${brand.product}`, description: document.description },
      scripts: [],
    })),
  ];
  for (const page of pages) {
    const { body, styles } = render(page.element);
    const html = htmlDocument({
      meta: page.meta,
      body,
      styles,
      scripts: page.scripts,
      favicon: manifest.favicon,
      bookingTimeZone: page.bookingTimeZone,
    });
    const file = path.join(outDir, page.file);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, html);
  }
  console.warn(`prerendered ${pages.map((page) => page.file).join(', ')} into ${path.relative(process.cwd(), outDir)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
