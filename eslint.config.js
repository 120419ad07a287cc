// Lint guards the direction of imports between the layers (house style: "The shape at a glance") and
// runs typescript-eslint's type-checked rules; tsc (strict) remains the type checker.
//
// Layers, lowest first. An arrow means "may import":
//   src-shared   <- everything. Contracts and pure helpers: no Node, Electron, DOM or other layer.
//   src-server   -> src-shared. Runs on its own, so never a desktop layer or electron.
//                   Inside it: engines never import jobs, the domain never imports engines, and neither
//                   application/ (use cases) nor domain/ imports http/; routes import no db/, engines/,
//                   jobs/ or storage/ (decision 0050).
//   src-main     -> src-shared. Never the renderer, the preload or the server (embedded-server/ starts
//                   the server as a child process through bin/kikitori-server.js, not by import).
//   src-preload  -> src-shared.
//   src-renderer -> src-shared and npm UI packages; reaches main only through window.kikitori.
// Tests, benches and scripts may import any layer: they exercise them. test/unit may not start processes,
// servers, PostgreSQL, S3 or speech synthesis (UNIT_TEST below).
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const TS = ['**/*.{ts,tsx,mts,cts}'];
const UNSAFE_OFF = Object.fromEntries(
  ['argument', 'assignment', 'call', 'member-access', 'return'].map((rule) => [
    `@typescript-eslint/no-unsafe-${rule}`,
    'off',
  ]),
);
const CODE = [...TS, '**/*.{js,mjs,cjs}'];

// --- Import restrictions -------------------------------------------------------------------------
// Each restriction is a regex over the import specifier, so the same list drives no-restricted-imports
// (static imports and re-exports) and no-restricted-syntax (import() expressions and import('…')
// types, which no-restricted-imports does not see). ESLint overrides a rule's options per file
// instead of merging them, so every scope below lists all the restrictions that apply to it.

/**
 * A relative specifier that passes through the folder `dir` (e.g. '../../src-server/app.js'). Folders
 * are matched by name, not resolved: each name used here is one folder of the repository.
 */
const through = (dir) => `^\\.{1,2}/(.*/)?${dir}(/|$)`;
const restriction = (regex, message) => ({ regex, message });

const IPC = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message:
    'Raw IPC lives only in src-main/ipc/typed-ipc.ts and src-preload/preload.ts: add a channel to src-shared/ipc-contract.ts instead.',
};

const NO = {
  main: restriction(
    through('src-main'),
    'Main-process code is not importable from here: put the shared type or helper in src-shared, or reach main through the IPC contract.',
  ),
  preload: restriction(
    through('src-preload'),
    'The preload is not importable from here: its API type is KikitoriApi in src-shared/ipc-contract.ts.',
  ),
  renderer: restriction(
    through('src-renderer'),
    'Renderer code is not importable from here: move what both sides need to src-shared.',
  ),
  server: restriction(
    through('src-server'),
    'The server is not importable from the desktop layers: talk to it over HTTP (src-main/api-client), and put shared types in src-shared.',
  ),
  electron: restriction('^electron(/|$)', 'No electron here: only src-main and src-preload run inside Electron.'),
  node: restriction(
    '^node:',
    'No Node APIs here: this code also runs in the renderer. Take the value as a parameter, or move the code to src-main or src-server.',
  ),
  engines: restriction(
    through('engines'),
    'The domain does not depend on engines: declare the type or interface in src-server/domain and let the engine implement it.',
  ),
  http: restriction(
    through('http'),
    'Use cases and the domain do not depend on the HTTP layer (decision 0050): throw the closed errors of src-server/application/errors.ts, and let http/ render them at its one boundary (error-handler.ts).',
  ),
  jobs: restriction(
    through('jobs'),
    'Engines do not depend on the job runner: throw an EngineError (src-server/domain/engine-error.ts) and let the job map its kind to retry or permanent failure.',
  ),
};

// Bare builtin names ('fs', 'path') are Node too; as exact paths, so a relative './path.js' is untouched.
const NODE_BUILTINS = builtinModules
  .filter((name) => !name.startsWith('_'))
  .map((name) => ({ name, message: NO.node.message }));

/**
 * The rules for one scope: no-restricted-imports over static imports, and no-restricted-syntax over
 * import() and import('…') types with the same regexes (esquery regexes cannot contain '/'). Where
 * electron is banned outright, the raw-IPC rule would only repeat it.
 */
function restrict({ patterns = [], paths = [], ipc = !patterns.includes(NO.electron), selectors = [] }) {
  const esquery = (regex) => `/${regex.replaceAll('/', '\\x2F')}/`;
  const syntax = patterns
    .flatMap(({ regex, message }) => [
      { selector: `ImportExpression > Literal.source[value=${esquery(regex)}]`, message },
      { selector: `TSImportType > Literal.source[value=${esquery(regex)}]`, message },
    ])
    .concat(selectors);
  return {
    'no-restricted-imports': [
      'error',
      { paths: [...(ipc ? [IPC] : []), ...paths], patterns: patterns.map((p) => ({ ...p, caseSensitive: true })) },
    ],
    'no-restricted-syntax': syntax.length > 0 ? ['error', ...syntax] : 'off',
  };
}

// test/unit holds units only (issue 23): no child processes, servers, PostgreSQL, S3 or synthesized speech.
// Such tests live in test/integration, where these helpers are fine. In-process fakes (a node:http
// listener standing in for a remote) stay allowed: they start nothing.
const support = (names) => `^\\.{1,2}/(.*/)?support/(${names.join('|')})(\\.[jt]s|\\.mjs)?$`;
const UNIT_TEST = [
  restriction(
    support([
      'test-server',
      'cli-process',
      'postgres',
      'postgres-global-setup',
      's3',
      'test-databases',
      'audio-fixtures',
      '[a-z-]+-process',
    ]),
    'test/unit holds units only: a test that starts a server, a process, PostgreSQL, S3 or makes speech belongs in test/integration (mirror its path there). For a temp dir, import test/support/temp-dir.js.',
  ),
  restriction(
    '^(node:)?child_process$',
    'test/unit holds units only: a test that runs processes belongs in test/integration (mirror its path there).',
  ),
  restriction(
    '^(pg|pg-boss|s3rver)$',
    'test/unit holds units only: PostgreSQL and S3 tests belong in test/integration (mirror its path there).',
  ),
  restriction(
    through('integration'),
    'test/unit does not import the integration tier: move the helper a unit needs to test/support or test/unit.',
  ),
];

const SERVER = [NO.main, NO.preload, NO.renderer, NO.electron];

// Routes are adapters (decision 0050): they parse, call one use case in src-server/application/, and render.
// Every route, with no exception: @tus/server is driven from routes/files/tus-upload.ts, but what it stores
// and holds goes through application/resumable-uploads.ts like any other use case.
const ROUTES = ['src-server/http/routes/**'];
const USE_CASE =
  'Routes are adapters (decision 0050): call a use case in src-server/application/, which reaches repositories, engines, storage and the queue.';
// Through the context a route reads only its settings and the logger; an allow-list, so a member added to
// AppContext later is a use case's to reach. `this.ctx` (a route's helper class) counts as `ctx`.
const ROUTE_CONTEXT = '/^(config|logger)$/';
const ADAPTER = {
  patterns: [...SERVER, ...['db', 'engines', 'jobs', 'storage'].map((dir) => restriction(through(dir), USE_CASE))],
  selectors: [
    { selector: `MemberExpression[object.name="ctx"][property.name!=${ROUTE_CONTEXT}]`, message: USE_CASE },
    {
      selector: `MemberExpression[object.property.name="ctx"][property.name!=${ROUTE_CONTEXT}]`,
      message: USE_CASE,
    },
  ],
};
const MAIN = [NO.preload, NO.renderer, NO.server];

const layerRules = [
  { files: CODE, rules: restrict({}) },
  {
    files: ['src-shared/**'],
    rules: {
      ...restrict({
        patterns: [NO.main, NO.preload, NO.renderer, NO.server, NO.electron, NO.node],
        paths: NODE_BUILTINS,
      }),
      // Types such as File are fine (they describe data), but shared code must not touch a window,
      // a document or a Node process at run time.
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'indexedDB', 'self'].map(
          (name) => ({
            name,
            message: 'No DOM here: src-shared also runs in main and the server. Take the value as a parameter.',
          }),
        ),
        ...['process', 'Buffer', 'global', 'require', 'module', '__dirname', '__filename'].map((name) => ({
          name,
          message: 'No Node globals here: src-shared also runs in the renderer. Take the value as a parameter.',
        })),
      ],
    },
  },
  { files: ['src-server/**'], rules: restrict({ patterns: SERVER }) },
  { files: ROUTES, rules: restrict(ADAPTER) },
  { files: ['src-server/engines/**'], rules: restrict({ patterns: [...SERVER, NO.jobs] }) },
  { files: ['src-server/application/**'], rules: restrict({ patterns: [...SERVER, NO.http] }) },
  { files: ['src-server/domain/**'], rules: restrict({ patterns: [...SERVER, NO.engines, NO.http] }) },
  { files: ['src-main/**'], rules: restrict({ patterns: MAIN }) },
  { files: ['src-main/ipc/typed-ipc.ts'], rules: restrict({ patterns: MAIN, ipc: false }) },
  { files: ['src-preload/**'], rules: restrict({ patterns: [NO.main, NO.renderer, NO.server] }) },
  { files: ['src-preload/preload.ts'], rules: restrict({ patterns: [NO.main, NO.renderer, NO.server], ipc: false }) },
  {
    files: ['src-renderer/**'],
    rules: restrict({ patterns: [NO.main, NO.preload, NO.server, NO.electron, NO.node], paths: NODE_BUILTINS }),
  },
  { files: ['test/unit/**'], rules: restrict({ patterns: UNIT_TEST }) },
  // The server's configuration is read once: the CLI hands process.env to loadConfig (src-server/config.ts),
  // and everything else receives its typed section.
  {
    files: ['src-server/**'],
    ignores: ['src-server/cli.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Configuration is read once: declare the setting in src-server/config.ts and take its typed section as a parameter.',
        },
        // Fastify runs without a logger above info (decision 0041): request.log and reply.log then write nothing.
        ...['request', 'reply', 'app'].map((object) => ({
          object,
          property: 'log',
          message:
            "Log a request's lines through requestLog(request) (src-server/http/request-log.ts): request.log writes nothing above info.",
        })),
      ],
    },
  },
];

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'release/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'kikitori-data/**',
    ],
  },
  {
    files: CODE,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // Every TypeScript file belongs to one of these; the first project that holds a file is used.
        project: ['tsconfig.test.json', 'tsconfig.renderer.json', 'tsconfig.preload.json', 'tsconfig.tools.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `async` without `await` is how this code implements Promise-returning interfaces (repositories
      // over synchronous SQLite that PostgreSQL will make truly async, Fastify and IPC handlers, fakes):
      // a throw then becomes a rejection, as callers expect. no-floating-promises and
      // no-misused-promises still catch the promise bugs this rule is a proxy for.
      '@typescript-eslint/require-await': 'off',
      // `const { secret: _, ...rest } = value` is how the code drops a property.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // Plain JS has no annotations, so every parameter and require() is `any`: the no-unsafe-* family
    // would only ask for JSDoc types. The promise rules stay on.
    files: ['**/*.{js,mjs,cjs}'],
    rules: UNSAFE_OFF,
  },
  {
    // Tests read untyped bodies (inject().json(), fetch) and use vitest's asymmetric matchers, which
    // are typed `any`; the assertions are what check those values. The promise rules stay on: a
    // dropped promise in a test is an assertion that never runs.
    files: ['test/**'],
    rules: { ...UNSAFE_OFF, '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // koffi's foreign functions return `any`: these files are the typed wrapper around pocketsphinx's
    // C API, where `any` meets the declared interface.
    files: [
      'src-server/engines/speech/pocketsphinx-library.ts',
      'src-server/engines/speech/pocketsphinx-vocabulary.ts',
    ],
    rules: UNSAFE_OFF,
  },
  {
    // wink-nlp's `its.*` helpers are plain functions (no `this`) that its typings declare as methods.
    files: ['src-server/engines/summary/english-rules.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  {
    // A one-line launcher into dist/, and test child processes that run the build: a project holding
    // them would pull the whole compiled server in.
    files: ['bin/*.js', 'test/support/*-process.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  ...layerRules,
);
