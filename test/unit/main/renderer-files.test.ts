// The renderer's files as the kikitori-app:// scheme and the test host serve them (decision 0090), from a
// real folder on disk: types, the CSP on the page, a year's caching for hashed assets only, and nothing
// outside the folder however the path is spelled.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../src-main/content-security-policy.js';
import { rendererFileResponse } from '../../../src-main/renderer-files.js';
import { rendererLocation } from '../../../src-main/window-location.js';

let root: string;
let dir: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-renderer-files-'));
  dir = path.join(root, 'dist', 'renderer');
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Kikitori</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-DSogV3Oy.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'assets', 'noto sans.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  fs.writeFileSync(path.join(root, 'dist', 'secret.txt'), 'kk_live_key');
  fs.writeFileSync(path.join(root, 'renderer-evil.html'), 'outside');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('rendererFileResponse', () => {
  it('answers the page with its type and the CSP, revalidated each start', async () => {
    for (const pathname of ['/', '/index.html']) {
      const response = await rendererFileResponse(dir, pathname);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<title>Kikitori</title>');
    }
  });

  it('keeps a hashed asset a year (its name changes with its content); other files are revalidated', async () => {
    const script = await rendererFileResponse(dir, '/assets/index-DSogV3Oy.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('content-security-policy')).toBeNull();
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await script.text()).toBe('console.log(1)');
    const font = await rendererFileResponse(dir, '/assets/noto%20sans.woff2');
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(font.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves nothing outside the folder, nor a folder, a missing file or a malformed path', async () => {
    for (const pathname of [
      '/../secret.txt',
      '/..%2Fsecret.txt',
      '/assets/..%2F..%2Fsecret.txt',
      '/%2e%2e/%2e%2e/renderer-evil.html',
      '/..%5Csecret.txt',
      '/assets',
      '/assets/',
      '/missing.js',
      '/index.html%00.js',
      '/%E0%A4%A',
    ]) {
      const response = await rendererFileResponse(dir, pathname);
      expect(response.status, pathname).toBe(404);
      expect(await response.text()).not.toContain('kk_live_key');
    }
    // A sibling folder whose name starts like the renderer's is outside it too.
    fs.mkdirSync(path.join(root, 'dist', 'renderer-other'), { recursive: true });
    fs.writeFileSync(path.join(root, 'dist', 'renderer-other', 'x.js'), 'evil');
    expect((await rendererFileResponse(dir, '/../renderer-other/x.js')).status).toBe(404);
  });
});

describe('rendererLocation', () => {
  it('loads the app scheme’s page and serves dist/renderer; a dev server URL replaces the page only', () => {
    expect(rendererLocation('/opt/Kikitori/resources/app.asar', {})).toEqual({
      url: 'kikitori-app://app/index.html',
      rendererDir: path.join('/opt/Kikitori/resources/app.asar', 'dist/renderer'),
      preloadPath: path.join('/opt/Kikitori/resources/app.asar', 'dist/preload/preload.cjs'),
    });
    expect(rendererLocation('/app', { KIKITORI_RENDERER_URL: 'http://localhost:5173/' }).url).toBe(
      'http://localhost:5173/',
    );
  });
});
