// @ts-check
/**
 * Lint rules for the whole repository (docs/architecture.md#lint-and-format): type-aware
 * TypeScript rules everywhere, React hooks and accessibility rules for the SPA, and the import
 * boundaries that keep the layers apart (docs/architecture.md#1-layout):
 *  - `shared/` imports neither `functions/` nor `web/` (both sides use it), nor `infra/` or `test/`;
 *  - `web/` and `functions/` never import each other; Lambda code never imports `infra/` (CDK);
 *  - a web feature imports no other feature and not `web/src/app` (bulletproof-react: the app
 *    composes features); the SPA's shared code (components, lib, utils, config) imports neither;
 *  - the Lambda domains are layered: `functions/lib` (platform) imports no domain, `accounts`
 *    imports neither `admin` nor `program`, `program` imports no `admin`; what needs several
 *    domains is composed above them (`functions/groups`, `admin`, `jobs`);
 *  - no import cycle anywhere (`import-x/no-cycle`; type-only imports do not count).
 * The boundaries use import-x `no-restricted-paths`, which resolves every import to a file, so a
 * relative `../../features/x` is caught as well as any other spelling; `import-x/no-unresolved`
 * makes sure no relative import escapes that check by failing to resolve.
 * test/unit/lint-boundaries.test.ts proves that a wrong import is reported.
 */
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/** Every folder under web/src/features, read at lint time: a new feature is fenced in without editing this file. */
const FEATURES = readdirSync(`${root}/web/src/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** @typedef {{ target: string | string[], from: string | string[], except?: string[], message?: string }} Zone */

/** @type {Zone[]} */
const SHARED_ZONES = [
  {
    target: './shared',
    from: ['./functions', './web', './infra', './test'],
    message: 'shared/ is used by both the Lambdas and the SPA: it imports neither, nor infra/ or test/.',
  },
];

/** @type {Zone[]} */
const WEB_ZONES = [
  {
    target: './web',
    from: ['./functions', './infra'],
    message: 'The SPA never imports Lambda or infrastructure code: share through shared/.',
  },
  ...FEATURES.map((feature) => ({
    target: `./web/src/features/${feature}`,
    from: './web/src/features',
    except: [`./${feature}`],
    message:
      'A web feature imports no other feature: compose features in web/src/app, or move the common part to web/src/components|lib|utils.',
  })),
  {
    target: './web/src/features',
    from: './web/src/app',
    message: 'Features never import the app layer (router, layouts, providers): the app imports features.',
  },
  {
    target: ['./web/src/components', './web/src/lib', './web/src/utils', './web/src/config'],
    from: ['./web/src/features', './web/src/app'],
    message: "The SPA's shared code is used by features and the app: it imports neither.",
  },
];

const DOMAINS = ['accounts', 'admin', 'program', 'jobs', 'groups', 'api-docs'].map((domain) => `./functions/${domain}`);

/** @type {Zone[]} */
const FUNCTIONS_LAYER_ZONES = [
  {
    target: './functions/lib',
    from: DOMAINS,
    message: 'functions/lib is the platform every domain uses: it imports no domain (pass what it needs in, or move the code up).',
  },
  {
    target: './functions/accounts',
    from: ['./functions/admin', './functions/program'],
    message:
      'The accounts domain imports neither admin nor program: move the shared write into accounts/, or compose both in functions/groups.',
  },
  {
    target: './functions/program',
    from: './functions/admin',
    message: 'The program domain imports no admin code: shared pieces live in functions/lib or the domain that owns them.',
  },
];

/** @type {Zone} */
const FUNCTIONS_ZONE_WEB = { target: './functions', from: './web', message: 'Lambda code never imports the SPA: share through shared/.' };
/** @type {Zone} */
const FUNCTIONS_ZONE_INFRA = {
  target: './functions',
  from: './infra',
  message: 'Lambda code never imports infra/ (CDK and the local runtime would end up in the bundle).',
};

const restrictedPaths = (/** @type {Zone[]} */ zones) => ['error', { basePath: root, zones }];

export default defineConfig(
  globalIgnores(['node_modules/', 'cdk.out/', 'web/dist/', '.data/', '.test-data/', 'coverage/', 'test-results/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // projectService: the root tsconfig.json (which lists only source trees) gives every file its types.
      parserOptions: { projectService: true, tsconfigRootDir: root },
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript sources import without extensions (moduleResolution Bundler).
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'], tsconfig: { configFile: `${root}/tsconfig.json` } }),
      ],
      // no-cycle follows only the files it can parse: without these it reads no TypeScript and finds nothing.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Relative and aliased imports (@/, @shared/: tsconfig.json paths) are checked: the boundaries need them resolved.
      'import-x/no-unresolved': ['error', { ignore: ['^(?!@/|@shared/)[^.]'] }],
      // Packages are not followed: a cycle through node_modules is not ours to fix.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // React discards what a JSX event handler returns, so `onClick={async () => …}` is fine there; each
      // such handler reports its own failure (mutation onError, reportOutcome). Everywhere else a promise
      // passed where a void callback is expected stays an error.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['shared/**'],
    rules: { 'import-x/no-restricted-paths': restrictedPaths(SHARED_ZONES) },
  },
  {
    files: ['functions/**'],
    rules: { 'import-x/no-restricted-paths': restrictedPaths([FUNCTIONS_ZONE_WEB, FUNCTIONS_ZONE_INFRA, ...FUNCTIONS_LAYER_ZONES]) },
  },
  {
    // Business time comes from one clock (functions/lib/clock.ts), which a simulation can move;
    // a duration the code measures for itself uses performance.now().
    files: ['functions/**/*.ts', 'shared/**/*.ts'],
    ignores: ['**/*.test.ts', 'functions/lib/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read the time from functions/lib/clock.ts (nowMs, nowSeconds); a measured duration uses performance.now().',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from functions/lib/clock.ts (currentDate, nowIso).',
        },
      ],
    },
  },
  {
    // A test may read an operator script's output to check a generated file is current, and a
    // platform test may load the Lambda entries to check what they do at init.
    files: ['functions/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': restrictedPaths([FUNCTIONS_ZONE_WEB, ...FUNCTIONS_LAYER_ZONES.slice(1)]) },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    rules: {
      'import-x/no-restricted-paths': restrictedPaths(WEB_ZONES),
      // A scrolling table wrapper (role="region" with a name) must take focus so keyboard users can
      // scroll it (axe-core scrollable-region-focusable); tabpanel is the rule's own default.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
      // Option labels nest their text one level deeper than the default depth of 2 (title + hint spans).
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
    },
  },
  prettier,
);
