// Server failures in the interface's language (issue 27, item 6; decision 0068): a failed transcription's
// reason, a translation's error and a model download's failure are worded from the server's closed codes,
// in Japanese in the Japanese interface, with the server's own English under "Details". Real failures:
// a remote speech service that refuses every recording, a language-model endpoint that refuses the
// server's key, and a model host nobody listens on.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_UPLOAD, meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

const MODEL = 'e2e-unreachable';

/** What each interface says (the catalogue's words, src-renderer/i18n/error-messages.ts), as a user reads them. */
const WORDS = {
  ja: {
    badInput:
      '録音を処理できません。壊れている、空、無音、または長すぎる可能性があります。ファイルを確認して、もう一度追加してください。',
    unavailable:
      'サーバーは今、これに必要な処理を実行できません。サーバーの管理者に確認を依頼してから、もう一度お試しください。',
    unreachable:
      'モデルをダウンロードできませんでした。サーバーからモデルの配布元に接続できません。サーバーのネットワーク接続を確認するか、管理者にミラーの設定を依頼してください。',
    details: '詳細',
    /** The tooltip's "Details" line: Japanese takes a full-width colon and no space. */
    detailsLine: '詳細：',
    translation: '翻訳',
    targetLanguage: '翻訳先の言語',
    settings: '設定',
    download: `Whisper ${MODEL} — 99 言語 をダウンロード`,
  },
  en: {
    badInput:
      'The recording cannot be processed: it may be damaged, empty, silent or too long. Check the file, then add it again.',
    unavailable:
      'The server cannot run what this needs right now. Ask the server’s administrator to check it, then try again.',
    unreachable:
      'The model could not be downloaded: the server cannot reach the model host. Check its network connection, or ask its administrator to set a mirror.',
    details: 'Details',
    detailsLine: 'Details: ',
    translation: 'Translation',
    targetLanguage: 'Target language',
    settings: 'Settings',
    download: `Download Whisper ${MODEL} — 99 languages`,
  },
};

let host: Host;
let refusing: http.Server;
let llm: http.Server;
let dir: string;

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-messages-'));
  refusing = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"Invalid file format."}}'),
    );
  });
  llm = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error"}}'),
    );
  });
  const catalogue = path.join(dir, 'catalogue.json');
  fs.writeFileSync(
    catalogue,
    JSON.stringify({
      models: [
        {
          name: MODEL,
          file: `ggml-${MODEL}.bin`,
          bytes: 1024,
          sha256: '0'.repeat(64),
          multilingual: true,
          speed: 'fastest',
          accuracy: 'basic',
          memory_bytes: 4096,
          url: `http://127.0.0.1:${await closedPort()}/ggml-${MODEL}.bin`,
        },
      ],
    }),
  );
  host = await startHost({
    serverEnv: {
      KIKITORI_ENGINE_DEFAULT: 'pocketsphinx',
      KIKITORI_ENGINE_DIARIZATION_HIGH: 'remote',
      KIKITORI_REMOTE_ASR_BASE_URL: `${await listen(refusing)}/v1`,
      KIKITORI_REMOTE_ASR_API_KEY: 'sk-test',
      KIKITORI_LLM_BASE_URL: `${await listen(llm)}/v1`,
      KIKITORI_LLM_MODEL: 'test-model',
      KIKITORI_LLM_API_KEY: 'sk-test',
      KIKITORI_SUMMARY_ENGINE: 'local',
      KIKITORI_EMOTION_ENGINE: 'local',
      KIKITORI_MODEL_CATALOG: catalogue,
    },
    keyRoles: ['DELETE', 'OPERATOR'],
  });
  await uploadCompleted(host, await meetingWav(dir, 'weekly-sync.wav'));
  const added = await host.invoke('uploads:add', {
    files: await host.offer(await meetingWav(dir, 'refused-call.wav')),
    options: { ...DEFAULT_UPLOAD, model: 'diarization-high' },
  });
  if (!added.ok) throw new Error(JSON.stringify(added.error));
  await expect
    .poll(
      async () => {
        const list = await host.invoke('transcripts:list', {});
        return list.ok ? list.value.items.find((t) => t.name === 'refused-call.wav')?.status : undefined;
      },
      { timeout: 120_000, intervals: [250] },
    )
    .toBe('FAILED');
});
test.afterAll(async () => {
  await host?.close();
  await new Promise((resolve) => refusing?.close(resolve));
  await new Promise((resolve) => llm?.close(resolve));
});

async function inLanguage(page: Page, language: 'en' | 'ja') {
  expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
  const library = new LibraryPage(page);
  await library.goto(host.url);
  return library;
}

for (const language of ['ja', 'en'] as const) {
  const words = WORDS[language];
  test(`${language}: a failed row says why from the server's failure code, the server's words under Details`, async ({
    page,
  }) => {
    await inLanguage(page, language);
    const failed = page.locator('.row-failed');
    const reason = failed.getByTestId('failure-reason');
    await expect(reason).toHaveText(words.badInput);
    await expect(reason).toHaveAttribute(
      'title',
      new RegExp(`${words.detailsLine}The remote speech service refused this audio or request`),
    );
    await screenshot(page, `messages-failed-row-${language}`);

    // Opened, it says the same, with the server's words folded under Details.
    await failed.getByTestId('transcription-row').click();
    const view = page.getByRole('status').filter({ hasText: words.badInput });
    await expect(view).toBeVisible();
    const details = view.getByTestId('error-details');
    await expect(details.locator('.error-detail-text')).toBeHidden();
    await details.getByText(words.details, { exact: true }).click();
    await expect(details.locator('.error-detail-text')).toHaveText(
      /^The remote speech service refused this audio or request \(HTTP 400\)/,
    );
    await screenshot(page, `messages-failed-view-${language}`);
  });

  test(`${language}: a translation the language-model service refuses says why in the UI language`, async ({
    page,
  }) => {
    await inLanguage(page, language);
    await page.getByTestId('transcription-row').filter({ hasText: 'weekly-sync.wav' }).click();
    const transcript = new TranscriptPage(page);
    await transcript.expectLoaded('weekly-sync.wav');
    await page.getByRole('tab', { name: words.translation }).click();
    await page.getByLabel(words.targetLanguage).selectOption('fr');
    await page.getByTestId('analysis-request-translation').click();
    await expect(page.getByTestId('analysis-status-translation')).toHaveAttribute('data-status', 'FAILED', {
      timeout: 120_000,
    });
    const failure = page.getByTestId('analysis-failure-translation');
    await expect(failure).toContainText(words.unavailable);
    await failure.getByText(words.details, { exact: true }).click();
    await expect(failure.locator('.error-detail-text')).toHaveText(/refused this server's credentials/);
    await screenshot(page, `messages-translation-failed-${language}`);
  });

  test(`${language}: a model download that cannot reach the model host says so in the UI language`, async ({
    page,
  }) => {
    await inLanguage(page, language);
    await page.getByRole('navigation').getByRole('button', { name: words.settings }).click();
    const section = page.getByTestId('speech-section');
    const row = section.getByTestId('speech-model').and(page.locator(`[data-model="${MODEL}"]`));
    await row.scrollIntoViewIfNeeded();
    await row.getByRole('button', { name: words.download }).click();
    const failed = row.getByTestId('speech-download-failed');
    await expect(failed).toContainText(words.unreachable, { timeout: 60_000 });
    await failed.getByText(words.details, { exact: true }).click();
    await expect(failed.locator('.error-detail-text')).toHaveText(/^Could not reach the model server/);
    await screenshot(page, `messages-download-failed-${language}`);
  });
}
