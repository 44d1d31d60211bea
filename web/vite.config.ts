import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// react-router's package exports map only its development build (dev-time warnings and checks);
// the production build beside it has the same API. The SPA's production build uses it
// (docs/lean-builds.md); the dev server keeps the warnings.
const reactRouterProduction = fileURLToPath(new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url));

export default defineConfig(({ command }) => ({
  root,
  plugins: [react()],
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // maps are written for debugging but not referenced: no sourceMappingURL comment in what learners download
    sourcemap: 'hidden',
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the first load.
    modulePreload: { polyfill: false },
  },
}));
