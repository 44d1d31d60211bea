import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // maps are written for debugging but not referenced: no sourceMappingURL comment in what learners download
    sourcemap: 'hidden',
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the first load.
    modulePreload: { polyfill: false },
  },
});
