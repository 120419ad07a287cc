// "Transcribe again…" on a finished transcription (issue 27 item 2, decision 0062): the server runs it again
// in place from its stored audio. The same row stays, the new recognition replaces an edit in the shown
// transcript, and History keeps the edit as an earlier version beside "Transcribed again". In Japanese too.
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
const NAME = 'weekly-sync.wav';

test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-transcribe-again-'));
  await uploadCompleted(host, await meetingWav(dir, NAME));
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page) {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await library.row(NAME).click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded(NAME);
  return { library, transcript };
}

const serverRevisions = async () => {
  const list = await host.invoke('transcripts:list', {});
  const id = list.ok ? list.value.items.find((item) => item.name === NAME)?.id : undefined;
  const revisions = await host.invoke('transcripts:revisions', { id: id! });
  return revisions.ok ? revisions.value : null;
};

test('a finished transcription is transcribed again in place: same row, the edit kept in History', async ({ page }) => {
  const { library, transcript } = await open(page);
  await transcript.words.nth(1).dblclick();
  const editor = page.getByRole('textbox', { name: /^Edit the word/ });
  await editor.fill('Zentrova');
  await editor.press('Enter');
  await expect(transcript.word('Zentrova')).toBeVisible();

  await page.getByTestId('transcribe-again').click();
  const dialog = page.getByRole('dialog', { name: `Transcribe “${NAME}” again` });
  await expect(dialog.getByTestId('rerun-model')).toHaveValue('default');
  await dialog.getByTestId('rerun-model').selectOption('diarization-high');
  await screenshot(page, 'transcribe-again-dialog');
  await dialog.getByTestId('rerun-submit').click();
  await expect(dialog).toBeHidden();
  // While it runs, the recording's waveform stays drawn (the audio is the same; only the transcript changes).
  await expect(page.getByTestId('running-strip')).toBeVisible();
  await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
  await screenshot(page, 'transcribe-again-running');
  expect((await transcript.waveform.boundingBox())!.height).toBeGreaterThan(20);

  // The new recognition replaces the edited text; the view follows it without a reload.
  await expect(transcript.word('Zentrova')).toHaveCount(0, { timeout: 120_000 });
  await expect(transcript.words.first()).toBeVisible();
  await page.getByRole('button', { name: 'History…' }).click();
  const history = page.getByRole('dialog', { name: 'Versions on the server' });
  const versions = history.getByTestId('history-revision');
  await expect(versions).toHaveCount(3);
  await expect(versions.nth(0)).toContainText(/Version 3.*Shown now.*Transcribed again/);
  await expect(versions.nth(1)).toContainText(/Version 2.*Edited/);
  await screenshot(page, 'transcribe-again-history');

  const revisions = await serverRevisions();
  expect(revisions?.revisions.map((r) => r.source)).toEqual(['recognized', 'edit', 'transcribed-again']);
  await library.goto(host.url);
  await expect(library.rows).toHaveCount(1);
  await expect(library.row(NAME)).toHaveAttribute('data-status', 'COMPLETED');
});

test('in Japanese: the dialog for a finished transcription, and History after it', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: `${NAME} を開く` }).click();
  await expect(page.getByTestId('transcript-title')).toHaveText(NAME);
  await page.getByTestId('transcribe-again').click();
  const dialog = page.getByRole('dialog', { name: `「${NAME}」をもう一度文字起こし` });
  await expect(dialog.getByTestId('rerun-model')).toHaveValue('diarization-high');
  await expect(dialog.getByTestId('rerun-submit')).toBeEnabled();
  await screenshot(page, 'transcribe-again-dialog-ja');
  await dialog.getByRole('button', { name: 'キャンセル' }).click();
  await expect(dialog).toBeHidden();
  expect((await serverRevisions())?.revisions).toHaveLength(3);
  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
});
