// Two app sessions on one team server (issue 24, decision 0056): Alice and her teammate each run the app (two
// hosts, each with its own cache) against the same kikitori-server. An edit Alice makes shows in the
// transcript her teammate has open within seconds, without a reload; in Japanese too. Screenshots of the
// teammate's window for people to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { meetingWav, screenshot, startHost, uploadCompleted, type Host } from './e2e-support.js';
import { LibraryPage } from './pages/library-page.js';
import { TranscriptPage } from './pages/transcript-page.js';

test.describe.configure({ mode: 'serial' });

let server: TestServer;
let alice: Host;
let teammate: Host;
let dir: string;

/** A host whose profile is this key on the shared server (the spec stops the server itself). */
const hostOn = async (key: string) =>
  startHost({ server: async () => ({ url: server.url, apiKey: key, stop: async () => {} }) });

test.beforeAll(async () => {
  server = await startTestServer({ storage: 'files', logLevel: 'warn' });
  alice = await hostOn(await server.key('e2e', 'alice', ['DELETE']));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-e2e-live-sync-'));
  await uploadCompleted(alice, await meetingWav(dir, 'shared.wav'));
  // Started once the transcription is done: its first poll lists it.
  teammate = await hostOn(await server.key('e2e', 'hanako', ['DELETE']));
});
test.afterAll(async () => {
  await alice?.close();
  await teammate?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page, host: Host, row = 'Open shared.wav') {
  const library = new LibraryPage(page);
  await library.goto(host.url);
  await page.getByRole('button', { name: row }).click();
  const transcript = new TranscriptPage(page);
  await transcript.expectLoaded('shared.wav');
  return transcript;
}

/** Alice corrects the second word in her window; resolves once her window shows it. */
async function aliceCorrects(page: Page, word: string) {
  const transcript = new TranscriptPage(page);
  await transcript.words.nth(1).dblclick();
  const editor = page.getByRole('textbox', { name: /^Edit the word/ });
  await editor.fill(word);
  await editor.press('Enter');
  await expect(transcript.word(word)).toBeVisible();
}

/** Marks the window, so a reload (which would drop the mark) shows as one. */
const markWindow = (page: Page) =>
  page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
const stillTheSameWindow = (page: Page) =>
  page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere === true);

test("an edit in one app shows in the teammate's open transcript, without a reload", async ({ page, browser }) => {
  const aliceView = await open(page, alice);
  await expect(aliceView.view).toBeVisible();
  const theirs = await browser.newPage();
  try {
    const teammateView = await open(theirs, teammate);
    await markWindow(theirs);
    await expect(teammateView.word('Kikitori')).toHaveCount(0);

    await aliceCorrects(page, 'Kikitori');
    // The teammate's window checks every few seconds; generous, for a loaded machine.
    await expect(teammateView.word('Kikitori')).toBeVisible({ timeout: 45_000 });
    expect(await stillTheSameWindow(theirs)).toBe(true);
    await screenshot(theirs, 'live-sync-teammate-en');

    // In Japanese too: the teammate switches language, opens it again, and Alice corrects the word once more.
    expect(await teammate.invoke('settings:update', { uiLanguage: 'ja' })).toMatchObject({ ok: true });
    const teammateJa = await open(theirs, teammate, 'shared.wav を開く');
    await markWindow(theirs);
    await expect(theirs.getByRole('button', { name: /ライブラリに戻る/ })).toBeVisible();
    await aliceCorrects(page, 'Hanako');
    await expect(teammateJa.word('Hanako')).toBeVisible({ timeout: 45_000 });
    expect(await stillTheSameWindow(theirs)).toBe(true);
    await screenshot(theirs, 'live-sync-teammate-ja');
  } finally {
    await theirs.close();
  }
});
