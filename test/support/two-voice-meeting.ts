// A short meeting of two generated voices taking quick turns (0.05 s apart: too little for the VAD or
// the recognizer to cut between them), with each turn's extent: festival's female HTS voice, then
// espeak-ng's male voice, twice. Cached like every generated fixture; shared by the speaker tests.
import fs from 'node:fs';
import path from 'node:path';
import { audioDuration, concatWithSilence, synthesizeSpeech, toWav16k, type Voice } from './audio-fixtures.js';
import { tempDir } from './test-server.js';

export const MEETING_TURNS: [Voice, string][] = [
  ['festival', 'the quarterly numbers look strong this time'],
  ['espeak', 'i agree and the costs went down as well'],
  ['festival', 'then we should hire two more engineers'],
  ['espeak', 'let us talk about that next week'],
];
const GAP = 0.05;

export interface TwoVoiceMeeting {
  /** A 16 kHz WAV in a temp dir of its own. */
  wav: string;
  /** Each turn's extent in seconds, with its voice. */
  reference: { start: number; end: number; voice: Voice }[];
  /** The parts as synthesized, one per turn (cache files: do not modify). */
  parts: string[];
}

export async function twoVoiceMeeting(): Promise<TwoVoiceMeeting> {
  const parts = await Promise.all(MEETING_TURNS.map(([voice, text]) => synthesizeSpeech(text, undefined, { voice })));
  const lengths = await Promise.all(parts.map(async (p) => audioDuration(await toWav16k(p))));
  let t = 0;
  const reference = lengths.map((length, i) => {
    const turn = { start: t, end: t + length, voice: MEETING_TURNS[i]![0] };
    t += length + GAP;
    return turn;
  });
  const wav = path.join(tempDir(), 'quick-turns.wav');
  fs.copyFileSync(await concatWithSilence(parts, GAP), wav);
  return { wav, reference, parts };
}
