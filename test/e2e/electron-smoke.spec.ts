// The real Electron app, when an Electron binary is present (it cannot be downloaded everywhere; the
// test host covers the same handlers without it). Every native module is Node-API, so the binaries npm
// installed load in Electron as they do in Node (docs/decisions/0023-node-24.md).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { repoRoot } from './host/start-host.js';

function electronBinary(): string | null {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown as string;
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
test.skip(!binary, 'no Electron binary (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1)');

test('the app opens its window from disk, and the page sees only the curated API', async () => {
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-electron-'));
  const app = await electron.launch({
    executablePath: binary!,
    args: [repoRoot(), ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    env: { ...process.env, KIKITORI_USER_DATA_DIR: userData },
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId('drop-zone')).toBeVisible({ timeout: 60_000 });
    // The app's own scheme (decision 0090), served from dist/renderer, not a file:// page.
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getURL())).toBe(
      'kikitori-app://app/index.html',
    );
    const exposed = await page.evaluate(() => ({
      list: typeof (window as unknown as { kikitori: { transcripts: { list: unknown } } }).kikitori.transcripts.list,
      invoke: typeof (window as unknown as { kikitori: { invoke?: unknown } }).kikitori.invoke,
      // No Node in the page: sandbox on, nodeIntegration off, context isolated.
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      opened: window.open('https://example.com') === null,
    }));
    expect(exposed).toEqual({
      list: 'function',
      invoke: 'undefined',
      require: 'undefined',
      process: 'undefined',
      opened: true,
    });
    const info = await page.evaluate(() =>
      (window as unknown as { kikitori: { app: { info(): Promise<{ ok: boolean }> } } }).kikitori.app.info(),
    );
    expect(info.ok).toBe(true);
  } finally {
    await app.close();
    fs.rmSync(userData, { recursive: true, force: true });
  }
});
