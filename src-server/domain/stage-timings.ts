// Per-stage wall-clock timings of one job, logged as one structured line at its end, so an operator
// (and bench:asr) can see where a transcription's time goes: decode, vad, recognize, speakers...
// Engines time their own stages with the same class and hand them back (RecognizeResult.timings).

export class StageTimings {
  private readonly started = performance.now();
  private readonly byStage: Record<string, number> = {};

  /** Runs `fn` and adds its duration to `stage` (a stage may run more than once). */
  async time<T>(stage: string, fn: () => Promise<T> | T): Promise<T> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      this.add(stage, performance.now() - start);
    }
  }

  /** Adds milliseconds measured elsewhere (e.g. an engine's own stages). */
  add(stage: string, ms: number): void {
    this.byStage[stage] = (this.byStage[stage] ?? 0) + ms;
  }

  /** Milliseconds (or counts) per stage as measured, without a total: what an engine reports. */
  stages(): Record<string, number> {
    return { ...this.byStage };
  }

  /** Milliseconds per stage, rounded, in the order the stages first ran, plus `total`. */
  toJSON(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [stage, ms] of Object.entries(this.byStage)) out[stage] = Math.round(ms);
    out.total = Math.round(performance.now() - this.started);
    return out;
  }
}
