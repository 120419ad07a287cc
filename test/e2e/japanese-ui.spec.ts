// The Japanese interface on a machine with no CJK fonts (issue 10): Chromium runs with a fontconfig that
// hides every system CJK font, so Japanese can only render through the font bundled into the renderer
// (src-renderer/fonts.css), and the logo is an image, not a glyph.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

const fontconfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-no-cjk-')), 'fonts.conf');
fs.writeFileSync(
  fontconfig,
  `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><glob>*CJK*</glob><glob>*Droid*Fallback*</glob><glob>*wqy*</glob><glob>*IPA*</glob><glob>*Takao*</glob></rejectfont></selectfont>
</fontconfig>
`,
);

test.use({
  launchOptions: {
    executablePath: process.env.KIKITORI_CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
    env: { ...process.env, FONTCONFIG_FILE: fontconfig },
  },
});

let host: Host;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => host?.close());

test('the Japanese interface renders with the bundled font when the system has no Japanese font', async ({ page }) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.openTab('Settings');
  await page.getByTestId('ui-language').selectOption('ja');
  await expect(page.getByRole('navigation').getByRole('button', { name: 'ライブラリ' })).toBeVisible();
  await page.getByRole('navigation').getByRole('button', { name: 'ライブラリ' }).click();
  await expect(page.getByTestId('drop-zone')).toContainText('音声・動画ファイルやフォルダーをここにドロップ');

  // The bundled face is what renders the Japanese text: it was fetched from the app and is loaded.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Kikitori Japanese').map((f) => f.status),
      ),
    )
    .toEqual(['loaded']);
  expect(await page.evaluate(() => document.fonts.check('14px "Kikitori Japanese"', '聞き取り'))).toBe(true);

  // The logo is a drawn image, so it needs no font at all.
  const logo = page.locator('.app-header .brand-mark');
  await expect(logo).toHaveJSProperty('tagName', 'IMG');
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  await screenshot(page, 'library-ja-no-system-cjk-fonts');
});
