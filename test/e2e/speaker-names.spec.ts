// Renaming a speaker in the transcript view (issue 24 item 3, decision 0055): the name is part of the
// server's document, a version in History, undone and redone like any edit, and kept after a reload.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-speaker-names-'));
  await uploadCompleted(host, await meetingWav(dir, 'named.wav'), { numSpeakers: 2 });
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page) {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row('named.wav').click();
  await new TranscriptPage(page).expectLoaded('named.wav');
}

/** The transcript's document as main shows it (the server's latest revision). */
async function shownNames(): Promise<Record<string, string>> {
  const list = await host.invoke('transcripts:list', {});
  const id = (list as { value: { items: Array<{ id: string; name: string }> } }).value.items.find(
    (t) => t.name === 'named.wav',
  )!.id;
  const detail = (await host.invoke('transcripts:get', { id })) as {
    value: { document: { speaker_names?: Record<string, string> } };
  };
  return detail.value.document.speaker_names ?? {};
}

test('a speaker renamed in the view is a version on the server, undone, redone and kept after a reload', async ({
  page,
}) => {
  await open(page);
  const chips = page.locator('.speaker-chip');
  await expect(chips.first()).toHaveText('Speaker 1');
  await page.getByRole('button', { name: 'Rename Speaker 1' }).first().click();
  const input = page.getByRole('textbox', { name: 'New name for Speaker 1' });
  // The chip's two ways to name a speaker say how they differ.
  await expect(page.getByTestId('speaker-name-routes')).toHaveText(
    'Save names this speaker in this transcript only. “This is…” below also learns the voice, so new transcripts name this person.',
  );
  await screenshot(page, 'speaker-name-routes');
  await input.fill('Aiko Tanaka');
  await input.press('Enter');
  await expect(chips.first()).toHaveText('Aiko Tanaka');
  expect(Object.values(await shownNames())).toEqual(['Aiko Tanaka']);

  await page.getByRole('button', { name: 'History…' }).click();
  const history = page.getByRole('dialog', { name: 'Versions on the server' });
  const versions = history.getByTestId('history-revision');
  await expect(versions).toHaveCount(2);
  await expect(versions.nth(0)).toContainText(/Version 2.*Shown now/);
  // Its tooltip says what it changed in the UI's words, from the server's structured changes.
  await versions
    .nth(0)
    .getByRole('button', { name: /^Version 2/ })
    .hover();
  await expect(versions.nth(0).locator('.history-what')).toHaveAttribute('title', '1 speaker name changed');
  await history.getByRole('button', { name: 'Restore version 1' }).press('Escape');
  await expect(history).toHaveCount(0);

  await page.getByRole('button', { name: /Undo/ }).click();
  await expect(chips.first()).toHaveText('Speaker 1');
  expect(await shownNames()).toEqual({});
  await page.locator('body').press('Control+Shift+Z');
  await expect(chips.first()).toHaveText('Aiko Tanaka');

  await page.reload();
  await open(page);
  await expect(page.locator('.speaker-chip').first()).toHaveText('Aiko Tanaka');
});

test('in Japanese, the naming hint and the History tooltip are Japanese', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'named.wav を開く' }).click();
    await page.getByRole('button', { name: 'Aiko Tanaka の名前を変更' }).first().click();
    await expect(page.getByTestId('speaker-name-routes')).toHaveText(
      '「保存」はこの文字起こしの中だけで名前を付けます。下の「この人は…」は声も覚え、新しい文字起こしでもこの人の名前を表示します。',
    );
    await screenshot(page, 'speaker-name-routes-ja');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: '履歴…' }).click();
    const newest = page.getByRole('dialog', { name: 'サーバー上の版' }).getByTestId('history-revision').first();
    await newest.getByRole('button', { name: /^第\d+版/ }).hover();
    await expect(newest.locator('.history-what')).toHaveAttribute('title', '話者名を 1 件変更');
    await screenshot(page, 'speaker-names-history-ja');
  } finally {
    expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  }
});
