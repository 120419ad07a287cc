// Renders icon.svg to the PNG sizes electron-builder wants, with Chromium (what the app itself draws
// with), so gradients and rounded corners come out exactly as drawn. Run: node resources/make-icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const dir = import.meta.dirname;
const svg = fs.readFileSync(path.join(dir, 'icon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.KIKITORI_CHROMIUM || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  for (const size of [1024, 512, 256, 128, 64, 32, 16]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('width="1024" height="1024"', `width="${size}" height="${size}"`)}</body></html>`,
    );
    const name = size === 1024 ? 'icon.png' : `icon-${size}.png`;
    await page.screenshot({
      path: path.join(dir, name),
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    await page.close();
  }
} finally {
  await browser.close();
}
