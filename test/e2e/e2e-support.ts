// Shared by the specs: a host per spec file, real speech, and screenshots for people to look at.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
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
