// A VAD that prefers one detector (Silero) and falls back to another (energy) when the first cannot
// run on this machine (an 'unavailable' EngineError: onnxruntime or the model cannot be loaded). Other
// errors (abort, unreadable file) are not swallowed. It logs which detector ran whenever that changes.
import { isEngineError } from '../../domain/engine-error.js';
import type { SpeechSegment, VadOptions, VoiceActivityDetector } from './vad.js';

export type VadLog = (level: 'info' | 'warn', message: string) => void;

/** Default log: stderr, one line per change of detector. */
export const consoleVadLog: VadLog = (level, message) => (level === 'warn' ? console.warn : console.info)(message);

export class FallbackVad implements VoiceActivityDetector {
  /** Name of the detector that ran last (before the first run: the preferred one). */
  get name(): string {
    return this.last?.name ?? this.preferred.name;
  }
  private last: VoiceActivityDetector | undefined;
  private unavailable = false;

  constructor(
    readonly preferred: VoiceActivityDetector,
    readonly fallback: VoiceActivityDetector,
    private readonly log: VadLog = consoleVadLog,
  ) {}

  async detect(pcmPath: string, options: VadOptions = {}): Promise<SpeechSegment[]> {
    if (!this.unavailable) {
      try {
        const segments = await this.preferred.detect(pcmPath, options);
        this.ran(this.preferred, 'info', `voice activity detection: ${this.preferred.name}`);
        return segments;
      } catch (err) {
        if (!isEngineError(err, 'unavailable')) throw err;
        this.unavailable = true;
        this.log(
          'warn',
          `voice activity detection: ${this.preferred.name} is unavailable (${err.detail ?? err.message}); using ${this.fallback.name}`,
        );
      }
    }
    const segments = await this.fallback.detect(pcmPath, options);
    this.ran(this.fallback, 'info', `voice activity detection: ${this.fallback.name}`);
    return segments;
  }

  private ran(vad: VoiceActivityDetector, level: 'info' | 'warn', message: string): void {
    if (this.last !== vad) this.log(level, message);
    this.last = vad;
  }
}
