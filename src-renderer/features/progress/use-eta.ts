// The estimate of a running transcription's time left, kept per transcription so that the library row
// and the transcript view count down the same figure, and refreshed every few seconds between polls
// (a stall then shows as a growing estimate instead of a frozen one).
import { useEffect, useState } from 'react';
import { isProcessing } from '../../../src-shared/api/vocabulary';
import { estimateRemaining, type EtaEstimate } from '../../../src-shared/eta';
import type { TranscriptionSummary } from '../../../src-shared/ipc-contract';

const TICK_MS = 5000;
const estimates = new Map<string, EtaEstimate>();

type Running = Pick<TranscriptionSummary, 'id' | 'status' | 'progress' | 'processingStartedAt' | 'stage' | 'duration'>;

/** The smoothed estimate for `summary`, or null while there is none worth showing. */
export function useEta(summary: Running | null, now: () => number = Date.now): EtaEstimate | null {
  const running = summary !== null && isProcessing(summary.status);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTick((n) => n + 1), TICK_MS);
    return () => clearInterval(timer);
  }, [running]);
  const [estimate, setEstimate] = useState<EtaEstimate | null>(null);
  const id = summary?.id ?? null;
  const progress = summary?.progress ?? null;
  const startedAt = summary?.processingStartedAt ?? null;
  const duration = summary?.duration ?? null;
  const stage = summary?.stage ?? null;
  useEffect(() => {
    if (!running || id === null) {
      if (id !== null) estimates.delete(id);
      setEstimate(null);
      return;
    }
    const next = estimateRemaining({
      progress,
      startedAt,
      stage,
      now: now(),
      durationSeconds: duration,
      previous: estimates.get(id) ?? null,
    });
    if (next) estimates.set(id, next);
    setEstimate(next);
  }, [running, id, progress, startedAt, stage, duration, tick, now]);
  return estimate;
}
