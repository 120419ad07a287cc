// The rule that turns language evidence into a transcription's warnings (decision 0070), and the
// pipeline asking for it: the identifier decides when it answers, the recognizer's judgement otherwise;
// nothing for "auto" or translations.
import { describe, expect, it } from 'vitest';
import { languageWarnings } from '../../../../src-server/domain/language-check.js';
import { StageTimings } from '../../../../src-server/domain/stage-timings.js';
import {
  inThreadReplacements,
  TranscriptionPipeline,
  type PipelineRequest,
  type RecognizeOutput,
} from '../../../../src-server/domain/transcription-pipeline.js';
import type { LanguageIdentifier } from '../../../../src-server/domain/language-check.js';

const mismatch = { mismatch: true, likelyLanguage: null };
const fits = { mismatch: false, likelyLanguage: null };

describe('languageWarnings', () => {
  it('warns when the recognizer judges the speech not to be in the requested language', () => {
    expect(languageWarnings('en', { identified: null, recognizer: mismatch })).toEqual([
      {
        code: 'LANGUAGE_MISMATCH',
        message:
          'This recording may not be in English. If it is in another language, transcribe it again with that language.',
        likely_language: null,
      },
    ]);
  });

  it('names the likely language when the identifier heard another one, whatever the recognizer said', () => {
    expect(languageWarnings('en', { identified: 'es', recognizer: fits })).toEqual([
      {
        code: 'LANGUAGE_MISMATCH',
        message: 'This recording may not be in English: it sounds like Spanish. Transcribe it again as Spanish.',
        likely_language: 'es',
      },
    ]);
  });

  it('trusts the identifier over the recognizer when it hears the requested language (regional codes too)', () => {
    expect(languageWarnings('en', { identified: 'en', recognizer: mismatch })).toEqual([]);
    expect(languageWarnings('pt-BR', { identified: 'pt', recognizer: null })).toEqual([]);
  });

  it('gives none without evidence, when the speech fits, or for automatic detection', () => {
    expect(languageWarnings('en', { identified: null, recognizer: null })).toEqual([]);
    expect(languageWarnings('en', { identified: null, recognizer: fits })).toEqual([]);
    expect(languageWarnings('auto', { identified: 'es', recognizer: mismatch })).toEqual([]);
  });

  it('passes on a likely language the recognizer itself names', () => {
    const [warning] = languageWarnings('ja', {
      identified: null,
      recognizer: { mismatch: true, likelyLanguage: 'ko' },
    });
    expect(warning).toMatchObject({ likely_language: 'ko', message: expect.stringContaining('Korean') });
  });
});

function pipelineWith(check: RecognizeOutput['languageCheck'], identifier: LanguageIdentifier | null) {
  const calls: string[] = [];
  const pipeline = new TranscriptionPipeline({
    decode: { decode: async () => ({ durationSeconds: 3 }) },
    vocabulary: null,
    replacements: inThreadReplacements,
    speakers: null,
    languageIdentifier: identifier,
  });
  const request: PipelineRequest = {
    id: 't1',
    audioPath: '/a.wav',
    sizeBytes: 1,
    pcmPath: '/a.pcm',
    recognizer: {
      name: 'test',
      recognize: async () => ({
        model: 'm',
        speakingDuration: 1,
        segments: [{ start: 0, end: 1, words: [{ word: 'hola', start: 0, end: 1, confidence: 0.2 }] }],
        ...(check ? { languageCheck: check } : {}),
      }),
    },
    recognizerSeparatesSpeakers: false,
    language: 'en',
    vocabulary: [],
    speakers: null,
    rules: [],
    transcriptionModel: 'default',
  };
  const run = (overrides: Partial<PipelineRequest> = {}) =>
    pipeline.run(
      { ...request, ...overrides },
      { signal: new AbortController().signal, timings: new StageTimings(), report: () => {} },
    );
  return { calls, run };
}

describe("the pipeline's language check", () => {
  it("puts the recognizer's mismatch into the result's warnings", async () => {
    const { run } = pipelineWith(mismatch, null);
    expect((await run()).warnings.map((w) => w.code)).toEqual(['LANGUAGE_MISMATCH']);
    expect((await run({ language: 'auto' })).warnings).toEqual([]);
    expect((await run({ task: 'translate' })).warnings).toEqual([]);
  });

  it('asks the identifier, about the speech regions, only when the recognizer doubts; it names the language', async () => {
    const asked: unknown[] = [];
    const identifier = (heard: string | null): LanguageIdentifier => ({
      identify: async (request) => {
        asked.push([request.pcmPath, request.regions]);
        return heard;
      },
    });
    expect((await pipelineWith(fits, identifier('es')).run()).warnings).toEqual([]);
    expect(asked).toEqual([]);
    expect((await pipelineWith(mismatch, identifier('es')).run()).warnings).toMatchObject([
      { code: 'LANGUAGE_MISMATCH', likely_language: 'es' },
    ]);
    expect(asked).toEqual([['/a.pcm', [{ start: 0, end: 1 }]]]);
    // It hears the language asked for: the doubt is cleared. It cannot tell: the recognizer's warning stands.
    expect((await pipelineWith(mismatch, identifier('en')).run()).warnings).toEqual([]);
    expect((await pipelineWith(mismatch, identifier(null)).run()).warnings).toMatchObject([{ likely_language: null }]);
  });
});
