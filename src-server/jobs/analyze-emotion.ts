import { analysisJob, noEngine, type AnalysisJobDeps } from './analysis-job.js';

export const analyzeEmotionJob = (deps: AnalysisJobDeps) =>
  analysisJob<'analyze-emotion'>(deps, 'emotion', async (input) => {
    const engine = deps.engines.emotionFor(input.language) ?? noEngine('emotion');
    return { result: { emotions: await engine.analyze(input) }, engine: engine.name };
  });
