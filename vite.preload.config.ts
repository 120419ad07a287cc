// The preload: sandboxed preloads cannot import modules, so it is bundled into one CommonJS file.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist/preload',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: 'inline',
    lib: { entry: 'src-preload/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
