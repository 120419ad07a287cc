// Any window size (issue 27 item 8): at 1024×700 the library shows several rows under the model offer and
// the uploads, and the pinned player leaves the transcript room; at 2560×1440 transcript lines keep a
// readable length; nothing scrolled shows through above the pinned player, and "Follow playback" is
// never under it (nor offered where the transcript fits the window). Geometry is measured in the page,
// in English and Japanese.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { EVERYDAY_SENTENCES } from '../../bench/speech-corpus.js';
import { concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';

test.describe.configure({ mode: 'serial' });

const SHORT_MEETINGS = 5;
const LONG = 'long-meeting.wav';
const FOLLOW = { en: 'Follow playback', ja: '再生位置に追従' } as const;
const UPLOADS_DONE = { en: `${SHORT_MEETINGS + 1} uploaded`, ja: `${SHORT_MEETINGS + 1} 件完了` } as const;

let host: Host;
test.beforeAll(async () => {
  test.setTimeout(480_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-sizes-'));
  // A catalogue of one model and a key that may download it: the library offers it (the banner measured
  // here). Nothing downloads it, so its address leads nowhere.
  const catalogue = path.join(dir, 'catalogue.json');
  const model = { name: 'small', file: 'ggml-small.bin', bytes: 487_601_967, sha256: '0'.repeat(64) };
  const entry = { ...model, multilingual: true, speed: 'moderate', accuracy: 'good', memory_bytes: 852_000_000 };
  fs.writeFileSync(catalogue, JSON.stringify({ models: [{ ...entry, url: 'http://127.0.0.1:9/ggml-small.bin' }] }));
  host = await startHost({ serverEnv: { KIKITORI_MODEL_CATALOG: catalogue }, keyRoles: ['DELETE', 'OPERATOR'] });
  // Turns of two sentences spoken as one (no full stop between them): lines over 80 characters.
  const plain = EVERYDAY_SENTENCES.map((sentence) => sentence.replace(/\.$/, '').toLowerCase());
  const turns = await Promise.all(
    Array.from({ length: plain.length / 2 }, (_, i) => synthesizeSpeech(`${plain[2 * i]} and ${plain[2 * i + 1]}`)),
  );
  const long = path.join(dir, LONG);
  fs.copyFileSync(await concatWithSilence(turns, 1.5), long);
  const short = await meetingWav(dir);
  const files = [long];
  for (let i = 1; i <= SHORT_MEETINGS; i++) {
    files.push(path.join(dir, `meeting-${i}.wav`));
    fs.copyFileSync(short, files[i]!);
  }
  for (const file of files) await uploadCompleted(host, file);
});
test.afterAll(async () => host?.close());

/** Rows of the library wholly inside both the list's scroll box and the window, as the page first shows them. */
async function rowsInView(page: Page): Promise<number> {
  return page.evaluate(() => {
    const list = document.querySelector('.list-viewport')!.getBoundingClientRect();
    const bottom = Math.min(list.bottom, window.innerHeight);
    return [...document.querySelectorAll('[data-testid="transcription-row"]')].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.height > 0 && box.top >= list.top - 0.5 && box.bottom <= bottom + 0.5;
    }).length;
  });
}

/** The widest line box of the transcript's text, and 80ch of that text's font, in pixels. */
async function lineWidths(page: Page): Promise<{ widest: number; limit: number }> {
  return page.evaluate(() => {
    const texts = [...document.querySelectorAll<HTMLElement>('.segment-text')];
    let widest = 0;
    for (const text of texts) {
      // The words' boxes, gathered by line: a line is as wide as its first word's left to its last's right.
      const range = document.createRange();
      range.selectNodeContents(text);
      const lines = new Map<number, { left: number; right: number }>();
      for (const rect of range.getClientRects()) {
        if (rect.width === 0) continue;
        const line = lines.get(Math.round(rect.bottom)) ?? { left: rect.left, right: rect.right };
        lines.set(Math.round(rect.bottom), {
          left: Math.min(line.left, rect.left),
          right: Math.max(line.right, rect.right),
        });
      }
      for (const { left, right } of lines.values()) widest = Math.max(widest, right - left);
    }
    const probe = document.createElement('span');
    probe.style.cssText = 'display:inline-block;width:80ch';
    texts[0]!.appendChild(probe);
    const limit = probe.getBoundingClientRect().width;
    probe.remove();
    return { widest, limit };
  });
}

/** What a click just above the player's top edge would land on: in the player, or the app's own chrome. */
async function aboveThePlayer(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const player = document.querySelector('.player')!.getBoundingClientRect();
    const main = document.querySelector('.app-main')!.getBoundingClientRect();
    const found: string[] = [];
    for (let y = Math.ceil(main.top) + 1; y < player.top; y += 3)
      for (const x of [player.left + 12, player.left + player.width / 2, player.right - 12]) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || hit.closest('.player, .app-header') || hit === document.querySelector('.app-main')) continue;
        found.push(`${hit.className || hit.tagName} at ${Math.round(x)},${y}`);
      }
    return found;
  });
}

const TRANSCRIPT_ACTIONS = { en: ['Transcribe again…', 'History…'], ja: ['もう一度文字起こし…', '履歴…'] } as const;

/** The transcript's popover buttons and their panels' names. */
const POPOVERS = {
  en: [
    ['History…', 'Versions on the server'],
    ['Export…', 'Export transcript'],
  ],
  ja: [
    ['履歴…', 'サーバー上の版'],
    ['書き出し…', '文字起こしを書き出す'],
  ],
} as const;

for (const language of ['en', 'ja'] as const)
  for (const size of [
    // The long meeting fills more than the small window: the page scrolls under the pinned player there.
    { width: 1024, height: 700, scrolls: true },
    { width: 2560, height: 1440, scrolls: false },
  ])
    test(`${size.width}×${size.height} in ${language}: the library, the pinned player and the transcript fit`, async ({
      page,
    }) => {
      const name = `${size.width}x${size.height}-${language}`;
      expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(host.url);
      const rows = page.getByTestId('transcription-row');
      await expect(rows).toHaveCount(SHORT_MEETINGS + 1);
      await expect(page.getByTestId('uploads-summary')).toHaveText(UPLOADS_DONE[language]);
      await expect(page.getByTestId('speech-offer')).toBeVisible();
      await screenshot(page, `window-${name}-library`);

      // Several rows under the offer and the uploads, without scrolling the page (about one before).
      expect(await rowsInView(page)).toBeGreaterThanOrEqual(SHORT_MEETINGS);
      // Collapsed or not, the uploads say how many there are.
      await expect(page.getByTestId('uploads-summary')).toBeInViewport();

      await page.locator('.list-row').filter({ hasText: LONG }).getByTestId('transcription-row').click();
      await expect(page.getByTestId('transcript-title')).toHaveText(LONG);
      await expect(page.locator('.segment-text').nth(3)).toBeAttached();
      await expect(page.getByTestId('waveform')).toHaveAttribute('data-drawn', 'true');
      // Transcribe again… and History… are in the transcript's toolbar, whole in the window as it opens
      // (they were at the page's foot, unseen).
      for (const label of TRANSCRIPT_ACTIONS[language])
        await expect(page.getByRole('toolbar').getByRole('button', { name: label, exact: true })).toBeInViewport({
          ratio: 1,
        });
      await screenshot(page, `window-${name}-toolbar`);

      // Scrolled by the user: following stops, "Follow playback" shows. Where the transcript fits the
      // window there is nothing to scroll away from: no "Follow playback".
      const pane = page.getByTestId('transcript-pane');
      const paneBox = (await pane.boundingBox())!;
      await page.mouse.move(paneBox.x + paneBox.width / 2, Math.min(paneBox.y + 40, size.height - 20));
      await page.mouse.wheel(0, 260);
      const follow = page.getByRole('button', { name: FOLLOW[language] });
      if (size.scrolls) {
        await expect(follow).toBeVisible();
        await expect.poll(() => page.locator('.app-main').evaluate((main) => main.scrollTop)).toBeGreaterThan(0);
        // The window grown until the transcript fits: nothing is left to scroll away from, so "Follow
        // playback" goes (it stayed until clicked); back to the small window, it is not offered again unasked.
        await page.setViewportSize({ width: 2560, height: 1440 });
        await expect(follow).toHaveCount(0);
        await screenshot(page, `window-${name}-grown`);
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.mouse.move(paneBox.x + paneBox.width / 2, Math.min(paneBox.y + 40, size.height - 20));
        await page.mouse.wheel(0, 260);
        await expect(follow).toBeVisible();
      } else {
        // Two frames: the wheel has been handled and the pane rendered again.
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        await expect(follow).toHaveCount(0);
      }
      await screenshot(page, `window-${name}-transcript`);

      const player = (await page.locator('.player').boundingBox())!;
      // The pinned player leaves the transcript most of the window (about 400 of 700 px before).
      const textRoom = size.height - (player.y + player.height);
      expect(textRoom).toBeGreaterThanOrEqual(size.height * 0.68);

      // Pinned, it leaves nothing of the scrolled transcript showing between the app's header and itself.
      if (size.scrolls) expect(await aboveThePlayer(page)).toEqual([]);

      // Lines of a readable length: at most 80 characters' width, however wide the window.
      const { widest, limit } = await lineWidths(page);
      expect(widest).toBeGreaterThan(0);
      expect(widest).toBeLessThanOrEqual(limit);

      // "Follow playback" is clear of the player, on top where it is, and does what it says.
      if (size.scrolls) {
        const button = (await follow.boundingBox())!;
        const overlaps =
          button.x < player.x + player.width &&
          player.x < button.x + button.width &&
          button.y < player.y + player.height &&
          player.y < button.y + button.height;
        expect(overlaps).toBe(false);
        expect(button.y + button.height).toBeLessThanOrEqual(size.height);
        const onTop = await follow.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return element.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
        });
        expect(onTop).toBe(true);
        // A click where it is, not where Playwright would scroll it to.
        await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
        await expect(follow).toHaveCount(0);
      }

      // The popovers under the transcript open where the window has room (above their button when it is
      // low in a small window), wholly inside it, and Escape closes them.
      for (const [button, dialog] of POPOVERS[language]) {
        await page.getByRole('button', { name: button, exact: true }).click();
        const panel = page.getByRole('dialog', { name: dialog });
        await expect(panel).toBeVisible();
        const box = (await panel.boundingBox())!;
        expect(box.y, `${button} top`).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height, `${button} bottom`).toBeLessThanOrEqual(size.height);
        await screenshot(page, `window-${name}-${dialog === POPOVERS[language][0][1] ? 'history' : 'export'}`);
        await page.keyboard.press('Escape');
        await expect(panel).toHaveCount(0);
      }
    });
