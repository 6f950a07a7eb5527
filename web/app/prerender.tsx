/**
 * Build-time entry, bundled by webpack for Node together with styled-components so that class names
 * match the browser bundle's. Running it writes the prerendered pages next to the client assets.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brand, EMAIL_LOGO } from '../../domain/brand.js';
import { DEFAULT_BOOKING_TIME_ZONE } from '../../domain/booking.js';
import { renderToStaticMarkup } from 'react-dom/server';
import { ARCHITECTURE_DIAGRAMS } from '../features/architecture/architecture.js';
import { USE_CASES } from '../features/capabilities/capabilities.js';
import { INDUSTRIES } from '../features/industries/industries.js';
import { SOCIAL_ICONS } from '../features/site-footer/site-footer.js';
import { PRODUCT_CONSOLE, ProductConsoleFile } from '../components/product-console.js';
import { emailLogoPng, SHARE_IMAGE, shareImagePng } from './brand-images.js';
import { LEGAL_DOCUMENTS } from '../features/legal/legal-documents.js';
import type * as BookingPrerender from './booking-prerender.js';
import { htmlDocument } from './html-document.js';
import { renderWithStyles, staticPage, unhydratedPage, type RenderedPage } from './render-with-styles.js';
import { demoTree } from '../features/demo-request/demo-runtime.js';
import { Root } from './root.js';
import { pageMeta, routeFor, type PageMeta } from './routes.js';

interface ClientManifest {
  scripts: string[];
  /** The Request Demo dialog's opener (dialog-opener.ts), written into the landing page's head. */
  openerScripts: string[];
  /** The Request Demo dialog's entry script(s), fetched once the page is idle after its load (demo-launcher.ts). */
  dialogScripts: string[];
  favicon: string;
  font: { href: string; css: string };
}

/**
 * The booking page's components must be numbered from the first, as its own browser build numbers them; here they would
 * come after the landing page's. So it is prerendered by a bundle of its own (webpack's booking-prerender entry, beside
 * this one), with its own styled-components, loaded from its file rather than bundled in.
 */
async function bookingPrerender(): Promise<typeof BookingPrerender> {
  const file = path.join(path.dirname(process.argv[1] ?? '.'), 'booking-prerender.cjs');
  return ((await import(/* webpackIgnore: true */ pathToFileURL(file).href)) as { default: typeof BookingPrerender })
    .default;
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? 'dist/web');
  const manifestPath = path.resolve(process.argv[3] ?? 'dist/web-ssr/client-manifest.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as ClientManifest;
  // The booking page's own build writes its scripts beside the client's manifest.
  const bookingManifest = JSON.parse(
    await readFile(path.join(path.dirname(manifestPath), 'booking-manifest.json'), 'utf8'),
  ) as {
    scripts: string[];
    appScripts: string[];
  };
  const salesManifest = JSON.parse(
    await readFile(path.join(path.dirname(manifestPath), 'sales-manifest.json'), 'utf8'),
  ) as { scripts: string[] };
  await mkdir(outDir, { recursive: true });
  // The link preview, content-hashed like the other assets: a new picture gets a new address, which previews refetch.
  const sharePng = shareImagePng();
  const shareImage = {
    ...SHARE_IMAGE,
    href: `/assets/share.${createHash('sha256').update(sharePng).digest('hex').slice(0, 10)}.png`,
  };
  await writeFile(path.join(outDir, shareImage.href), sharePng);
  await mkdir(path.dirname(path.join(outDir, EMAIL_LOGO.path)), { recursive: true });
  await writeFile(path.join(outDir, EMAIL_LOGO.path), emailLogoPng());
  // The landing page's script is small: written into the page, it costs no request before the page is drawn.
  const inlineScripts = await Promise.all(manifest.scripts.map((src) => readFile(path.join(outDir, src), 'utf8')));
  const headScripts = await Promise.all(manifest.openerScripts.map((src) => readFile(path.join(outDir, src), 'utf8')));
  // The dialog is a root of its own, as the browser hydrates it (demo-island.ts); its markup goes in its layer.
  const dialog = staticPage(renderWithStyles(demoTree()));
  // The page around it is never hydrated; the dialog's markup goes into it as rendered, its text separators kept.
  const dialogSlot = '<!--demo-dialog-->';
  const landingAround = unhydratedPage(renderWithStyles(<Root pathname="/" dialogMarkup={dialogSlot} />));
  const landing = { ...landingAround, body: landingAround.body.replace(dialogSlot, () => dialog.body) };
  // So is the booking page's first script (booking-main.ts): the booking shows with the page's first paint.
  const bookingInlineScripts = await Promise.all(
    bookingManifest.scripts.map((src) => readFile(path.join(outDir, src), 'utf8')),
  );
  // styled-components numbers its components in the order they are defined, and the class names follow.
  // The legal pages' components must come after every component the browser bundle has, or the landing
  // page's classes would differ from the browser's: so their module is loaded only now, after Root's.
  const { LegalRoot } = await import(/* webpackChunkName: "legal" */ './legal-root.js');
  const pages: {
    file: string;
    /** Where the page is, for its link preview (og:url); none for pages without an address of their own. */
    address?: string;
    page: RenderedPage;
    meta: PageMeta;
    scripts: readonly string[];
    inlineScripts?: readonly string[];
    headScripts?: readonly string[];
    dialogScripts?: readonly string[];
    bookingAppScripts?: readonly string[];
    bookingTimeZone?: string;
  }[] = [
    // The server writes its own booking zone into the landing page's meta tag; the calendar reads it there.
    {
      file: 'index.html',
      address: '/',
      page: { body: landing.body, styles: landing.styles + dialog.styles },
      meta: pageMeta[routeFor('/')],
      scripts: [],
      inlineScripts,
      headScripts,
      dialogScripts: manifest.dialogScripts,
      bookingTimeZone: DEFAULT_BOOKING_TIME_ZONE,
    },
    // The 404 and legal pages need no script: they have nothing to click but links.
    {
      file: '404.html',
      page: unhydratedPage(renderWithStyles(<Root pathname="/404" />)),
      meta: pageMeta[routeFor('/404')],
      scripts: [],
    },
    ...LEGAL_DOCUMENTS.map((document) => ({
      file: `legal/${document.slug}.html`,
      address: `/legal/${document.slug}`,
      page: unhydratedPage(renderWithStyles(<LegalRoot document={document} />)),
      meta: { title: `${document.title} | ${brand.product}`, description: document.description },
      scripts: [],
    })),
    // Served at /booking/{token}, the server rendering the booking into it (api/web.ts); it needs the booking zone the
    // landing page has, to show the time and the calendar. This loading state is what it sends when it cannot.
    {
      file: 'booking.html',
      page: (await bookingPrerender()).renderBookingPage(),
      meta: {
        title: `Your demo booking | ${brand.product}`,
        description: `See, reschedule or cancel your ${brand.product} demo.`,
      },
      scripts: [],
      inlineScripts: bookingInlineScripts,
      bookingAppScripts: bookingManifest.appScripts,
      bookingTimeZone: DEFAULT_BOOKING_TIME_ZONE,
    },
    // Served at /booking/{token}, with status 503, when the server cannot read the booking (api/web.ts): no script.
    {
      file: 'booking-unavailable.html',
      page: (await bookingPrerender()).renderBookingUnavailablePage(),
      meta: {
        title: `Please try again shortly | ${brand.product}`,
        description: 'Your demo booking cannot be shown right now.',
      },
      scripts: [],
    },
    // The shell of the booking pages without script (/book, a booking's move and cancel): the API renders each into
    // its root, with its styles and title (api/no-script/routes.ts). No script, so the font is preloaded.
    {
      file: 'no-script.html',
      page: { body: '', styles: '' },
      meta: {
        title: `Book a demo | ${brand.product}`,
        description: `Book a ${brand.product} demo at a time that suits you.`,
      },
      scripts: [],
    },
    // Served at /admin: the sales page draws itself (web/app/sales-main.tsx); it shows times in the booking zone.
    {
      file: 'admin.html',
      page: { body: '<p>Loading the sales page…</p>', styles: '' },
      meta: { title: `Sales | ${brand.product}`, description: `The ${brand.product} sales team's bookings.` },
      scripts: salesManifest.scripts,
      bookingTimeZone: DEFAULT_BOOKING_TIME_ZONE,
    },
  ];
  for (const page of pages) {
    const { body, styles } = page.page;
    const html = htmlDocument({
      meta: page.meta,
      address: page.address,
      shareImage,
      body,
      styles,
      scripts: page.scripts,
      inlineScripts: page.inlineScripts,
      headScripts: page.headScripts,
      dialogScripts: page.dialogScripts,
      bookingAppScripts: page.bookingAppScripts,
      favicon: manifest.favicon,
      font: manifest.font,
      // A page with a script lets its first paint go before the font (font-loading.ts); the others preload it.
      fontLoading: page.inlineScripts?.length ? 'after-first-paint' : 'preload',
      bookingTimeZone: page.bookingTimeZone,
    });
    const file = path.join(outDir, page.file);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, html);
  }
  for (const { path: address, Drawing } of [
    ...Object.values(ARCHITECTURE_DIAGRAMS),
    { ...PRODUCT_CONSOLE, Drawing: ProductConsoleFile },
    ...Object.values(SOCIAL_ICONS),
    ...[...USE_CASES, ...INDUSTRIES].map(({ icon }) => icon),
  ]) {
    const file = path.join(outDir, address);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, renderToStaticMarkup(<Drawing />));
  }
  console.warn(`prerendered ${pages.map((page) => page.file).join(', ')} into ${path.relative(process.cwd(), outDir)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
