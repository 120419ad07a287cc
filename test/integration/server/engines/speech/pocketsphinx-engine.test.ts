import { beforeAll, describe, expect, it } from 'vitest';
import { PocketsphinxEngine } from '../../../../../src-server/engines/speech/pocketsphinx-engine.js';
import type { RecognizeRequest, RecognizeResult } from '../../../../../src-server/engines/speech/speech-engine.js';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { audioDuration, concatWithSilence, pcmOf, synthesizeSpeech } from '../../../../support/audio-fixtures.js';
import { editDistance } from '../../../../../src-shared/edit-distance.js';
import { isUncertain } from '../../../../../src-shared/word-confidence.js';
import { POCKETSPHINX_CONFIDENCE_MODEL } from '../../../../../src-server/engines/speech/pocketsphinx-confidence-model.js';
import {
  logisticConfidence,
  type PosteriorEvidence,
} from '../../../../../src-server/engines/speech/word-confidence.js';

const SENTENCES = [
  'I had a long meeting with my manager about the new budget.',
  'Rice is often served in round bowls.',
  'Please call Stella and ask her to bring these things with her from the store.',
];
const SILENCE = 4;

const engine = new PocketsphinxEngine();
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
const transcript = (r: RecognizeResult) => r.segments.flatMap((s) => s.words.map((w) => w.word)).join(' ');
const recognize = (pcmPath: string, extra: Partial<RecognizeRequest> = {}) =>
  engine.recognize({ pcmPath, language: 'en', vocabulary: [], signal: new AbortController().signal, ...extra });

/** Word error rate: edit distance over reference length. */
function wer(reference: string[], hypothesis: string[]): number {
  return editDistance(reference, hypothesis) / reference.length;
}

describe('PocketsphinxEngine', () => {
  let pcm: string;
  let duration: number;

  beforeAll(async () => {
    const wav = await concatWithSilence(await Promise.all(SENTENCES.map((s) => synthesizeSpeech(s))), SILENCE);
    duration = await audioDuration(wav);
    pcm = await pcmOf(wav);
  });

  it('recognizes synthesized sentences with word timestamps and confidences', async () => {
    const progress: number[] = [];
    const result = await recognize(pcm, { onProgress: (f) => progress.push(f) });

    expect(wer(words(SENTENCES.join(' ')), words(transcript(result)))).toBeLessThan(0.2);
    expect(result.model).toBe('pocketsphinx-5prealpha/en-us');
    // One segment per sentence: nothing decoded inside the silences.
    expect(result.segments).toHaveLength(3);
    const all = result.segments.flatMap((s) => s.words);
    for (const [i, w] of all.entries()) {
      expect(w.start).toBeGreaterThanOrEqual(0);
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.end).toBeLessThanOrEqual(duration);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(all[i - 1]!.end);
    }
    for (const s of result.segments) {
      expect(s.start).toBeLessThanOrEqual(s.words[0]!.start);
      expect(s.end).toBeGreaterThanOrEqual(s.words.at(-1)!.end);
    }
    // The second sentence starts after the first silence.
    expect(result.segments[1]!.words[0]!.start).toBeGreaterThan(result.segments[0]!.end + SILENCE - 0.5);
    // Speaking time excludes the two silences.
    expect(result.speakingDuration).toBeGreaterThan(4);
    expect(result.speakingDuration).toBeLessThan(duration - 2 * SILENCE);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('gives each word the probability that it is right: few words of speech it mostly gets right are uncertain', async () => {
    // Decision 0086: the evidence the decoder has about each word goes through the fitted calibration.
    const calibrated = logisticConfidence(POCKETSPHINX_CONFIDENCE_MODEL);
    const evidence: PosteriorEvidence[] = [];
    const recording = new PocketsphinxEngine({ confidence: (e) => (evidence.push(e), calibrated(e)) });
    const seen = await recording.recognize({
      pcmPath: pcm,
      language: 'en',
      vocabulary: [],
      signal: new AbortController().signal,
    });
    recording.close();
    const words = seen.segments.flatMap((s) => s.words);
    expect(evidence).toHaveLength(words.length);
    for (const [i, e] of evidence.entries()) {
      expect(e.word).toBe(words[i]!.word);
      expect(e.backoff).toBeGreaterThanOrEqual(1);
      expect(e.backoff).toBeLessThanOrEqual(3);
      expect(e.seconds).toBeCloseTo(words[i]!.end - words[i]!.start, 3);
      expect(words[i]!.confidence).toBeCloseTo(calibrated(e), 3);
    }
    // The raw lattice posterior put about a third of these words below one half (and the app underlined
    // two thirds, below 0.85) on speech with few errors; calibrated, the engine's own are few.
    const all = (await recognize(pcm)).segments.flatMap((s) => s.words);
    expect(all.filter(isUncertain).length).toBeLessThanOrEqual(Math.ceil(all.length / 10));
  });

  it('recognizes custom vocabulary only when given, spelled as the user wrote it', async () => {
    const wav = await concatWithSilence(
      [
        await synthesizeSpeech('I had a long meeting with Zintrix about the new budget.'),
        await synthesizeSpeech('Please send the final report to McKibbin before Friday.'),
      ],
      1,
    );
    const vocabPcm = await pcmOf(wav);

    // "Zintrix" is in neither dictionary nor LM; "McKibbin" is in cmudict but not in the LM.
    const plain = transcript(await recognize(vocabPcm));
    expect(plain).not.toMatch(/zintrix/i);
    expect(plain).not.toMatch(/mckibbin/i);

    const custom = transcript(
      await recognize(vocabPcm, { vocabulary: [{ word: 'Zintrix', reading: 'zin tricks' }, { word: 'McKibbin' }] }),
    );
    expect(custom).toContain('with Zintrix about');
    expect(custom).toContain('to McKibbin before');
  });

  it("keeps a decoder warm between calls, and a call's vocabulary does not outlive it", async () => {
    const warm = new PocketsphinxEngine();
    const wav = await synthesizeSpeech('I had a long meeting with Zintrix about the new budget.');
    const zintrixPcm = await pcmOf(wav);
    const run = (vocabulary: RecognizeRequest['vocabulary'] = []) =>
      warm.recognize({ pcmPath: zintrixPcm, language: 'en', vocabulary, signal: new AbortController().signal });
    try {
      expect(warm.warmDecoders).toBe(0);
      const first = await run();
      expect(warm.warmDecoders).toBe(1);
      expect(first.timings).toMatchObject({
        vad: expect.any(Number),
        decoder: expect.any(Number),
        decode: expect.any(Number),
      });
      // Same audio, same answer from the warm decoder.
      expect(transcript(await run())).toBe(transcript(first));
      expect(warm.warmDecoders).toBe(1);

      expect(transcript(await run([{ word: 'Zintrix', reading: 'zin tricks' }]))).toContain('with Zintrix about');
      // The decoder that learned "Zintrix" was not put back; the next call runs on a clean one.
      const after = transcript(await run());
      expect(after).not.toMatch(/zintrix/i);
      expect(after).toBe(transcript(first));
    } finally {
      warm.close();
    }
  });

  it('only accepts English', async () => {
    const err = await recognize(pcm, { language: 'ja' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ kind: 'unsupported', field: 'language' });
    expect((err as Error).message).toBe(
      'Japanese needs a speech model that knows Japanese: install one on the server (kikitori-server models download base), then try again.',
    );
    expect((err as EngineError).detail).toMatch(/"pocketsphinx" recognizes en; asked for ja/);
  });

  it('says when it moves from finding the speech to recognizing it, before the progress of each', async () => {
    const events: string[] = [];
    await recognize(pcm, {
      onStage: (stage) => events.push(stage),
      onProgress: (f) => events.push(f === 1 ? 'done' : 'progress'),
    });
    expect(events[0]).toBe('detecting-speech');
    expect(events.filter((e) => e === 'detecting-speech' || e === 'recognizing')).toEqual([
      'detecting-speech',
      'recognizing',
    ]);
    expect(events.at(-1)).toBe('done');
    expect(events.indexOf('recognizing')).toBeLessThan(events.indexOf('done'));
  });

  it('stops between segments when aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by test');
    const seen: number[] = [];
    const run = recognize(pcm, {
      signal: controller.signal,
      onProgress: (f) => {
        seen.push(f);
        if (f > 0.1) controller.abort(reason); // after the first segment
      },
    });
    await expect(run).rejects.toBe(reason);
    expect(seen.at(-1)).toBeLessThan(1);
  });
});
