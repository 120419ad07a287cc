// The library's drop zone reads well at every window width, in English and Japanese: "or" stays with its
// "Choose files…" button (it dangled at the end of the title's line), and the Japanese title breaks only
// between phrases (it broke inside "ここ" at 1024 px and wrapped awkwardly at 1440 px).
import { expect, test, type Page } from '@playwright/test';
import { screenshot, startHost, type Host } from './e2e-support.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
test.beforeAll(async () => {
  host = await startHost();
});
test.afterAll(async () => host?.close());

/** Where the Japanese title may end a line: after one of its phrases. */
const JA_PHRASES = ['音声・動画ファイルや', 'フォルダーを', 'ここに', 'ドロップ'];

/** The title's text line by line, as laid out (characters grouped by the top of their box). */
async function titleLines(page: Page): Promise<string[]> {
  return page
    .getByTestId('drop-zone')
    .locator('.drop-title')
    .evaluate((title) => {
      const text = title.firstChild!;
      const lines: Array<{ top: number; text: string }> = [];
      const range = document.createRange();
      for (let i = 0; i < text.textContent!.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        const last = lines.at(-1);
        if (last && Math.abs(last.top - top) < 4) last.text += text.textContent![i];
        else lines.push({ top, text: text.textContent![i]! });
      }
      return lines.map((line) => line.text.trim());
    });
}

for (const language of ['en', 'ja'] as const)
  test(`the drop zone's text wraps cleanly at 1024, 1360, 1440 and 2560 px (${language})`, async ({ page }) => {
    expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
    try {
      for (const width of [1024, 1360, 1440, 2560]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(host.url);
        const zone = page.getByTestId('drop-zone');
        const or = zone.locator('.drop-or');
        const choose = zone.getByRole('button');
        await expect(choose).toBeVisible();
        // "or" sits on the line of its button, just before it.
        const orBox = (await or.boundingBox())!;
        const chooseBox = (await choose.boundingBox())!;
        const orMiddle = orBox.y + orBox.height / 2;
        expect(orMiddle, `${width}: "or" beside its button`).toBeGreaterThan(chooseBox.y);
        expect(orMiddle, `${width}: "or" beside its button`).toBeLessThan(chooseBox.y + chooseBox.height);
        expect(orBox.x).toBeLessThan(chooseBox.x);
        if (language === 'ja') {
          // Each line of the title is whole phrases.
          const lines = await titleLines(page);
          expect(lines.join('')).toBe(JA_PHRASES.join(''));
          for (const line of lines) {
            let left = line;
            for (const phrase of JA_PHRASES) if (left.startsWith(phrase)) left = left.slice(phrase.length);
            expect(left, `${width}: line "${line}" of ${JSON.stringify(lines)} ends inside a phrase`).toBe('');
          }
        }
        await screenshot(page, `drop-zone-${width}-${language}`);
      }
    } finally {
      expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
    }
  });
