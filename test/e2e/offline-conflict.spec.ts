// An offline edit meets a teammate's edit of the same segment (issue 24): the app loses the server (a
// relay cut between them), the user corrects a word in two segments, a teammate changes the first one on
// the server meanwhile; back online, the edit of the other segment goes through and the first is shown
// side by side, this computer's version and the teammate's with their name, until the user settles it
// with a merged text (then, in Japanese, by keeping the server's). Screenshots for people to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { audioDuration, concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { ScriptedSpeechEngine, scriptedEngineRegistry } from '../support/scripted-speech-engine.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DEFAULT_UPLOAD, screenshot, startHost, type Host } from './e2e-support.js';
import { networkPartition, type NetworkPartition } from './host/network-partition.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

const FIRST = 'please send the report to the marketing team by friday';
const SECOND = 'the budget meeting moved to next week';

const engine = new ScriptedSpeechEngine();
let server: TestServer;
let relay: NetworkPartition;
let host: Host;
let teammate: string;
let id: string;
let dir: string;

test.beforeAll(async () => {
  server = await startTestServer({
    runtime: { engines: scriptedEngineRegistry(engine) },
    storage: 'files',
    logLevel: 'warn',
  });
  relay = await networkPartition(server.url);
  const apiKey = await server.key('e2e', 'tester', ['DELETE']);
  teammate = (
    await server.runtime.ctx.keys.create({ teamId: 'e2e', userId: 'aiko', userName: 'Aiko Tanaka', roles: [] })
  ).key;
  host = await startHost({ server: async () => ({ url: relay.url, apiKey, stop: async () => relay.close() }) });

  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-conflict-'));
  const first = await synthesizeSpeech(FIRST);
  const second = await synthesizeSpeech(SECOND);
  const wav = path.join(dir, 'planning.wav');
  fs.copyFileSync(await concatWithSilence([first, second], 1), wav);
  const firstEnd = await audioDuration(first);
  const added = await host.invoke('uploads:add', { files: await host.offer(wav), options: DEFAULT_UPLOAD });
  if (!added.ok) throw new Error(JSON.stringify(added.error));
  (await engine.nextRun()).finish([
    { text: FIRST, start: 0, end: firstEnd },
    { text: SECOND, start: firstEnd + 1, end: firstEnd + 1 + (await audioDuration(second)) },
  ]);
  await expect
    .poll(
      async () => {
        const list = await host.invoke('transcripts:list', {});
        const item = list.ok ? list.value.items.find((t) => t.name === 'planning.wav') : undefined;
        id = item?.id ?? '';
        return item?.status;
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe('COMPLETED');
});
test.afterAll(async () => {
  await host?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page, label = 'Open planning.wav') {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: label }).click();
  const transcript = new TranscriptPage(page);
  await expect(transcript.words.first()).toBeVisible();
  return transcript;
}

/** The server's latest revision, as the teammate reads it. */
async function latest(): Promise<{ revision: number; document: TranscriptDocument }> {
  const list = (await server.api(teammate, 'GET', `/api/v1/transcriptions/${id}/revisions`)).json as {
    latest_revision: number;
  };
  const read = await server.api(teammate, 'GET', `/api/v1/transcriptions/${id}/revisions/${list.latest_revision}`);
  return { revision: list.latest_revision, document: (read.json as { document: TranscriptDocument }).document };
}

/** The teammate sets a word of the first segment, on the server itself. */
async function teammateSetsWord(wordIndex: number, text: string) {
  const { revision, document } = await latest();
  const answer = await server.api(teammate, 'POST', `/api/v1/transcriptions/${id}/revisions`, {
    base_revision: revision,
    operations: [{ kind: 'word', segmentId: document.segments[0]!.id, wordIndex, text }],
  });
  expect(answer.status).toBe(200);
}

async function editWord(page: Page, word: string, text: string, label: RegExp) {
  await new TranscriptPage(page).word(word).dblclick();
  const editor = page.getByRole('textbox', { name: label });
  await editor.fill(text);
  await editor.press('Enter');
}

test('an offline edit meets a teammate’s edit of the same segment; the conflict view settles it with a merged text', async ({
  page,
}) => {
  const transcript = await open(page);
  await relay.cut();
  await editWord(page, 'send', 'Kikitori', /^Edit the word/);
  await expect(transcript.word('Kikitori')).toBeVisible();
  await expect(page.getByTestId('connection-indicator')).toContainText('Offline');
  await editWord(page, 'week', 'Monday', /^Edit the word/);
  await expect(page.getByText('Edits not sent yet')).toBeVisible();

  await teammateSetsWord(1, 'deliver');
  await relay.heal();
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();

  const view = page.getByRole('region', { name: 'Someone else changed the same segments' });
  await expect(view).toBeVisible();
  const conflicts = view.getByTestId('segment-conflict');
  await expect(conflicts).toHaveCount(1);
  const mine = conflicts.getByRole('group', { name: 'Your version (this computer)' });
  const theirs = conflicts.getByRole('group', { name: 'Aiko Tanaka’s version (on the server)' });
  await expect(mine).toContainText('please Kikitori the report');
  await expect(mine.locator('mark')).toHaveText('Kikitori');
  await expect(theirs).toContainText('please deliver the report');
  await expect(theirs.locator('mark')).toHaveText('deliver');
  await expect(conflicts).toHaveAccessibleName(/^Segment 0:00–0:0\d$/);
  await view.scrollIntoViewIfNeeded();
  await screenshot(page, 'segment-conflict');

  await conflicts.getByRole('radio', { name: 'Write a merged text' }).check();
  const merged = conflicts.getByRole('textbox', { name: /^Merged text of segment/ });
  await expect(merged).toHaveValue(`please Kikitori the report to the marketing team by friday`);
  await merged.fill('please deliver the Kikitori report to the marketing team by friday');
  await screenshot(page, 'segment-conflict-merged');
  await view.getByRole('button', { name: 'Save' }).click();

  await expect(view).toBeHidden();
  await expect(page.getByText('Edits not sent yet')).toBeHidden();
  await expect(transcript.word('deliver')).toBeVisible();
  await expect(transcript.word('Kikitori')).toBeVisible();
  await expect(transcript.word('Monday')).toBeVisible();
  // On the server, for the whole team: the merged text and the edit that met no conflict.
  const { document } = await latest();
  expect(document.segments.map((s) => s.text)).toEqual([
    'please deliver the Kikitori report to the marketing team by friday',
    'the budget meeting moved to next Monday',
  ]);
});

test('in Japanese: the same view, settled by keeping the server’s version', async ({ page }) => {
  expect(await host.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
  const transcript = await open(page, 'planning.wav を開く');
  await relay.cut();
  await editWord(page, 'report', 'memo', /を編集/);
  await expect(transcript.word('memo')).toBeVisible();
  await teammateSetsWord(4, 'summary');
  await relay.heal();
  await page.getByRole('button', { name: '更新', exact: true }).click();

  const view = page.getByRole('region', { name: '同じ区間がサーバー上でも変更されています' });
  await expect(view).toBeVisible();
  const conflict = view.getByTestId('segment-conflict');
  await expect(conflict.getByRole('group', { name: 'あなたの版（このコンピューター）' }).locator('mark')).toHaveText(
    'memo',
  );
  await expect(conflict.getByRole('group', { name: 'Aiko Tanaka さんの版（サーバー上）' }).locator('mark')).toHaveText(
    'summary',
  );
  await expect(view).toContainText('1 件中 0 件を選択済み');
  await view.scrollIntoViewIfNeeded();
  await screenshot(page, 'segment-conflict-ja');

  await conflict.getByRole('radio', { name: 'サーバーの版を使う' }).check();
  await view.getByRole('button', { name: '保存' }).click();
  await expect(view).toBeHidden();
  await expect(transcript.word('summary')).toBeVisible();
  await expect(transcript.word('memo')).toHaveCount(0);
  expect((await latest()).document.segments[0]!.text).toBe(
    'please deliver the Kikitori summary to the marketing team by friday',
  );
});
