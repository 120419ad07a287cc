// The team voice library in the app (issue 25 item 3, decision 0075), with two real generated voices:
// "This is…" on a speaker's chip enrols the voice and names the speaker; Settings → Voices lists it,
// renames it and deletes it after a prompt about the voice prints. In English and Japanese, with screenshots.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { twoVoiceMeeting } from '../support/two-voice-meeting.js';
import { screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-voices-'));
  const wav = path.join(dir, 'weekly.wav');
  fs.copyFileSync((await twoVoiceMeeting()).wav, wav);
  // The form's defaults: speakers separated automatically.
  await uploadCompleted(host, wav);
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const chips = (page: Page) => page.locator('.speaker-chip');

async function open(page: Page, rowName: string) {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: rowName }).click();
  await new TranscriptPage(page).expectLoaded('weekly.wav');
}

async function voiceNames(): Promise<string[]> {
  const list = (await host.invoke('voices:list')) as { value: { voices: Array<{ name: string }> } };
  return list.value.voices.map((v) => v.name);
}

test('"This is…" enrols a voice, then Settings → Voices lists, renames and deletes it (English)', async ({ page }) => {
  await open(page, 'Open weekly.wav');
  await expect(chips(page).first()).toHaveText('Speaker 1');
  await expect(chips(page).filter({ hasText: 'Speaker 2' }).first()).toBeVisible();

  await chips(page).first().click();
  const who = page.getByRole('combobox', { name: 'Who is Speaker 1? A voice of your team or a new name' });
  await expect(who).toBeVisible();
  await who.fill('Alice');
  await screenshot(page, 'voices-this-is-en');
  await page.getByRole('button', { name: 'Learn voice' }).click();
  // weekly.wav holds a few seconds of this voice: the app says that is little, and what to do.
  await expect(page.getByTestId('this-is-form').getByRole('status')).toContainText(
    /^Learned from \d+ s of speech\. Kikitori recognizes a voice better with 20 s or more: use “This is…” on this person in other transcripts\./,
  );
  await screenshot(page, 'voices-little-speech-en');
  await page.getByTestId('this-is-form').getByRole('button', { name: 'Close' }).click();
  await expect(chips(page).first()).toHaveText('Alice');
  await expect(chips(page).filter({ hasText: 'Speaker 2' }).first()).toBeVisible();
  expect(await voiceNames()).toEqual(['Alice']);
  await screenshot(page, 'voices-named-en');

  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  const section = page.getByTestId('voices-section');
  await expect(section.getByRole('heading', { name: 'Voices' })).toBeVisible();
  await expect(section.getByTestId('voice')).toHaveCount(1);
  await expect(section.getByTestId('voice')).toContainText('Alice');
  await expect(section.getByTestId('voice')).toContainText(/\d+ samples? · \d+ s of speech · added /);
  await expect(section.getByTestId('voice')).toContainText(/Learned from \d+ s of speech\. Kikitori recognizes/);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'voices-settings-en');

  await section.getByRole('button', { name: 'Rename the voice Alice' }).click();
  await section.getByRole('textbox', { name: 'New name for the voice Alice' }).fill('Alice Smith');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByTestId('voice')).toContainText('Alice Smith');
  expect(await voiceNames()).toEqual(['Alice Smith']);

  // Where the voice was learned from: parts of weekly.wav, each one a way back to hear it.
  await section.getByRole('button', { name: 'Where the voice Alice Smith was learned from' }).click();
  const parts = section.getByTestId('voice-sample');
  await expect(parts.first()).toContainText(/^weekly\.wav · \d+:\d\d–\d+:\d\d\d+ s of speech · added /);
  await screenshot(page, 'voices-samples-en');
  await parts
    .first()
    .getByRole('button', { name: /^Open weekly\.wav at \d+:\d\d to listen$/ })
    .click();
  await new TranscriptPage(page).expectLoaded('weekly.wav');

  // A new recording of the same people: the server recognizes the voice, and the app shows its name unasked.
  const again = path.join(dir, 'weekly-again.wav');
  fs.copyFileSync(path.join(dir, 'weekly.wav'), again);
  await uploadCompleted(host, again);
  await new LibraryPage(page).goto(host.url);
  await page.getByRole('button', { name: 'Open weekly-again.wav' }).click();
  await new TranscriptPage(page).expectLoaded('weekly-again.wav');
  await expect(chips(page).filter({ hasText: 'Alice Smith' }).first()).toBeVisible();
  await expect(chips(page).filter({ hasText: 'Speaker 2' }).first()).toBeVisible();
  await screenshot(page, 'voices-recognized-en');
  await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
  await section.scrollIntoViewIfNeeded();

  let prompt = '';
  page.once('dialog', (dialog) => {
    prompt = dialog.message();
    void dialog.accept();
  });
  await section.getByRole('button', { name: 'Delete the voice Alice Smith' }).click();
  await expect(section.getByTestId('voice')).toHaveCount(0);
  expect(prompt).toContain('voice prints are removed from the server');
  expect(await voiceNames()).toEqual([]);
});

test('the same in Japanese', async ({ page }) => {
  expect((await host.invoke('settings:update', { uiLanguage: 'ja' })).ok).toBe(true);
  await open(page, 'weekly.wav を開く');
  // This time from the speaker's lane in the timeline.
  await page.getByRole('button', { name: '話者 2：この人は…' }).click();
  const who = page.getByRole('combobox', { name: '話者 2 は誰ですか？ チームの声か新しい名前' });
  await who.fill('ボブ');
  await screenshot(page, 'voices-this-is-ja');
  await page.getByRole('button', { name: '声を覚える' }).click();
  await expect(page.getByTestId('this-is-form').getByRole('status')).toContainText(
    /^\d+ 秒の発話から覚えました。声は 20 秒以上/,
  );
  await screenshot(page, 'voices-little-speech-ja');
  await page.getByTestId('this-is-form').getByRole('button', { name: '閉じる' }).click();
  await expect(chips(page).filter({ hasText: 'ボブ' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'ボブ：この人は…' })).toBeVisible();
  expect(await voiceNames()).toEqual(['ボブ']);

  await page.getByRole('navigation').getByRole('button', { name: '設定' }).click();
  const section = page.getByTestId('voices-section');
  await expect(section.getByRole('heading', { name: '登録した声' })).toBeVisible();
  await expect(section.getByTestId('voice')).toContainText('ボブ');
  await expect(section.getByTestId('voice')).toContainText(/サンプル \d+ 件・発話 \d+ 秒・/);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'voices-settings-ja');

  await section.getByRole('button', { name: '声「ボブ」の名前を変更' }).click();
  await section.getByRole('textbox', { name: '声「ボブ」の新しい名前' }).fill('ボブ・田中');
  await section.getByRole('button', { name: '保存' }).click();
  await expect(section.getByTestId('voice')).toContainText('ボブ・田中');
  await section.getByRole('button', { name: '声「ボブ・田中」を覚えた音声' }).click();
  await expect(section.getByTestId('voice-sample').first()).toContainText(
    /^weekly\.wav・\d+:\d\d〜\d+:\d\d発話 \d+ 秒・/,
  );
  await expect(section.getByTestId('voice-sample').first().getByRole('button', { name: '聞く' })).toBeVisible();
  await screenshot(page, 'voices-samples-ja');

  let prompt = '';
  page.once('dialog', (dialog) => {
    prompt = dialog.message();
    void dialog.accept();
  });
  await section.getByRole('button', { name: '声「ボブ・田中」を削除' }).click();
  await expect(section.getByTestId('voice')).toHaveCount(0);
  expect(prompt).toContain('声紋がサーバーから削除され');
  expect(await voiceNames()).toEqual([]);
});
