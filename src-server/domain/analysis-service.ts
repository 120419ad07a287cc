// Requests for summary, emotion and translation: checks that the transcription and an engine can serve
// them, records the analysis as IN_PROGRESS and queues its job. Posting again re-runs it.
import type { AnalysisKind, AnalysisRepository } from '../db/analysis-repository.js';
import type { JobName, JobQueue } from '../jobs/job-queue.js';
import type { AnalysisEngines } from './analysis-engines.js';
import type { TranscriptionRecord } from './records.js';

export type AnalysisRefusal = { kind: 'not-completed' } | { kind: 'unsupported-language'; message: string };

const JOB_FOR: Record<AnalysisKind, JobName> = {
  summary: 'summarize',
  emotion: 'analyze-emotion',
  translation: 'translate',
};

export const analysisJobKey = (transcriptionId: string, kind: AnalysisKind, language: string) =>
  `${kind}:${transcriptionId}:${language}`;

/** The language a transcription's analyses start from. */
export const sourceLanguage = (record: TranscriptionRecord) => record.languages[0] ?? 'en';

export class AnalysisService {
  constructor(
    private readonly analyses: AnalysisRepository,
    private readonly engines: AnalysisEngines,
    private readonly queue: JobQueue,
  ) {}

  /** Null when queued; otherwise why not. `language` is the target for a translation, '' otherwise. */
  async request(record: TranscriptionRecord, kind: AnalysisKind, language: string): Promise<AnalysisRefusal | null> {
    if (record.status !== 'COMPLETED') return { kind: 'not-completed' };
    const refusal = this.unsupported(record, kind, language);
    if (refusal) return { kind: 'unsupported-language', message: refusal };

    const key = analysisJobKey(record.transcriptionId, kind, language);
    // A re-run replaces whatever is queued or running for the same analysis.
    await this.queue.cancel(key);
    await this.analyses.begin(record.transcriptionId, kind, language);
    const payload = { transcriptionId: record.transcriptionId, language };
    await this.queue.send(JOB_FOR[kind], payload, { singletonKey: key });
    return null;
  }

  private unsupported(record: TranscriptionRecord, kind: AnalysisKind, target: string): string | null {
    const source = sourceLanguage(record);
    switch (kind) {
      case 'summary':
        return this.engines.summaryFor(source)
          ? null
          : `No configured summary engine handles "${source}". Supported: ${languagesOf(this.engines.summary)}.`;
      case 'emotion':
        return this.engines.emotionFor(source)
          ? null
          : `No configured emotion engine handles "${source}". Supported: ${languagesOf(this.engines.emotion)}.`;
      case 'translation': {
        if (target === source) return `The transcript is already in "${source}". Choose another target language.`;
        if (this.engines.translationFor(source, target)) return null;
        const targets = this.engines.translationTargets(source);
        return (
          `No configured translation engine translates "${source}" into "${target}". ` +
          `Supported targets from "${source}": ${targets === 'any' ? 'any' : targets.join(', ') || 'none'}. ` +
          'Configure an OpenAI-compatible LLM endpoint (KIKITORI_LLM_BASE_URL) to translate into any language.'
        );
      }
    }
  }
}

function languagesOf(engines: readonly { languages: readonly string[] | 'any' }[]): string {
  if (engines.some((e) => e.languages === 'any')) return 'any language';
  return [...new Set(engines.flatMap((e) => e.languages as readonly string[]))].sort().join(', ') || 'none';
}
