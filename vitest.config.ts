import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import BrowserFirstSequencer from './test/helpers/browser-first-sequencer';

/** @/ and @shared/ (tsconfig.json paths) in every project. */
const ALIASES = { tsconfigPaths: true };

/** The unit tests: domain rules, handlers with mocked clients; nothing external, no build. */
const UNIT = {
  include: ['functions/**/*.test.ts', 'shared/**/*.test.ts', 'infra/local/**/*.test.ts', 'test/unit/**/*.test.ts'],
  environment: 'node' as const,
  env: { STAGE: 'local', SESSION_SECRET: 'unit-test-secret-unit-test-secret', PASSWORD_HASH_LOG2N: '10', LOG_LEVEL: 'SILENT' },
};
const UNIT_REPLACING_MODULES = [
  'functions/jobs/workers.test.ts',
  'functions/jobs/reminders.test.ts',
  'functions/lib/init-reads.test.ts',
  'functions/lib/cold-start-imports.test.ts',
  // SDK clients created once per process (email, region) and mocked per file
  'functions/lib/email.test.ts',
  'functions/lib/region.test.ts',
  'functions/accounts/security-notices.test.ts',
  'test/unit/web-fetch-mock.test.ts',
];

/** The SPA's component tests, in jsdom. */
const WEB = {
  include: ['web/src/**/*.test.{ts,tsx}'],
  environment: 'jsdom' as const,
  setupFiles: ['test/helpers/web-setup.ts'],
  // A form test types field by field through React renders: ~1 s alone, several seconds
  // while the integration and browser suites share the two cores.
  testTimeout: 20_000,
};
/**
 * Web files that replace modules or globals (vi.mock, vi.stubGlobal): a fresh module graph each.
 * Also the alert focus test, which waits on animation frames: a jsdom shared with earlier files
 * has left them unrun (two runs out of four), so it gets a fresh one.
 */
const WEB_REPLACING_MODULES = [
  'web/src/components/ui/form-alert.test.tsx',
  'web/src/app/routes/account-data.test.tsx',
  'web/src/app/routes/certificate.test.tsx',
  'web/src/features/account-security/components/security-section.test.tsx',
  'web/src/features/account-security/components/passkey-sign-in-button.test.tsx',
  'web/src/features/admin-dashboard/components/admin-dashboard-view.test.tsx',
  'web/src/app/route-errors.test.tsx',
  'web/src/lib/chunk-reload.test.ts',
];

/** The end-to-end suites: one local runtime (as `npm start` runs it) and headless Chromium. */
const E2E = {
  environment: 'node',
  globalSetup: ['test/helpers/e2e-global-setup.ts'],
  // The browser waits on debounces and network round trips: poll longer than the 1 s default.
  expect: { poll: { timeout: 10_000, interval: 100 } },
  testTimeout: 90_000,
  hookTimeout: 120_000,
};

/**
 * One `vitest run` runs every suite: unit (domain rules; nothing external, no build),
 * integration (real DynamoDB Local started once per run), build (the SPA's production bundle),
 * infrastructure (CDK assertions), the local runtime's own start-up and end-to-end (headless Debian
 * Chromium against the local runtime).
 */
export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one on a 2-core machine. The suites
    // mostly wait on DynamoDB Local, the local SES and Chromium (other processes), so two
    // workers keep both cores busy.
    maxWorkers: 2,
    // Two groups, one after the other (`sequence.groupOrder`): first the browser suite on one
    // worker beside the unit, web, infrastructure and runtime files on the other, then the
    // integration files on both. The journeys and the integration files slowed each other into
    // timeouts when they shared the cores; beside the lighter files the browser suite costs
    // little, and the integration files keep both cores.
    sequence: { sequencer: BrowserFirstSequencer },
    projects: [
      {
        resolve: ALIASES,
        test: {
          ...UNIT,
          name: 'unit',
          exclude: [...configDefaults.exclude, ...UNIT_REPLACING_MODULES],
          // One module graph per worker instead of one per file: the AWS SDK and the handlers'
          // imports load once, not 60 times (a third of the CPU time).
          isolate: false,
        },
      },
      {
        // Files that replace modules (vi.mock, vi.resetModules) get a fresh module graph each.
        resolve: ALIASES,
        test: { ...UNIT, name: 'unit-isolated', include: UNIT_REPLACING_MODULES },
      },
      {
        plugins: [react()],
        resolve: ALIASES,
        test: {
          ...WEB,
          name: 'web',
          exclude: [...configDefaults.exclude, ...WEB_REPLACING_MODULES],
          // One jsdom and one module graph per worker instead of one per file (React, Testing
          // Library and the app load once); web-setup.ts resets the DOM, storage and handlers.
          isolate: false,
        },
      },
      {
        plugins: [react()],
        resolve: ALIASES,
        test: { ...WEB, name: 'web-isolated', include: WEB_REPLACING_MODULES },
      },
      {
        resolve: ALIASES,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          environment: 'node',
          globalSetup: ['test/helpers/emulators-global-setup.ts'],
          setupFiles: ['test/helpers/integration-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Checks of the production build of the SPA (web/dist): `npm test` builds it first.
        resolve: ALIASES,
        test: {
          name: 'build',
          include: ['test/build/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: ALIASES,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          // One module graph per worker: aws-cdk-lib loads once and a stack with the same props is
          // synthesized once (test/infra/synth-stack.ts), not once per file. No file replaces modules.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: ALIASES,
        test: {
          // The local runtime started as `npm start` starts it, on free ports of its own: runs beside
          // the other suites (no shared runtime, no browser).
          name: 'runtime',
          include: ['test/runtime/**/*.test.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        // `npm run soak:quick`: a few simulated days of the product on a local twin of its own
        // (test/soak, docs/soak.md), beside the lighter projects of the first group.
        resolve: ALIASES,
        test: { name: 'soak', include: ['test/soak/soak-quick.test.ts'], environment: 'node', testTimeout: 600_000, hookTimeout: 120_000 },
      },
      {
        resolve: ALIASES,
        // the deliberately broken builds (npm run soak:breaks): each invariant seen to fail
        test: {
          name: 'soak-breaks',
          include: ['test/soak/soak-breaks.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
      {
        // One end-to-end file on its own (`npx vitest run --project e2e test/e2e/<file>`), files one
        // after another: they share one local runtime, its mailbox and its per-address limits.
        resolve: ALIASES,
        test: { ...E2E, name: 'e2e', include: ['test/e2e/**/*.test.ts'], fileParallelism: false },
      },
      {
        // Every end-to-end file, one after another inside one Vitest file (test/browser/suite.test.ts),
        // started first beside the lighter projects. `npm test` runs this project, not `e2e`.
        resolve: ALIASES,
        test: { ...E2E, name: 'browser', include: ['test/browser/**/*.test.ts'] },
      },
      {
        resolve: ALIASES,
        test: {
          name: 'bench',
          include: ['test/bench/**/*.bench.test.ts'],
          environment: 'node',
          globalSetup: ['test/helpers/emulators-global-setup.ts'],
          setupFiles: ['test/helpers/integration-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
