// Each line of History says what its version changed (the tryout saw every edit as just "Edited"): a speaker
// renamed, words edited, a segment split, a dictionary applied; in English and Japanese.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { TranscriptDetail } from '../../src-shared/ipc-contract.js';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

let host: Host;
let dir: string;
test.beforeAll(async () => {
  host = await startHost();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-history-lines-'));
  await uploadCompleted(host, await meetingWav(dir, 'lines.wav'), { numSpeakers: 1 });
  const list = await host.invoke('transcripts:list', {});
  const id = (list.ok ? list.value.items : []).find((t) => t.name === 'lines.wav')!.id;
  const ok = <V>(result: { ok: true; value: V } | { ok: false; error: unknown }): V => {
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    return result.value;
  };
  // What the app's editors send, one version each.
  const detail: TranscriptDetail = ok(await host.invoke('transcripts:get', { id }));
  const first = detail.document!.segments[0]!;
  const words = first.text.split(' ');
  const text = ['alpha', 'beta', 'gamma', ...words.slice(3)].join(' ');
  ok(await host.invoke('transcripts:edit-document', { id, operation: { kind: 'text', segmentId: first.id, text } }));
  ok(await host.invoke('transcripts:rename-speaker', { id, speaker: 'SPEAKER_1', name: 'Alice' }));
  ok(
    await host.invoke('transcripts:edit-document', {
      id,
      operation: { kind: 'split', segmentId: first.id, wordIndex: 2, speaker: 'SPEAKER_2' },
    }),
  );
  const dictionary = ok(await host.invoke('dictionaries:create', { name: 'Team terms', words: [] })) as { id: string };
  ok(
    await host.invoke('dictionaries:add-replacement-rules', {
      id: dictionary.id,
      replacementRules: [{ pattern: 'budget', replacement: 'Q3 budget' }],
    }),
  );
  ok(await host.invoke('transcripts:apply-dictionary', { id, dictionaryId: dictionary.id }));
});
test.afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const LINES = {
  en: {
    open: 'Open lines.wav',
    history: 'History…',
    dialog: 'Versions on the server',
    lines: [
      /Version 5.*Dictionary applied: 1 word replaced/,
      /Version 4.*Split a segment/,
      /Version 3.*Renamed Speaker 1 to Alice/,
      /Version 2.*Edited 3 words/,
      /Version 1.*As recognized/,
    ],
  },
  ja: {
    open: 'lines.wav を開く',
    history: '履歴…',
    dialog: 'サーバー上の版',
    lines: [
      /第5版.*辞書を適用：1 語を置換/,
      /第4版.*区間を分割/,
      /第3版.*話者 1 を「Alice」に名前変更/,
      /第2版.*3 語を編集/,
      /第1版.*認識した結果/,
    ],
  },
} as const;

for (const language of ['en', 'ja'] as const)
  test(`each version in History says what it changed (${language})`, async ({ page }) => {
    expect((await host.invoke('settings:update', { uiLanguage: language })).ok).toBe(true);
    try {
      const library = new LibraryPage(page);
      await library.goto(host.url);
      await page.getByRole('button', { name: LINES[language].open }).click();
      const transcript = new TranscriptPage(page);
      await expect(transcript.words.first()).toBeVisible();
      await expect(transcript.waveform).toHaveAttribute('data-drawn', 'true');
      await page.getByRole('button', { name: LINES[language].history }).click();
      const history = page.getByRole('dialog', { name: LINES[language].dialog });
      const versions = history.getByTestId('history-revision');
      await expect(versions).toHaveCount(5);
      for (const [index, line] of LINES[language].lines.entries())
        await expect(versions.nth(index)).toContainText(line);
      await screenshot(page, `history-lines-${language}`);
    } finally {
      expect((await host.invoke('settings:update', { uiLanguage: 'en' })).ok).toBe(true);
    }
  });
