import { analysisJob, noEngine, type AnalysisJobDeps } from './analysis-job.js';

export const summarizeJob = (deps: AnalysisJobDeps) =>
  analysisJob<'summarize'>(deps, 'summary', async (input) => {
    const engine = deps.engines.summaryFor(input.language) ?? noEngine('summary');
    const summary = await engine.summarize(input);
    return { result: { summarized_text: summary.summarizedText, ...summary.details }, engine: engine.name };
  });
