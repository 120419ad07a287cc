// Where the window's page comes from (decision 0090). Pure, so it is unit-tested without Electron;
// window.ts loads it and app-protocols.ts serves it.
import path from 'node:path';

/** The renderer's own scheme: a standard, secure origin with V8's code cache (app-protocols.ts). */
export const APP_SCHEME = 'kikitori-app';
export const APP_HOST = 'app';

export interface RendererLocation {
  /** What the window loads: kikitori-app://app/index.html, or the dev server when KIKITORI_RENDERER_URL is set. */
  url: string;
  /** The built renderer the app scheme serves. */
  rendererDir: string;
  preloadPath: string;
}

export function rendererLocation(appRoot: string, env: NodeJS.ProcessEnv = process.env): RendererLocation {
  return {
    url: env.KIKITORI_RENDERER_URL || `${APP_SCHEME}://${APP_HOST}/index.html`,
    rendererDir: path.join(appRoot, 'dist/renderer'),
    preloadPath: path.join(appRoot, 'dist/preload/preload.cjs'),
  };
}
