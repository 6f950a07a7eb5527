import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** Imports of the named top-level folders, from anywhere below the importing file. */
const folders = (...names) => names.map((name) => `**/${name}/**`);
const layer = (group, message) => ({ group, message });
const serverCode = layer(
  folders('api', 'worker', 'server-shared', 'scripts', 'smsc'),
  'The browser loads web/ and domain/ only: no server code.',
);

const workerLayer = layer(
  folders('api', 'web', 'scripts', 'smsc'),
  'api/ and worker/ meet only in server-shared/ (the queue contract) and domain/.',
);

/**
 * The layers: domain/ at the ground (what the browser may load as well), server-shared/ for the two server programs,
 * api/ and worker/ beside each other, web/ above domain/ only. smsc/, the SMSC that stands in for an operator's
 * (tests, npm start, compose), is a program beside them, on server-shared/ only: the product never imports it, and
 * it knows nothing of the product. The test harness (test/) may use them all.
 */
const layers = [
  {
    files: ['domain/**'],
    patterns: [
      layer(
        folders('api', 'worker', 'web', 'server-shared', 'scripts', 'smsc', 'test'),
        'domain/ is loaded by the browser too: it imports only domain/.',
      ),
      layer(
        ['node:*'],
        'domain/ is loaded by the browser too: no Node built-ins (server code goes in server-shared/).',
      ),
    ],
  },
  {
    files: ['knexfile.ts', 'migrations/**'],
    patterns: [
      layer(
        folders('api', 'worker', 'web', 'server-shared', 'scripts', 'smsc', 'domain', 'test'),
        "knexfile.ts and the migrations are beneath api/ and the test harness: they import none of the project's folders (a migration is history, and must not change with the code).",
      ),
    ],
  },
  {
    files: ['server-shared/**'],
    patterns: [
      layer(folders('api', 'worker', 'web', 'scripts', 'smsc'), 'server-shared/ is beneath api/, worker/ and smsc/.'),
    ],
  },
  {
    files: ['api/**'],
    patterns: [
      layer(
        folders('worker', 'web', 'scripts', 'smsc'),
        'api/ and worker/ meet only in server-shared/ (the queue contract) and domain/.',
      ),
    ],
  },
  {
    files: ['smsc/**'],
    ignores: ['smsc/**/*.test.ts'],
    patterns: [
      layer(
        folders('api', 'worker', 'web', 'scripts', 'test'),
        "smsc/ stands in for an operator's SMSC: it speaks SMPP, and takes nothing of the product but server-shared/.",
      ),
    ],
  },
  {
    files: ['worker/**'],
    ignores: ['worker/email/**'],
    patterns: [workerLayer],
  },
  // The e-mails are React components: React escapes what they show, so a template never escapes by hand.
  {
    files: ['worker/email/**'],
    patterns: [
      workerLayer,
      {
        group: ['**/domain/text.js'],
        importNames: ['escapeHtml'],
        message: 'E-mails are rendered by React (worker/email/parts.tsx), which escapes text and attributes itself.',
      },
    ],
  },
  {
    files: ['web/**'],
    ignores: ['web/e2e/**', 'web/features/**', 'web/components/**', 'web/store/**'],
    patterns: [serverCode],
  },
  // Within web/: app/ (the entry points and the pages they assemble) on top, imported by nobody; features/ beneath it,
  // each on its own, taking only the shared date and time picker from another feature; store/ (the API slice, the
  // store, the API's errors) and components/ (generic styled parts and the theme) beneath the features.
  {
    files: ['web/features/**'],
    ignores: ['web/features/date-time-picker/**'],
    patterns: [
      serverCode,
      layer(folders('app'), 'web/app/ holds the entry points: nothing imports it.'),
      {
        regex: '^\\.\\./(?!date-time-picker/)[^./][^/]*/',
        message:
          'A feature takes nothing from another feature but the shared date and time picker (features/date-time-picker/).',
      },
    ],
  },
  {
    files: ['web/features/date-time-picker/**'],
    patterns: [
      serverCode,
      layer(folders('app'), 'web/app/ holds the entry points: nothing imports it.'),
      {
        regex: '^\\.\\./[^./][^/]*/',
        message: 'The date and time picker is shared by features: it imports none of them.',
      },
    ],
  },
  {
    files: ['web/components/**'],
    patterns: [
      serverCode,
      layer(folders('app', 'features', 'store'), 'components/ are generic styled parts: no store, feature or page.'),
    ],
  },
  {
    files: ['web/store/**'],
    patterns: [
      serverCode,
      layer(folders('app', 'features', 'components'), 'store/ talks to the API: no component, feature or page.'),
    ],
  },
].map(({ files, ignores, patterns }) => ({
  files,
  ...(ignores ? { ignores } : {}),
  rules: { 'no-restricted-imports': ['error', { patterns }] },
}));

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', 'artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  ...layers,
  // No module imports itself through others: a cycle leaves one side half-loaded at start and blurs the layers above.
  // The rule passes over `import type`, which the compiler erases.
  {
    plugins: { 'import-x': importX },
    settings: {
      // The plugin follows imports into these files only, each parsed by the parser named for its ending.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
