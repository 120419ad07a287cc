// What a new user met dropping files (tryout 4): a bad file dropped with good ones threw the good ones
// away, and a refusal vanished at the next good drop before it was read. Screenshots in English and
// Japanese for people to look at; also a recording with no speech in it, and the queue's stage names.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { UiLanguage } from '../../src-shared/ipc-contract.js';
import { synthesizeSpeech } from '../support/audio-fixtures.js';
import { screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
let speech: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-drop-'));
  speech = await synthesizeSpeech('the parcel arrives on tuesday');
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of the spoken WAV under `name`. */
function goodFile(name: string): string {
  const file = path.join(dir, name);
  fs.copyFileSync(speech, file);
  return file;
}

/** A text file renamed to look like a recording. */
function textFile(name: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'Meeting notes\nBring the minutes from last week.\n'.repeat(20));
  return file;
}

for (const language of ['en', 'ja'] as const satisfies UiLanguage[])
  test(`a bad file dropped with a good one refuses only itself, and its refusal stays until dismissed (${language})`, async ({
    page,
  }) => {
    expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
    try {
      const library = new LibraryPage(page);
      await library.goto(host.url);
      await library.dropFiles([textFile(`notes-${language}.wav`), goodFile(`interview-${language}.wav`)]);
      await expect(library.upload(`interview-${language}.wav`)).toBeVisible();
      const refusals = page.getByTestId('drop-refusals').getByRole('listitem');
      await expect(refusals).toHaveCount(1);
      await expect(refusals).toContainText(`notes-${language}.wav`);

      // A later good drop adds its file and leaves the refusal for the user to read.
      await library.dropFiles([goodFile(`follow-up-${language}.wav`)]);
      await expect(library.upload(`follow-up-${language}.wav`)).toBeVisible();
      await expect(refusals).toHaveCount(1);
      await expect(refusals).toContainText(`notes-${language}.wav`);
      await screenshot(page, `drop-mixed-refusal-${language}`);

      await refusals.getByRole('button').click();
      await expect(refusals).toHaveCount(0);
    } finally {
      expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
    }
  });

const OPEN = { en: 'Open it', ja: '開く' } as const;

for (const language of ['en', 'ja'] as const satisfies UiLanguage[])
  test(`a file dropped again is not transcribed twice: the user is told it is in the library and can open it (${language})`, async ({
    page,
  }) => {
    expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
    try {
      const library = new LibraryPage(page);
      await library.goto(host.url);
      const file = goodFile(`standup-${language}.wav`);
      await library.dropFiles([file]);
      await expect(library.upload(`standup-${language}.wav`)).toHaveAttribute('data-state', 'done', {
        timeout: 120_000,
      });
      await library.dropFiles([file]);
      const duplicates = page.getByTestId('drop-duplicates').getByRole('listitem');
      await expect(duplicates).toHaveCount(1);
      await expect(duplicates).toContainText(`standup-${language}.wav`);
      await expect(library.upload(`standup-${language}.wav`)).toHaveCount(1);
      await screenshot(page, `drop-duplicate-${language}`);

      await duplicates.getByRole('button', { name: OPEN[language] }).click();
      await expect(new TranscriptPage(page).title).toHaveText(`standup-${language}.wav`);
    } finally {
      expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
    }
  });

for (const language of ['en', 'ja'] as const satisfies UiLanguage[])
  test(`a 0.2 s tone opens on a clear "no speech" note, not an empty transcript (${language})`, async ({ page }) => {
    const blip = path.join(dir, `blip-${language}.wav`);
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=880:duration=0.2',
      '-ar',
      '16000',
      blip,
    ]);
    await uploadCompleted(host, blip);
    expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
    try {
      const library = new LibraryPage(page);
      await library.goto(host.url);
      await page.getByRole('button', { name: new RegExp(`blip-${language}\\.wav`) }).click();
      await expect(page.getByTestId('no-speech')).toBeVisible();
      await expect(page.getByTestId('transcript-pane')).toHaveCount(0);
      await expect(page.getByTestId('timeline')).toHaveCount(0);
      await screenshot(page, `no-speech-${language}`);
    } finally {
      expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
    }
  });
