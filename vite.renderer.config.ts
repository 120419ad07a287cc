// The renderer: React, bundled to dist/renderer with relative asset paths so file:// loading works.
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** file:// pages have an opaque origin: a `crossorigin` module script would be fetched in CORS mode. */
function dropCrossorigin(): Plugin {
  return {
    name: 'kikitori-drop-crossorigin',
    transformIndexHtml: (html) => html.replace(/ crossorigin(?=[\s>])/g, ''),
  };
}

export default defineConfig({
  root: 'src-renderer',
  base: './',
  plugins: [react(), dropCrossorigin()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    // One chunk keeps file:// loading simple; the app is small.
    chunkSizeWarningLimit: 1500,
  },
});
