// Shared by the specs: a host per spec file, real speech, and screenshots for people to look at.
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { TranscriptionSummary, UploadOptions } from '../../src-shared/ipc-contract.js';
import type { Host } from './host/start-host.js';
import { concatWithSilence, synthesizeSpeech } from '../support/audio-fixtures.js';
import { repoRoot } from './host/start-host.js';

export { startHost, type Host } from './host/start-host.js';

export const SCREENSHOT_DIR = path.join(repoRoot(), 'test-results/screenshots');

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

/** A short meeting: two spoken sentences with a pause, as a 16 kHz WAV named `name`. */
export async function meetingWav(dir: string, name = 'team-meeting.wav'): Promise<string> {
  const first = await synthesizeSpeech('please send the report to the marketing team by friday');
  const second = await synthesizeSpeech('the budget meeting moved to next week');
  const out = path.join(dir, name);
  fs.copyFileSync(await concatWithSilence([first, second], 2), out);
  return out;
}

/** Upload options as a user leaves them, in English. */
export const DEFAULT_UPLOAD: UploadOptions = {
  language: 'en',
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};

/** Adds `wav` through main as a dropped file would be, and waits until its transcription completes. */
export async function uploadCompleted(host: Host, wav: string, options: Partial<UploadOptions> = {}): Promise<void> {
  const added = await host.invoke('uploads:add', {
    files: await host.offer(wav),
    options: { ...DEFAULT_UPLOAD, ...options },
  });
  if (!added.ok) throw new Error(JSON.stringify(added.error));
  const name = path.basename(wav);
  await expect
    .poll(
      async () => {
        const list = await host.invoke('transcripts:list', {});
        const item: TranscriptionSummary | undefined = list.ok
          ? list.value.items.find((t) => t.name === name)
          : undefined;
        return item?.status;
      },
      { timeout: 180_000, intervals: [250] },
    )
    .toBe('COMPLETED');
}

/**
 * A dictionary of forced replacements made through main, then applied to the open transcript with
 * "Apply dictionary…" until the panel says "Applied."; the panel is returned open.
 */
export async function applyReplacements(
  page: Page,
  host: Host,
  name: string,
  replacementRules: Array<{ pattern: string; replacement: string }>,
): Promise<Locator> {
  const created = await host.invoke('dictionaries:create', { name, words: [] });
  expect(created).toMatchObject({ ok: true });
  const id = (created as { value: { id: string } }).value.id;
  expect(await host.invoke('dictionaries:add-replacement-rules', { id, replacementRules })).toMatchObject({ ok: true });
  await page.getByRole('button', { name: 'Apply dictionary…' }).click();
  const panel = page.getByRole('dialog', { name: 'Apply a dictionary' });
  await panel.getByLabel('Dictionary').selectOption({ label: name });
  await panel.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(panel).toContainText('Applied.');
  return panel;
}
