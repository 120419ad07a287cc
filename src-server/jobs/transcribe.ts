// The transcription pipeline: CONVERTING (probe + decode to 16 kHz mono) -> IN_PROGRESS (speech engine,
// then forced replacements) -> COMPLETED with the transcript document in storage.
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import path from 'node:path';
import type { DictionaryRepository } from '../db/dictionary-repository.js';
import type { TranscriptionRepository } from '../db/transcription-repository.js';
import { EngineError } from '../domain/engine-error.js';
import { applyReplacements } from '../domain/replacements.js';
import { transcriptKey, type TranscriptionService } from '../domain/transcription-service.js';
import { detectsLanguage, wantsSpeakers, type EngineRegistry } from '../engines/engine-registry.js';
import { assignSpeakers } from '../engines/speakers/assign-speakers.js';
import { decodeToPcm, probeAudio } from '../engines/audio/ffmpeg.js';
import { isSpaceless, joinWords } from '../../src-shared/word-text.js';
import { UNDETERMINED_LANGUAGE } from '../../src-shared/languages.js';
import type { Storage } from '../storage/storage.js';
import type { TranscriptDocument, TranscriptSegment } from '../../src-shared/transcript-document.js';
import type { JobDefinition } from './job-queue.js';

export interface TranscribeJobDeps {
  transcriptions: TranscriptionRepository;
  dictionaries: DictionaryRepository;
  service: TranscriptionService;
  storage: Storage;
  engines: EngineRegistry;
  workDir: string;
}

// Share of the progress bar each stage owns.
const CONVERT_SHARE = 0.1;
const SPEAKERS_SHARE = 0.15;

export function transcribeJob(deps: TranscribeJobDeps): JobDefinition<'transcribe'> {
  const { transcriptions, dictionaries, service, storage, engines, workDir } = deps;

  /** Writes progress when it moves by a percent or more, to keep the database quiet. */
  const progressWriter = (transcriptionId: string) => {
    let last = -1;
    return (fraction: number) => {
      const rounded = Math.round(Math.min(1, Math.max(0, fraction)) * 100) / 100;
      if (rounded > last) {
        last = rounded;
        void transcriptions.update(transcriptionId, { progress: rounded });
      }
    };
  };

  return {
    maxAttempts: 3,
    async handle({ transcriptionId }, { signal }) {
      const record = await transcriptions.getById(transcriptionId);
      // Deleted, or ended by someone else, while queued: nothing left to do.
      if (!record || record.status === 'COMPLETED' || record.status === 'FAILED' || record.status === 'CANCELLED') return;
      if (!record.audioKey) throw new EngineError('bad-input', 'The transcription has no uploaded audio.');
      const progress = progressWriter(transcriptionId);

      await transcriptions.update(transcriptionId, { status: 'CONVERTING', progress: 0, failureReason: null });
      const audioPath = await storage.localPath(record.audioKey);
      const probe = await probeAudio(audioPath, signal);
      await fsp.mkdir(workDir, { recursive: true, mode: 0o700 });
      const pcmPath = path.join(workDir, `${transcriptionId}.pcm`);
      try {
        await decodeToPcm(audioPath, pcmPath, {
          signal,
          durationSeconds: probe.durationSeconds,
          onProgress: (f) => progress(f * CONVERT_SHARE),
        });

        await transcriptions.update(transcriptionId, { status: 'IN_PROGRESS', duration: probe.durationSeconds });
        const dictionary = record.dictionaryId ? await dictionaries.get(record.teamId, record.dictionaryId) : null;
        const [words, rules] = dictionary
          ? await Promise.all([dictionaries.words(dictionary.dictionaryId), dictionaries.blacklistWords(dictionary.dictionaryId)])
          : [[], []];
        const engine = engines.speechFor(record.transcriptionModel);
        // No language given: the engine detects it (only engines that can are left without one at upload).
        const requestedLanguage = record.languages[0] ?? (detectsLanguage(engine) ? 'auto' : engine.capabilities.languages[0] ?? 'en');
        const separate =
          wantsSpeakers({ model: record.transcriptionModel, wantsSpeakers: record.numSpeakers !== null || record.minSpeakers !== null || record.maxSpeakers !== null }) &&
          !engine.capabilities.speakerSeparation &&
          engines.speakers !== null;
        const recognitionShare = 1 - CONVERT_SHARE - (separate ? SPEAKERS_SHARE : 0);
        const result = await engine.recognize({
          pcmPath,
          language: requestedLanguage,
          vocabulary: words.map((w) => ({ word: w.word, reading: w.reading })),
          signal,
          onProgress: (f) => progress(CONVERT_SHARE + f * recognitionShare),
        });

        // Asked to detect and nothing was heard to detect it from: the language stays unknown, never a guess.
        const language = (result as { language?: string }).language ?? (requestedLanguage === 'auto' ? UNDETERMINED_LANGUAGE : requestedLanguage);
        let labelled: Array<(typeof result.segments)[number] & { speaker?: string | null }> = result.segments;
        if (separate) {
          // The recognizer's segments are its voice-activity regions: separate speakers inside them.
          const turns = await engines.speakers.separate(pcmPath, result.segments.map((s) => ({ start: s.start, end: s.end })), {
            numSpeakers: record.numSpeakers ?? undefined,
            minSpeakers: record.minSpeakers ?? undefined,
            maxSpeakers: record.maxSpeakers ?? undefined,
            signal,
            onProgress: (f) => progress(CONVERT_SHARE + recognitionShare + f * SPEAKERS_SHARE),
          });
          labelled = assignSpeakers(result.segments, turns);
        }

        const recognized: TranscriptSegment[] = labelled.map((s, id) => ({
          id,
          start: s.start,
          end: s.end,
          speaker: s.speaker ?? null,
          text: joinWords(s.words, language),
          words: s.words,
        }));
        const { segments, applied } = applyReplacements(recognized, rules, language);
        const document: TranscriptDocument = {
          transcription_id: transcriptionId,
          text: segments.map((s) => s.text).filter(Boolean).join(isSpaceless(language) ? '' : ' '),
          language,
          duration: probe.durationSeconds,
          speaking_duration: result.speakingDuration,
          segments,
          replacements: applied,
          engine: {
            name: engine.name,
            model: result.model,
            transcription_model: record.transcriptionModel,
            ...(separate ? { speakers: engines.speakers.name } : {}),
          },
          created_at: new Date().toISOString(),
        };
        const key = transcriptKey(transcriptionId);
        await storage.put(key, Readable.from([Buffer.from(JSON.stringify(document))]));
        await service.end(transcriptionId, {
          status: 'COMPLETED',
          transcriptKey: key,
          speakingDuration: result.speakingDuration,
          engine: `${engine.name}/${result.model}${separate ? `+${engines.speakers.name}` : ''}`,
          ...(record.languages.length === 0 && language !== UNDETERMINED_LANGUAGE ? { languages: [language] } : {}),
          progress: 1,
        });
      } finally {
        await fsp.rm(pcmPath, { force: true });
      }
    },
    async onFailed({ transcriptionId }, error) {
      await service.end(transcriptionId, { status: 'FAILED', failureReason: error.message });
    },
  };
}
