// Leftovers of a new user's tryout in the library: a transcription uploaded with no language chosen says
// so in its row while it runs (it showed a bare dash), in English and Japanese. Recognition is scripted
// (test/support/scripted-speech-engine.ts) so the row is looked at while it is surely still running.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { ScriptedSpeechEngine, scriptedEngineRegistry } from '../support/scripted-speech-engine.js';
import { DEFAULT_UPLOAD, screenshot, startHost, type Host } from './e2e-support.js';
import { inProcessServer } from './host/in-process-server.js';
import { LibraryPage } from './pages/library-page.js';

const NAME = 'no-language.wav';
/** A recognizer that detects the language (as Whisper does): an upload may leave it unchosen. */
class DetectingEngine extends ScriptedSpeechEngine {
  readonly detectsLanguage = true;
}
const engine = new DetectingEngine();
let host: Host;

test.beforeAll(async () => {
  host = await startHost({ server: inProcessServer({ engines: scriptedEngineRegistry(engine) }) });
  const wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-tryout-')), NAME);
  fs.copyFileSync(await concatWithSilence([await synthesizeSpeech('the budget meeting moved to next week')], 1), wav);
  const added = await host.invoke('uploads:add', {
    files: await host.offer(wav),
    options: { ...DEFAULT_UPLOAD, language: null },
  });
  expect(added.ok).toBe(true);
  await engine.nextRun();
});
test.afterAll(async () => host?.close());

test('a row uploaded with no language chosen says so while it runs, in English and Japanese', async ({ page }) => {
  const library = new LibraryPage(page);
  for (const [language, open, words] of [
    ['en', `Open ${NAME}`, 'Not chosen'],
    ['ja', `${NAME} を開く`, '未選択'],
  ] as const) {
    expect(await host.invoke('settings:update', { uiLanguage: language })).toMatchObject({ ok: true });
    await library.goto(host.url);
    const row = page.getByRole('button', { name: open });
    await expect(row).toHaveAttribute('data-status', /IN_PROGRESS|CONVERTING|QUEUED/);
    await expect(row.locator('.cell-language')).toHaveText(words);
    await screenshot(page, `library-row-no-language-${language}`);
  }
});
