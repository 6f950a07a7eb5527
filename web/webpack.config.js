/**
 * Four builds: the browser bundle (content-hashed, the demo dialog an entry of its own, in chunks), the booking manage
 * page's own browser bundle, the sales page's (/admin), and a Node bundle that prerenders the pages. All bundle styled-components, so server and
 * client name classes alike.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import webpack from 'webpack';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_FOLDERS = ['server-shared', 'api', 'worker'].map((folder) => path.join(root, folder) + path.sep);
const webOut = path.join(root, 'dist/web');
const ssrOut = path.join(root, 'dist/web-ssr');
const INITIAL_JS_BUDGET_BYTES = 80 * 1024;
/** The global the dialog's entry leaves its exports under (web/features/demo-request/demo-launcher.ts reads it). */
const DEMO_ISLAND_GLOBAL = 'convergeDemoIsland';

/** Whether a template's tag makes it CSS: styled.div`…`, styled(Link)`…`, styled.a.attrs(…)`…`, css`…`, createGlobalStyle`…`. */
function isCssTag(tag) {
  if (ts.isIdentifier(tag)) return ['styled', 'css', 'keyframes', 'createGlobalStyle'].includes(tag.text);
  return (ts.isPropertyAccessExpression(tag) || ts.isCallExpression(tag)) && isCssTag(tag.expression);
}

/**
 * A TypeScript transform that drops the line breaks' indentation from the CSS of styled-components' templates: the
 * browser gets the same rules in fewer bytes (the page's CSS travels in its JavaScript). Each line break stays, so a
 * `//` comment still ends where it did. Every build runs it, so server and browser hash the same CSS to the same class.
 */
function compactStyledCss(context) {
  return (sourceFile) => {
    // The part's source between its delimiters (` or }, and ` or ${), whitespace squeezed; TypeScript cooks the rest.
    const squeezed = (part, tail) =>
      sourceFile.text.slice(part.getStart(sourceFile) + 1, part.end - (tail ? 1 : 2)).replace(/[ \t]*\n\s*/g, '\n');
    const visit = (node) => {
      if (ts.isTaggedTemplateExpression(node) && isCssTag(node.tag)) {
        const { template } = node;
        const compacted = ts.isNoSubstitutionTemplateLiteral(template)
          ? ts.factory.createNoSubstitutionTemplateLiteral(undefined, squeezed(template, true))
          : ts.factory.createTemplateExpression(
              ts.factory.createTemplateHead(undefined, squeezed(template.head, false)),
              template.templateSpans.map((span, index) =>
                ts.factory.createTemplateSpan(
                  ts.visitNode(span.expression, visit),
                  index === template.templateSpans.length - 1
                    ? ts.factory.createTemplateTail(undefined, squeezed(span.literal, true))
                    : ts.factory.createTemplateMiddle(undefined, squeezed(span.literal, false)),
                ),
              ),
            );
        return ts.factory.updateTaggedTemplateExpression(
          node,
          ts.visitNode(node.tag, visit),
          node.typeArguments,
          compacted,
        );
      }
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitNode(sourceFile, visit);
  };
}

const shared = {
  mode: 'production',
  context: root,
  // Each build keeps its modules and minified chunks under node_modules/.cache/webpack: a build after the first redoes
  // what changed only. The cache is dropped when this file, a package or the lock file changes.
  cache: { type: 'filesystem', buildDependencies: { config: [fileURLToPath(import.meta.url)] } },
  resolve: {
    extensions: ['.tsx', '.ts', '.js'],
    // Sources import each other with .js extensions (NodeNext); here those resolve to the .ts files.
    extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    // Package exports are looked up with the query attached ("./dist/ReactToastify.css?raw" is not exported), so
    // the stylesheet is named by its file; the ?raw query still applies.
    alias: {
      'react-toastify/dist/ReactToastify.css$': createRequire(import.meta.url).resolve(
        'react-toastify/dist/ReactToastify.css',
      ),
    },
  },
  module: {
    rules: [
      {
        test: /\.tsx?$/,
        loader: 'ts-loader',
        exclude: /node_modules/,
        options: {
          // Type checking is `npm run typecheck`; the build only strips types.
          transpileOnly: true,
          compilerOptions: { module: 'esnext', moduleResolution: 'bundler', sourceMap: false },
          getCustomTransformers: () => ({ before: [compactStyledCss] }),
        },
      },
      // A stylesheet imported with ?raw is its text, for styled-components to insert (see web/components/notify.tsx): the
      // CSP refuses the <style> text style-loader would write, and it stays in the dialog's chunk, loaded with it.
      { resourceQuery: /^\?raw$/, type: 'asset/source' },
      // domain/ modules have no side effects, so what the browser does not use of them is dropped. Server code
      // (server-shared/, with the e-mail rules' big disposable-domain list, api/, worker/) must never come in at all:
      // ESLint forbids the imports, and the check below the build's output.
      { test: /[\\/]domain[\\/][^\\/]+\.ts$/, sideEffects: false },
    ],
  },
  plugins: [
    new webpack.DefinePlugin({ 'process.env.BUILD_YEAR': JSON.stringify(String(new Date().getUTCFullYear())) }),
  ],
  performance: { hints: false },
  stats: 'errors-warnings',
  // One compress pass, not webpack's two: the second costs more build time than the bytes it saves are worth
  // (BENCHMARKS.md, "First build").
  optimization: { minimizeOptions: { javascript: { compress: { passes: 1 } } } },
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipOf = (name) => gzipSync(readFileSync(path.join(webOut, name)), { level: 9 }).length;
const filesOf = (group) => group.chunks.flatMap((chunk) => [...chunk.files]).filter((name) => name.endsWith('.js'));

/** No server code in the browser: the e-mail rules alone would add a large disposable-domain list. */
function refuseServerCode(compilation) {
  for (const module of compilation.modules) {
    const inner = module.modules ?? [module];
    const shipped = compilation.chunkGraph.getNumberOfModuleChunks(module) > 0;
    const server =
      shipped && inner.find((part) => SERVER_FOLDERS.some((folder) => (part.resource ?? '').startsWith(folder)));
    if (server) {
      compilation.errors.push(
        new webpack.WebpackError(
          `${path.relative(root, server.resource)} (server code) ended up in the browser bundle`,
        ),
      );
    }
  }
}

const hashedName = (stem, source, extension) =>
  `assets/${stem}.${createHash('sha256').update(source).digest('hex').slice(0, 10)}.${extension}`;

/**
 * The page's typeface: Inter's variable font (its weight axis), the Latin subset only, self-hosted. Its @font-face
 * rule is the package's own (font-display: swap, the subset's unicode-range), pointed at the emitted file.
 */
function interLatin() {
  const require = createRequire(import.meta.url);
  const css = readFileSync(require.resolve('@fontsource-variable/inter/wght.css'), 'utf8');
  const rule = /\/\* inter-latin-wght-normal \*\/\s*(@font-face\s*\{[^}]*\})/.exec(css)?.[1];
  const file = /url\(\.\/(files\/inter-latin-wght-normal\.woff2)\)/.exec(rule ?? '')?.[1];
  if (!rule || !file || !rule.includes('font-display: swap'))
    throw new Error('@fontsource-variable/inter: no Latin weight-axis face with font-display: swap in wght.css');
  const source = readFileSync(require.resolve(`@fontsource-variable/inter/${file}`));
  const name = hashedName('inter-latin-wght', source, 'woff2');
  return { name, source, css: rule.replace(/url\([^)]*\)/, `url(/${name})`).replace(/\s*\n\s*/g, '') };
}

/** Emits the favicon, the font and robots.txt, writes the manifest the prerender reads, and reports gzip sizes. */
class SiteAssetsPlugin {
  apply(compiler) {
    const faviconSource = readFileSync(path.join(root, 'web/app/favicon.svg'));
    const faviconName = hashedName('favicon', faviconSource, 'svg');
    const font = interLatin();
    compiler.hooks.thisCompilation.tap('SiteAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'SiteAssetsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          refuseServerCode(compilation);
          compilation.emitAsset(faviconName, new webpack.sources.RawSource(faviconSource));
          compilation.emitAsset(font.name, new webpack.sources.RawSource(font.source));
          compilation.emitAsset('robots.txt', new webpack.sources.RawSource('User-agent: *\nAllow: /\n'));
        },
      );
    });
    compiler.hooks.done.tap('SiteAssetsPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const { compilation } = stats;
      const entrypoints = { main: compilation.entrypoints.get('main') };
      const chunks = [...compilation.chunks].map((chunk) => ({ files: [...chunk.files] }));
      // The page's one script; the dialog's entry (which fetches the rest, React and all) loads once the page is idle
      // after its load (demo-launcher.ts), and its calendar after the form's first frame (lazy-calendar.tsx).
      const initial = filesOf(entrypoints.main);
      const opener = filesOf(compilation.entrypoints.get('opener'));
      const dialog = filesOf(compilation.entrypoints.get('demo'));
      mkdirSync(ssrOut, { recursive: true });
      writeFileSync(
        path.join(ssrOut, 'client-manifest.json'),
        JSON.stringify(
          {
            scripts: initial.map((name) => `/${name}`),
            openerScripts: opener.map((name) => `/${name}`),
            dialogScripts: dialog.map((name) => `/${name}`),
            favicon: `/${faviconName}`,
            font: { href: `/${font.name}`, css: font.css },
          },
          null,
          2,
        ),
      );
      const initialBytes = [...opener, ...initial].reduce((sum, name) => sum + gzipOf(name), 0);
      const calendar = filesOf(compilation.namedChunkGroups.get('date-time-picker'));
      const lazy = chunks
        .flatMap((chunk) => chunk.files.filter((file) => file.endsWith('.js')))
        .filter((file) => !initial.includes(file) && !opener.includes(file) && !calendar.includes(file));
      const bytesOf = (files) => files.reduce((sum, name) => sum + gzipOf(name), 0);
      const verdict = initialBytes <= INITIAL_JS_BUDGET_BYTES ? 'within' : 'OVER';
      console.warn(
        `web: JavaScript before the dialog opens: ${kb(initialBytes)} gzip (${verdict} the ${kb(INITIAL_JS_BUDGET_BYTES)} budget) [${[...opener, ...initial].join(', ')}]`,
      );
      console.warn(
        `web: the dialog's code, run once the page is idle after its load: ${kb(bytesOf(lazy))} gzip [${lazy.join(', ')}]`,
      );
      console.warn(
        `web: its calendar, after the form's first frame: ${kb(bytesOf(calendar))} gzip [${calendar.join(', ')}]`,
      );
    });
  }
}

const client = {
  ...shared,
  name: 'client',
  target: ['web', 'es2020'],
  // The page's own small script, written into the page; and the Request Demo dialog, a second entry with a runtime of
  // its own that the first loads once the page is idle after its load and finds under a global name. So the page's
  // script needs no chunk loader and shares no module instance with the dialog's.
  entry: {
    main: './web/app/main.ts',
    // The Request Demo dialog's opener, a few hundred bytes written into the page's head.
    opener: './web/features/demo-request/dialog-opener.ts',
    demo: {
      import: './web/features/demo-request/demo-island.ts',
      library: { type: 'window', name: DEMO_ISLAND_GLOBAL },
    },
  },
  output: {
    path: webOut,
    publicPath: '/',
    filename: 'assets/[name].[contenthash:12].js',
    chunkFilename: 'assets/[name].[contenthash:12].js',
    clean: true,
  },
  optimization: {
    ...shared.optimization,
    splitChunks: {
      chunks: (chunk) => chunk.name !== 'main' && chunk.name !== 'opener',
      // The dialog's parts are run one by one (demo-island.ts): a module two of them share goes in a chunk of its
      // own however small, or each part's chunk would carry a copy of it.
      minSize: 0,
      cacheGroups: {
        // React in a file of its own; it stays cached across releases of the dialog's code.
        react: { test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, name: 'react', priority: 20 },
      },
    },
  },
  plugins: [...shared.plugins, new SiteAssetsPlugin()],
};

/** Refuses server code in the booking page's bundle too, writes its scripts for the prerender and reports their sizes. */
class BookingAssetsPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('BookingAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'BookingAssetsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => refuseServerCode(compilation),
      );
    });
    compiler.hooks.done.tap('BookingAssetsPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const { compilation } = stats;
      const scripts = filesOf(compilation.entrypoints.get('booking'));
      const appScripts = filesOf(compilation.entrypoints.get('booking-app'));
      mkdirSync(ssrOut, { recursive: true });
      writeFileSync(
        path.join(ssrOut, 'booking-manifest.json'),
        JSON.stringify(
          { scripts: scripts.map((name) => `/${name}`), appScripts: appScripts.map((name) => `/${name}`) },
          null,
          2,
        ),
      );
      const bytesOf = (files) => files.reduce((sum, name) => sum + gzipOf(name), 0);
      const lazy = [...compilation.chunks]
        .flatMap((chunk) => [...chunk.files])
        .filter((file) => file.endsWith('.js') && !scripts.includes(file) && !appScripts.includes(file));
      console.warn(
        `web: booking page's JavaScript before an interaction: ${kb(bytesOf(scripts))} gzip [${scripts.join(', ')}]; ` +
          `its React code, on the first intent: ${kb(bytesOf(appScripts))} gzip [${appScripts.join(', ')}]; ` +
          `the reschedule calendar: ${kb(bytesOf(lazy))} gzip [${lazy.join(', ')}]`,
      );
    });
  }
}

/**
 * The booking manage page (/booking/{token}) is a build of its own: it shares no module with the landing page, whose
 * chunks therefore come out the same with or without it, and its visitors (from an e-mail) load none of the landing
 * page's code. Its components are numbered from the first, as in its own prerender (see web/app/prerender.tsx).
 */
const booking = {
  ...shared,
  name: 'booking',
  // After the client build, which empties dist/web.
  dependencies: ['client'],
  target: ['web', 'es2020'],
  // The page's first script, small and without React, and its React code, which the first fetches on a visitor's
  // first intent (see booking-main.ts); the server renders the booking into the page.
  entry: { booking: './web/app/booking-main.ts', 'booking-app': './web/app/booking-app.tsx' },
  output: {
    path: webOut,
    publicPath: '/',
    filename: 'assets/[name].[contenthash:12].js',
    chunkFilename: 'assets/[name].[contenthash:12].js',
    // Its own name for the global its chunks load through, apart from the landing page's runtime.
    uniqueName: 'converge-booking',
  },
  plugins: [...shared.plugins, new BookingAssetsPlugin()],
};

/** Refuses server code in the sales page's bundle, writes its scripts for the prerender and reports their size. */
class SalesAssetsPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('SalesAssetsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'SalesAssetsPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => refuseServerCode(compilation),
      );
    });
    compiler.hooks.done.tap('SalesAssetsPlugin', (stats) => {
      if (stats.hasErrors()) return;
      const scripts = filesOf(stats.compilation.entrypoints.get('sales'));
      mkdirSync(ssrOut, { recursive: true });
      writeFileSync(
        path.join(ssrOut, 'sales-manifest.json'),
        JSON.stringify({ scripts: scripts.map((name) => `/${name}`) }, null, 2),
      );
      console.warn(
        `web: the sales page's JavaScript: ${kb(scripts.reduce((sum, name) => sum + gzipOf(name), 0))} gzip [${scripts.join(', ')}]`,
      );
    });
  }
}

/**
 * The sales page (/admin) is a build of its own too: the site's visitors load none of it, and the landing page's
 * chunks come out the same with or without it.
 */
const sales = {
  ...shared,
  name: 'sales',
  dependencies: ['client'],
  target: ['web', 'es2020'],
  entry: { sales: './web/app/sales-main.tsx' },
  output: {
    path: webOut,
    publicPath: '/',
    filename: 'assets/[name].[contenthash:12].js',
    chunkFilename: 'assets/[name].[contenthash:12].js',
    uniqueName: 'converge-sales',
  },
  plugins: [...shared.plugins, new SalesAssetsPlugin()],
};

const ssr = {
  ...shared,
  name: 'ssr',
  dependencies: ['client', 'booking', 'sales'],
  target: 'node20',
  // The booking page's prerender is an entry of its own, with its own styled-components (see web/app/prerender.tsx).
  entry: {
    prerender: './web/app/prerender.tsx',
    'booking-prerender': { import: './web/app/booking-prerender.tsx', library: { type: 'commonjs2' } },
    // The booking pages without script (the form at /book, a booking's move and cancel), which the API renders.
    'no-script-prerender': { import: './web/app/no-script-prerender.tsx', library: { type: 'commonjs2' } },
  },
  output: { path: ssrOut, filename: '[name].cjs', chunkFilename: '[name].[contenthash:8].cjs' },
  // A native module (the build's SVG-to-PNG step, web/app/brand-images.tsx): loaded from node_modules, not bundled.
  externals: { '@resvg/resvg-js': 'commonjs @resvg/resvg-js' },
  optimization: { minimize: false },
};

export default [client, booking, sales, ssr];
