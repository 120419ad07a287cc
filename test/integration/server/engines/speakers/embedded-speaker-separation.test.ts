import { beforeAll, describe, expect, it } from 'vitest';
import {
  averageLinkage,
  cosineDistanceMatrix,
  cutTree,
  l2Normalize,
} from '../../../../../src-server/engines/speakers/clustering.js';
import { diarizationError } from '../../../../../src-server/engines/speakers/diarization-error.js';
import { EmbeddedSpeakerSeparation } from '../../../../../src-server/engines/speakers/embedded-speaker-separation.js';
import type { SpeakerTurn } from '../../../../../src-server/engines/speakers/speaker-separation.js';
import { SileroVad } from '../../../../../src-server/engines/vad/silero-vad.js';
import type { SpeechSegment } from '../../../../../src-server/engines/vad/vad.js';
import {
  audioDuration,
  concatWithSilence,
  pcmOf,
  synthesizeSpeech,
  toWav16k,
} from '../../../../support/audio-fixtures.js';
import { twoVoiceMeeting } from '../../../../support/two-voice-meeting.js';

// A ~20 s dialogue: festival's HTS female voice (slt) and espeak-ng's default male voice take turns.
const LINES: [voice: 'festival' | 'espeak', text: string][] = [
  ['festival', 'Good morning, did you get the report I sent yesterday?'],
  ['espeak', 'Yes, I read it last night and it looks fine.'],
  ['festival', 'Great, then we can send it to the customer today.'],
  ['espeak', 'Let us wait until the numbers are checked.'],
  ['festival', 'All right, I will ask the team to check them this morning.'],
  ['espeak', 'Thank you, call me when it is done.'],
];
const GAP = 0.6;
const CARDS = '/usr/share/pocketsphinx/test/data/cards';
const FOUR_VOICE_LINES = [
  'The new office opens in March, two weeks later than planned.',
  'Who is moving first, the design team or the support team?',
  'Support moves first, because their lease ends in February.',
  'Then we need the network ready by the end of January.',
  'I will talk to the landlord about the cables on Monday.',
  'Good, and please send everyone the floor plan as well.',
];
const signal = new AbortController().signal;

const speakers = (turns: SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;

describe('EmbeddedSpeakerSeparation', () => {
  const separation = new EmbeddedSpeakerSeparation();
  let pcm: string;
  let speech: SpeechSegment[];
  let reference: SpeakerTurn[];
  let monoPcm: string;
  let monoSpeech: SpeechSegment[];

  beforeAll(async () => {
    const parts = await Promise.all(LINES.map(([voice, text]) => synthesizeSpeech(text, undefined, { voice })));
    const durations = await Promise.all(parts.map(async (p) => audioDuration(await toWav16k(p))));
    let t = 0;
    reference = durations.map((d, i) => {
      const turn = { start: t, end: t + d, speaker: LINES[i]![0] };
      t += d + GAP;
      return turn;
    });
    pcm = await pcmOf(await concatWithSilence(parts, GAP));
    const vad = new SileroVad();
    speech = await vad.detect(pcm);
    // One speaker only: festival's lines.
    monoPcm = await pcmOf(
      await concatWithSilence(
        parts.filter((_, i) => LINES[i]![0] === 'festival'),
        GAP,
      ),
    );
    monoSpeech = await vad.detect(monoPcm);
  });

  it('separates two voices with num_speakers=2, labelled in order of appearance', async () => {
    const progress: number[] = [];
    const turns = await separation.separate(pcm, speech, {
      numSpeakers: 2,
      signal,
      onProgress: (f) => progress.push(f),
    });
    expect(speakers(turns)).toBe(2);
    expect(turns[0]!.speaker).toBe('SPEAKER_1');
    expect(turns.find((x) => x.speaker !== 'SPEAKER_1')!.speaker).toBe('SPEAKER_2');
    const der = diarizationError(reference, turns, { collar: 0.25 });
    expect(der.der).toBeLessThan(0.1);
    expect(der.mapping).toEqual({ SPEAKER_1: 'festival', SPEAKER_2: 'espeak' });
    // Sorted, non-overlapping, inside the speech regions.
    for (const [i, turn] of turns.entries()) {
      expect(turn.end).toBeGreaterThan(turn.start);
      if (i > 0) expect(turn.start).toBeGreaterThanOrEqual(turns[i - 1]!.end);
      expect(speech.some((s) => turn.start >= s.start - 1e-6 && turn.end <= s.end + 1e-6)).toBe(true);
    }
    expect(progress.at(-1)).toBe(1);
  });

  it('finds the number of speakers by itself: two here, one for a single voice', async () => {
    const turns = await separation.separate(pcm, speech, { signal });
    expect(speakers(turns)).toBe(2);
    expect(diarizationError(reference, turns).der).toBeLessThan(0.1);
    expect(speakers(await separation.separate(monoPcm, monoSpeech, { signal }))).toBe(1);
  });

  it('finds two speakers, not four, when short turns follow each other without a pause', async () => {
    // 4 s windows straddle turns of ~2.5 s; the clusters of such mixtures are merged back after resegmentation.
    const meeting = await twoVoiceMeeting();
    const quickPcm = await pcmOf(meeting.wav);
    const quickSpeech = await new SileroVad().detect(quickPcm);
    const reference = meeting.reference.map(({ start, end, voice }) => ({ start, end, speaker: voice }));
    for (const quality of ['standard', 'enhanced'] as const) {
      const turns = await separation.separate(quickPcm, quickSpeech, { quality, signal });
      expect({ quality, speakers: speakers(turns) }).toEqual({ quality, speakers: 2 });
      expect(diarizationError(reference, turns).der).toBeLessThan(0.1);
    }
  });

  it('separates four voices, two of them one synthesizer a variant apart, with the count given and without', async () => {
    // espeak-ng's en-us voice with and without the m1 variant (formants 3% lower, another pitch), festival, and
    // a real man (pocketsphinx's "cards" recordings). Cut from the windows' tree into four, the voices came out
    // mixed (DER 13%); twelve clusters merged two at a time on block-precise speech keep them apart.
    const voices: (() => Promise<string>)[] = [
      () => synthesizeSpeech(FOUR_VOICE_LINES[next++ % FOUR_VOICE_LINES.length]!, undefined, { voice: 'espeak' }),
      () =>
        synthesizeSpeech(FOUR_VOICE_LINES[next++ % FOUR_VOICE_LINES.length]!, undefined, {
          voice: 'espeak',
          espeakVoice: 'en-us+m1',
        }),
      () => synthesizeSpeech(FOUR_VOICE_LINES[next++ % FOUR_VOICE_LINES.length]!),
      async () => `${CARDS}/00${(card++ % 5) + 1}.wav`,
    ];
    let next = 0;
    let card = 0;
    const order = [0, 1, 2, 3, 1, 0, 3, 2, 0, 1, 2, 3, 1, 0, 2, 3];
    const parts = [];
    for (const v of order) parts.push(await toWav16k(await voices[v]!()));
    const gap = 0.5;
    let t = 0;
    const reference: SpeakerTurn[] = [];
    for (const [i, part] of parts.entries()) {
      const d = await audioDuration(part);
      reference.push({ start: t, end: t + d, speaker: String(order[i]) });
      t += d + gap;
    }
    const fourPcm = await pcmOf(await concatWithSilence(parts, gap));
    const fourSpeech = await new SileroVad().detect(fourPcm);
    const turns = await separation.separate(fourPcm, fourSpeech, { numSpeakers: 4, signal });
    expect(speakers(turns)).toBe(4);
    expect(diarizationError(reference, turns).der).toBeLessThan(0.05);
    // Without the count, 3-4b found seven; merging the clusters until the closest pair differs finds four.
    const found = await separation.separate(fourPcm, fourSpeech, { signal });
    expect(speakers(found)).toBe(4);
    expect(diarizationError(reference, found).der).toBeLessThan(0.05);
  });

  it('honours the count exactly and the bounds of the automatic choice', async () => {
    expect(speakers(await separation.separate(pcm, speech, { numSpeakers: 3, signal }))).toBe(3);
    expect(speakers(await separation.separate(pcm, speech, { numSpeakers: 1, signal }))).toBe(1);
    expect(speakers(await separation.separate(pcm, speech, { maxSpeakers: 1, signal }))).toBe(1);
    expect(speakers(await separation.separate(monoPcm, monoSpeech, { minSpeakers: 2, signal }))).toBe(2);
    expect(speakers(await separation.separate(pcm, speech, { minSpeakers: 2, maxSpeakers: 4, signal }))).toBe(2);
  });

  it('returns nothing without speech and stops when aborted', async () => {
    expect(await separation.separate(pcm, [], { signal })).toEqual([]);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(separation.separate(pcm, speech, { signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('average-linkage clustering', () => {
  it('recovers well-separated groups and cuts the tree at any count', () => {
    const points = l2Normalize(
      [
        [1, 0.1, 0],
        [1, 0, 0.1],
        [0.9, 0.1, 0.1],
        [0, 1, 0.1],
        [0.1, 1, 0],
        [0, 0.1, 1],
      ].map((p) => Float32Array.from(p)),
    );
    const merges = averageLinkage(cosineDistanceMatrix(points), points.length);
    expect(merges).toHaveLength(5);
    expect(merges.map((m) => m.distance)).toEqual([...merges.map((m) => m.distance)].sort((a, b) => a - b));
    expect(Array.from(cutTree(merges, 6, 3))).toEqual([0, 0, 0, 1, 1, 2]);
    expect(Array.from(cutTree(merges, 6, 1))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(cutTree(merges, 6, 6))).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
