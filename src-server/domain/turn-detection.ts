// Server VAD turn detection for live sessions: where a speaker's turn starts and ends, from one speech
// probability per VAD window as the audio arrives. The same hysteresis as the batch VAD
// (engines/vad/silero-vad.ts): speech starts at a window at or above the threshold, and ends once the
// probability has stayed below a lower one for the silence duration. A turn longer than the cap is
// ended where it is, so one utterance never grows without bound. Pure: positions are sample counts.

export interface TurnDetectionOptions {
  /** A window at or above this probability starts (or continues) speech. */
  threshold: number;
  /** Silence (in samples) that ends a turn. */
  silenceSamples: number;
  /** The longest turn, in samples. */
  maxTurnSamples: number;
}

export type TurnDecision = 'start' | 'stop' | null;

/** Below the threshold by this much counts as silence (hysteresis). */
const HYSTERESIS = 0.15;

export class TurnDetector {
  private speaking = false;
  private turnStart = 0;
  private silentSince = -1;
  private lastEnd = 0;

  constructor(private readonly options: TurnDetectionOptions) {}

  get inTurn(): boolean {
    return this.speaking;
  }

  /** Samples of silence that end the turn so far, at the end of the last window (0 while speech goes on). */
  get silence(): number {
    return this.speaking && this.silentSince >= 0 ? this.lastEnd - this.silentSince : 0;
  }

  /** The window [start, end) had speech probability `p`: whether a turn starts or stops with it. */
  push(p: number, start: number, end: number): TurnDecision {
    const { threshold, silenceSamples, maxTurnSamples } = this.options;
    this.lastEnd = end;
    if (!this.speaking) {
      if (p < threshold) return null;
      this.speaking = true;
      this.turnStart = start;
      this.silentSince = -1;
      return 'start';
    }
    if (p >= Math.max(0, threshold - HYSTERESIS)) this.silentSince = -1;
    else if (this.silentSince < 0) this.silentSince = start;
    if ((this.silentSince >= 0 && end - this.silentSince >= silenceSamples) || end - this.turnStart >= maxTurnSamples) {
      this.speaking = false;
      return 'stop';
    }
    return null;
  }

  /** Forgets the turn in progress (the client cleared or committed the buffer). */
  reset(): void {
    this.speaking = false;
    this.silentSince = -1;
  }
}
