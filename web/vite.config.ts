import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { certificateCheckPage } from './certificate-check-page';

const root = fileURLToPath(new URL('.', import.meta.url));

// react-router's package exports map only its development build (dev-time warnings and checks);
// the production build beside it has the same API. The SPA's production build uses it
// (docs/lean-builds.md); the dev server keeps the warnings.
const reactRouterProduction = fileURLToPath(new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url));

export default defineConfig(({ command }) => ({
  root,
  plugins: [react(), certificateCheckPage()],
  // @/ and @shared/ (tsconfig.json paths)
  resolve: {
    tsconfigPaths: true,
    ...(command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {}),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // maps are written for debugging but not referenced: no sourceMappingURL comment in what learners download
    sourcemap: 'hidden',
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Fewer, larger chunks for what every page needs: each file costs its own gzip framing
        // and import/export glue (docs/lean-builds.md). React, the router and TanStack Query
        // in one vendor chunk (library code only: it changes less often than ours), and the small
        // shared app modules (button, alerts, paths, API client, the signed-in hint, task drafts, the session gate and the shared constants) in one more, without their
        // dependencies. Route and feature code stays in lazy chunks. TanStack's infinite-query
        // hook and observer serve only the admin program page: they stay with it, out of the vendor chunk.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/](?!.*(useInfiniteQuery|infiniteQueryObserver)\.js$)/,
            },
            {
              name: 'app-shared',
              test: /(web[\\/]src[\\/](components[\\/]ui[\\/](button|form-alert|loading-text|route-error-boundary)|config[\\/]|lib[\\/](api-client|auth|session-ended|local-config|signed-in-hint|task-drafts|chunk-reload)|app[\\/]guards[\\/]session-(gate|check))|shared[\\/]constants)\./,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
}));
