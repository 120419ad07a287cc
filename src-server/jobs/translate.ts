import { analysisJob, noEngine, type AnalysisJobDeps } from './analysis-job.js';

export const translateJob = (deps: AnalysisJobDeps) =>
  analysisJob<'translate'>(deps, 'translation', async (input, { language }) => {
    const engine = deps.engines.translationFor(input.language, language) ?? noEngine('translation');
    const translation = await engine.translate(input, language);
    return {
      result: {
        translated_text: translation.translatedText,
        source_language: input.language,
        segments: translation.segments,
      },
      engine: engine.name,
    };
  });
