// Settings → Speech recognition against the real server: a generated whisper model (random weights,
// the real ggml format) is served from a local HTTP server through KIKITORI_MODEL_CATALOG. The library
// offers it once; Settings downloads it with visible progress; the next transcription runs whisper;
// deleting it goes back to the built-in recognizer; a damaged copy put in its place is shown as damaged. The model recognizes nothing, so the transcript
// is checked for the engine that made it, never for words.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { randomWhisperModel } from '../support/ggml-model.js';
import { meetingWav, screenshot, startHost, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';

test.describe.configure({ mode: 'serial' });

const MODEL = 'e2e-tiny';
/** The model's plain name in Settings (issue 27): the catalogue names it, the renderer words it. */
const EN = `Whisper ${MODEL} — 99 languages`;
const JA = `Whisper ${MODEL} — 99 言語`;

/**
 * Serves the model file; the first request sends half of it and holds the rest until `release()`, so
 * the test sees the download under way without depending on how fast anything runs.
 */
async function modelServer(file: string) {
  const bytes = fs.readFileSync(file);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const server = http.createServer((req, res) => {
    if (req.url !== `/ggml-${MODEL}.bin`) return res.writeHead(404).end();
    const from = Number(/^bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
    const body = bytes.subarray(from);
    res.writeHead(from > 0 ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
      ...(from > 0 ? { 'content-range': `bytes ${from}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    if (held) return res.end(body);
    held = true;
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half));
    void gate.then(() => res.end(body.subarray(half)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ggml-${MODEL}.bin`,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    release: () => release(),
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let host: Host;
let models: Awaited<ReturnType<typeof modelServer>>;
let wav: string;
test.beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-models-'));
  models = await modelServer(await randomWhisperModel());
  const catalogue = path.join(dir, 'catalogue.json');
  fs.writeFileSync(
    catalogue,
    JSON.stringify({
      models: [
        {
          name: MODEL,
          file: `ggml-${MODEL}.bin`,
          bytes: models.size,
          sha256: models.sha256,
          multilingual: true,
          speed: 'fastest',
          accuracy: 'basic',
          memory_bytes: models.size * 4,
          url: models.url,
        },
      ],
    }),
  );
  host = await startHost({ serverEnv: { KIKITORI_MODEL_CATALOG: catalogue }, keyRoles: ['DELETE', 'OPERATOR'] });
  wav = await meetingWav(dir);
});
test.afterAll(async () => {
  await host?.close();
  await models?.close();
});

async function openSpeechSettings(page: Page, tab: string) {
  await page.getByRole('navigation').getByRole('button', { name: tab }).click();
  const section = page.getByTestId('speech-section');
  await expect(section.getByTestId('speech-headline')).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  return section;
}

test('the library offers a model once; Settings downloads it with progress; the next transcription runs whisper', async ({
  page,
}) => {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  const offer = page.getByRole('region', { name: 'Get punctuated transcripts in about 99 languages' });
  await expect(offer).toContainText(`Download Whisper ${MODEL}`);
  await screenshot(page, 'speech-offer');

  const section = await openSpeechSettings(page, 'Settings');
  await expect(section.getByTestId('speech-headline')).toHaveText('Built-in English recognizer');
  // Issue 27: what transcribes in plain words, no engine name.
  await expect(section.getByTestId('speech-using')).toHaveCount(0);
  await expect(section).not.toContainText('pocketsphinx');
  const row = section.getByTestId('speech-model').and(page.locator(`[data-model="${MODEL}"]`));
  const group = section.getByTestId('speech-group').filter({ has: page.locator(`[data-model="${MODEL}"]`) });
  await expect(group).toContainText(`Whisper ${MODEL} — 99 languagesSpeed: fastest · Accuracy: basic`);
  await expect(row).toContainText('Full size');
  await expect(row).toContainText('Recommended for this computer');
  await screenshot(page, 'settings-speech');

  await row.getByRole('button', { name: `Download ${EN}` }).click();
  const progress = row.getByTestId('speech-progress');
  await expect(progress).toBeVisible();
  await expect(row.getByTestId('speech-progress-text')).toHaveText(/^\d+% · [\d.]+ MB of [\d.]+ MB$/);
  await expect(row.getByRole('progressbar', { name: `Download of ${EN}` })).toHaveAttribute('max', String(models.size));
  await expect(row.getByRole('button', { name: `Cancel the download of ${EN}` })).toBeVisible();
  await progress.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-speech-downloading');

  models.release();
  await expect(section.getByTestId('speech-installed')).toContainText(`Whisper ${MODEL}`);
  await expect(section.getByTestId('speech-headline')).toHaveText(`Whisper ${MODEL} — 99 languages`);
  await expect(section.getByTestId('speech-using')).toHaveCount(0);
  await expect(progress).toHaveCount(0);
  await screenshot(page, 'settings-speech-installed');

  // The offer has served its purpose.
  await library.openTab('Library');
  await expect(library.dropZone).toBeVisible();
  await expect(page.getByTestId('speech-offer')).toHaveCount(0);

  await library.dropFile(wav);
  const transcription = library.row('team-meeting.wav');
  await expect(transcription).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  const list = await host.invoke('transcripts:list', {});
  const id = list.ok ? list.value.items.find((item) => item.name === 'team-meeting.wav')?.id : undefined;
  expect(id).toBeTruthy();
  const detail = await host.invoke('transcripts:get', { id: id! });
  expect(detail.ok && detail.value.document?.engine).toMatchObject({
    name: 'whisper',
    model: expect.stringContaining(MODEL),
  });
});

test('in Japanese: the section, and deleting the model after a confirmation', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  const section = await openSpeechSettings(page, '設定');
  await expect(section.getByRole('heading', { name: '音声認識' })).toBeVisible();
  await expect(section.getByTestId('speech-headline')).toHaveText(`Whisper ${MODEL} — 99 言語`);
  await expect(section.getByTestId('speech-using')).toHaveCount(0);
  await screenshot(page, 'settings-speech-ja');

  await section.getByRole('button', { name: `${JA} を削除` }).click();
  const confirm = section.getByRole('group', { name: `${JA} を削除` });
  await expect(confirm).toContainText(`${JA} をサーバーから削除しますか？`);
  await screenshot(page, 'settings-speech-delete-ja');
  await confirm.getByRole('button', { name: '削除', exact: true }).click();
  await expect(section.getByTestId('speech-headline')).toHaveText('内蔵の英語音声認識');
  await expect(section.getByText('まだモデルはインストールされていません。')).toBeVisible();
  const listed = await host.invoke('models:list');
  expect(listed.ok && listed.value.models.find((m) => m.name === MODEL)?.installed).toBe(false);
});

test('installs a model from a file: a wrong file is refused in Japanese, the right one installs', async ({ page }) => {
  const dir = path.dirname(wav);
  const wrong = path.join(dir, 'not-the-model.bin');
  fs.writeFileSync(wrong, Buffer.alloc(4096, 'not a model '));
  const right = path.join(dir, 'copied-from-usb.bin');
  fs.copyFileSync(await randomWhisperModel(), right);

  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  let section = await openSpeechSettings(page, '設定');
  const row = section.getByTestId('speech-model').and(page.locator(`[data-model="${MODEL}"]`));
  host.dialogs.modelFilePath = wrong;
  await row.getByRole('button', { name: `${JA} をファイルからインストール` }).click();
  await expect(row.getByTestId('speech-failure')).toHaveText(
    `このファイルは音声モデル ${JA} ではないか、壊れているため、インストールしませんでした。ファイル ggml-${MODEL}.bin を選んでください。`,
  );
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-speech-install-wrong-ja');

  // Cancelling the dialog changes nothing.
  host.dialogs.modelFilePath = null;
  expect(await host.invoke('models:install-file', { name: MODEL })).toMatchObject({ ok: true });

  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  await library.goto(host.url);
  section = await openSpeechSettings(page, 'Settings');
  await expect(row.getByRole('button', { name: `Install ${EN} from a file` })).toHaveText('Install from file…');
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-speech-install-file');
  host.dialogs.modelFilePath = right;
  await row.getByRole('button', { name: `Install ${EN} from a file` }).click();
  await expect(section.getByTestId('speech-installed')).toContainText(`Whisper ${MODEL}`);
  await expect(section.getByTestId('speech-headline')).toHaveText(`Whisper ${MODEL} — 99 languages`);
  await expect(section.getByTestId('speech-failure')).toHaveCount(0);
  await screenshot(page, 'settings-speech-installed-from-file');
  const serverModels = path.join(path.dirname(host.userDataDir), 'server-data', 'models');
  expect(fs.readFileSync(path.join(serverModels, `ggml-${MODEL}.bin`)).equals(fs.readFileSync(right))).toBe(true);
  expect(await host.invoke('models:delete', { name: MODEL })).toMatchObject({ ok: true });
});

test('a damaged model says so, in Japanese and English, and transcriptions use the built-in recognizer', async ({
  page,
}) => {
  // What a hand copy or a failing disk leaves: the catalogue's size, but not a model whisper.cpp can load.
  const serverModels = path.join(path.dirname(host.userDataDir), 'server-data', 'models');
  fs.mkdirSync(serverModels, { recursive: true });
  fs.writeFileSync(path.join(serverModels, `ggml-${MODEL}.bin`), Buffer.alloc(models.size, 'damaged '));

  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  let section = await openSpeechSettings(page, '設定');
  const row = section.getByTestId('speech-model').and(page.locator(`[data-model="${MODEL}"]`));
  await expect(row).toHaveAttribute('data-damaged', 'true');
  await expect(section.getByTestId('speech-installed')).toContainText(`Whisper ${MODEL}`);
  await expect(row.getByTestId('speech-damaged')).toHaveText(
    /^破損しています: .*削除してから、もう一度ダウンロードしてください。$/,
  );
  await expect(section.getByTestId('speech-headline')).toHaveText('内蔵の英語音声認識');
  await expect(row.getByRole('button', { name: `${JA} を削除` })).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-speech-damaged-ja');

  expect(await host.invoke('settings:update', { uiLanguage: 'en' })).toMatchObject({ ok: true });
  await library.goto(host.url);
  section = await openSpeechSettings(page, 'Settings');
  await expect(row).toHaveAttribute('data-damaged', 'true');
  await expect(row.getByTestId('speech-damaged')).toHaveText(
    'Damaged: the server cannot load this model, so transcriptions do not use it. Delete it and download it again.',
  );
  await expect(row).toContainText('Damaged');
  await expect(section.getByTestId('speech-headline')).toHaveText('Built-in English recognizer');
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, 'settings-speech-damaged');

  const listed = await host.invoke('models:list');
  expect(listed.ok && listed.value.models.find((m) => m.name === MODEL)).toMatchObject({
    installed: true,
    damaged: true,
  });

  // The damaged model stops nothing: the next transcription completes with the built-in recognizer.
  const audio = await meetingWav(path.dirname(wav), 'after-damage.wav');
  await library.openTab('Library');
  await library.dropFile(audio);
  await expect(library.row('after-damage.wav')).toHaveAttribute('data-status', 'COMPLETED', { timeout: 180_000 });
  const items = await host.invoke('transcripts:list', {});
  const id = items.ok ? items.value.items.find((item) => item.name === 'after-damage.wav')?.id : undefined;
  expect(id).toBeTruthy();
  const detail = await host.invoke('transcripts:get', { id: id! });
  expect(detail.ok && detail.value.document?.engine).toMatchObject({ name: 'pocketsphinx' });
});
