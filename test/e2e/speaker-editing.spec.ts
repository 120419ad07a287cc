// Speaker editing in the transcript view (issue 25 item 2, decision 0060): a new speaker from a segment's menu,
// "Merge into…" on a speaker's chip, "Split here and change speaker…" on a word, and undo; each a revision on
// the server. Screenshots in English and Japanese for people to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-speaker-editing-'));
  // One speaker asked for: the user adds the second.
  await uploadCompleted(host, await meetingWav(dir, 'voices.wav'), { numSpeakers: 1 });
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const segments = (page: Page) => page.locator('[data-segment-index]');
const chips = (page: Page) => page.locator('.speaker-chip');

async function open(page: Page, rowName = 'Open voices.wav') {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: rowName }).click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('voices.wav');
  return transcript;
}

/** The speaker labels of the transcript main shows (the server's latest revision). */
async function shownSpeakers(): Promise<Array<string | null>> {
  const list = await host.invoke('transcripts:list', {});
  const id = (list as { value: { items: Array<{ id: string; name: string }> } }).value.items.find(
    (t) => t.name === 'voices.wav',
  )!.id;
  const detail = (await host.invoke('transcripts:get', { id })) as {
    value: { document: { segments: Array<{ speaker: string | null }> } };
  };
  return detail.value.document.segments.map((s) => s.speaker);
}

test('adds a new speaker, merges it back, undoes, and splits a segment to another speaker (English)', async ({
  page,
}) => {
  await open(page);
  const count = await segments(page).count();
  expect(count).toBeGreaterThanOrEqual(2);
  await expect(chips(page)).toHaveText(['Speaker 1']);

  const last = segments(page).nth(count - 1);
  await last.getByRole('button', { name: /^More actions for the segment/ }).click();
  await last.getByRole('button', { name: 'New speaker' }).click();
  await expect(chips(page)).toHaveText(['Speaker 1', 'Speaker 2']);
  expect((await shownSpeakers()).at(-1)).toBe('SPEAKER_2');
  await screenshot(page, 'speaker-new-en');

  await page.getByRole('button', { name: 'Rename Speaker 2' }).click();
  const merge = page.getByRole('combobox', { name: 'Merge Speaker 2 into another speaker' });
  await expect(merge).toBeVisible();
  await screenshot(page, 'speaker-merge-into-en');
  await merge.selectOption({ label: 'Speaker 1' });
  await expect(chips(page)).toHaveText(['Speaker 1']);
  expect(new Set(await shownSpeakers())).toEqual(new Set(['SPEAKER_1']));

  await page.getByRole('button', { name: /Undo/ }).click();
  await expect(chips(page)).toHaveText(['Speaker 1', 'Speaker 2']);

  // The first segment, split before its third word, the second part to Speaker 2.
  const words = segments(page).nth(0).getByTestId('word');
  expect(await words.count()).toBeGreaterThanOrEqual(3);
  await words.nth(2).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Split here and change speaker…' }).click();
  await expect(page.getByRole('menuitem', { name: 'New speaker' })).toBeVisible();
  await screenshot(page, 'speaker-split-to-en');
  await page.getByRole('menuitem', { name: 'Speaker 2' }).click();
  await expect(segments(page)).toHaveCount(count + 1);
  expect((await shownSpeakers()).slice(0, 2)).toEqual(['SPEAKER_1', 'SPEAKER_2']);

  // Split again before Speaker 2's first turn, to a new person: they are Speaker 3, and Speaker 2 (who now
  // speaks after them) keeps the name (the tryout saw Speaker 2 renamed Speaker 3).
  await segments(page).nth(0).getByTestId('word').nth(1).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Split here and change speaker…' }).click();
  await page.getByRole('menuitem', { name: 'New speaker' }).click();
  await expect(segments(page)).toHaveCount(count + 2);
  expect((await shownSpeakers()).slice(0, 3)).toEqual(['SPEAKER_1', 'SPEAKER_3', 'SPEAKER_2']);
  await expect(chips(page).nth(1)).toHaveText('Speaker 3');
  await expect(chips(page).nth(2)).toHaveText('Speaker 2');
  await screenshot(page, 'speaker-split-new-en');
});

for (const language of ['en', 'ja'] as const)
  test(`the timeline lists the speakers' lanes by number, not by who spoke first after the splits (${language})`, async ({
    page,
  }) => {
    expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
    try {
      await open(page, language === 'en' ? 'Open voices.wav' : 'voices.wav を開く');
      // The English test's splits left Speaker 3 speaking before Speaker 2 (the tryout saw the lanes read
      // Speaker 1, Speaker 3, Speaker 2).
      expect((await shownSpeakers()).slice(0, 3)).toEqual(['SPEAKER_1', 'SPEAKER_3', 'SPEAKER_2']);
      const lanes = page.getByTestId('timeline').locator('.lane[data-lane^="SPEAKER_"]');
      await expect(lanes).toHaveCount(3);
      expect(await lanes.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-lane')))).toEqual([
        'SPEAKER_1',
        'SPEAKER_2',
        'SPEAKER_3',
      ]);
      const word = language === 'en' ? 'Speaker' : '話者';
      await expect(lanes).toContainText([`${word} 1`, `${word} 2`, `${word} 3`]);
      // Each speaker keeps a colour of its own, by its number.
      const laneColor = (label: string) =>
        page.locator(`.lane[data-lane="${label}"] rect`).first().getAttribute('fill');
      expect(await laneColor('SPEAKER_2')).not.toBe(await laneColor('SPEAKER_3'));
      await page.getByTestId('timeline').scrollIntoViewIfNeeded();
      await screenshot(page, `timeline-lanes-by-number-${language}`);
    } finally {
      expect((await host.invoke('settings:update', { uiLanguage: 'en' })).ok).toBe(true);
    }
  });

test('the same in Japanese: a new speaker from the menu, then merged into another', async ({ page }) => {
  const updated = await host.invoke('settings:update', { uiLanguage: 'ja' });
  expect(updated.ok).toBe(true);
  await open(page, 'voices.wav を開く');
  const count = await segments(page).count();
  const last = segments(page).nth(count - 1);
  await last.getByRole('button', { name: /の区間のその他の操作$/ }).click();
  await expect(last.getByRole('button', { name: '新しい話者' })).toBeVisible();
  await screenshot(page, 'speaker-menu-ja');
  await last.getByRole('button', { name: '新しい話者' }).click();
  await expect(chips(page).last()).toHaveText('話者 4');
  expect((await shownSpeakers()).at(-1)).toBe('SPEAKER_4');
  // After the English test's splits: 話者 1, 話者 3, 話者 2 keep their names beside the new 話者 4.
  await expect(chips(page).nth(1)).toHaveText('話者 3');
  await expect(chips(page).nth(2)).toHaveText('話者 2');
  await screenshot(page, 'speaker-split-new-ja');

  await page.getByRole('button', { name: '話者 4 の名前を変更' }).click();
  const merge = page.getByRole('combobox', { name: '話者 4 を別の話者に統合' });
  await expect(merge).toBeVisible();
  await screenshot(page, 'speaker-merge-into-ja');
  await merge.selectOption({ label: '話者 1' });
  await expect(page.getByRole('button', { name: '話者 4 の名前を変更' })).toHaveCount(0);
  expect((await shownSpeakers()).at(-1)).toBe('SPEAKER_1');
});

const TRYOUT = {
  en: { row: 'Open voices.wav', rename: /^Rename /, tab: 'Summary' },
  ja: { row: 'voices.wav を開く', rename: /の名前を変更$/, tab: '要約' },
} as const;

for (const language of ['en', 'ja'] as const)
  test(`the speaker editor opens by its chip, inside the window, leaves the turn's time in place and closes on another tab (${language})`, async ({
    page,
  }) => {
    expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
    await page.setViewportSize({ width: 1024, height: 880 });
    await open(page, TRYOUT[language].row);
    const first = segments(page).first();
    const time = first.locator('.timestamp');
    const timeBefore = (await time.boundingBox())!;
    const chip = first.getByRole('button', { name: TRYOUT[language].rename });
    await chip.click();
    const editor = page.getByRole('dialog', { name: TRYOUT[language].rename });
    await expect(editor).toBeVisible();
    // The turn's time and buttons stay on their line (the editor used to sit in it, pushing them down).
    expect(await time.boundingBox()).toEqual(timeBefore);
    const chipBox = (await chip.boundingBox())!;
    const below = (await editor.boundingBox())!;
    expect(below.y).toBeGreaterThanOrEqual(chipBox.y + chipBox.height);
    expect(Math.abs(below.x - chipBox.x)).toBeLessThanOrEqual(2);
    expect(below.x + below.width).toBeLessThanOrEqual(1024);
    expect(below.y + below.height).toBeLessThanOrEqual(880);
    await screenshot(page, `speaker-editor-below-${language}`);

    // Another tab: the editor closes, as the other popovers do.
    await page.getByRole('tab', { name: TRYOUT[language].tab }).click();
    await expect(editor).toHaveCount(0);

    // Low in a short window: it opens above its chip, still wholly inside the window; Escape closes it.
    const last = segments(page).last().getByRole('button', { name: TRYOUT[language].rename });
    await last.scrollIntoViewIfNeeded();
    const lastBox = (await last.boundingBox())!;
    const height = Math.max(360, Math.ceil(lastBox.y + lastBox.height + 40));
    await page.setViewportSize({ width: 1024, height });
    await last.scrollIntoViewIfNeeded();
    await last.click();
    await expect(editor).toBeVisible();
    const lastNow = (await last.boundingBox())!;
    const box = (await editor.boundingBox())!;
    // Wholly in the app's main area, not under its header: its top and bottom edges are its own.
    const main = (await page.locator('.app-main').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(main.y);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    const edgesShown = await editor.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      const x = rect.left + rect.width / 2;
      return [rect.top + 2, rect.bottom - 2].every((y) => element.contains(document.elementFromPoint(x, y)));
    });
    expect(edgesShown).toBe(true);
    if (height - (lastNow.y + lastNow.height) < box.height) expect(box.y + box.height).toBeLessThanOrEqual(lastNow.y);
    await screenshot(page, `speaker-editor-edge-${language}`);
    await page.keyboard.press('Escape');
    await expect(editor).toHaveCount(0);
    await expect(last).toBeFocused();
  });
