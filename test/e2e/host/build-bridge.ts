// Bundles bridge.ts (and the shared API builder it imports) into one classic script for the page.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { build } from 'vite';

const built = new Map<string, Promise<string>>();

/** The bridge script, bundled once per process: every host serves the same one. */
export function bridgeScript(root: string, workDir: string): Promise<string> {
  let script = built.get(root);
  if (!script) {
    script = buildBridge(root, workDir);
    built.set(root, script);
    // A failed build is not kept: the next host tries again.
    script.catch(() => built.delete(root));
  }
  return script;
}

export async function buildBridge(root: string, workDir: string): Promise<string> {
  const outDir = path.join(workDir, 'bridge');
  await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'chrome120',
      lib: {
        entry: path.join(root, 'test/e2e/host/bridge.ts'),
        formats: ['iife'],
        name: 'kikitoriBridge',
        fileName: () => 'bridge.js',
      },
    },
  });
  return fsp.readFile(path.join(outDir, 'bridge.js'), 'utf8');
}
