// The browser side of recording (decision 0027): the microphone through getUserMedia, the computer's own
// sound through getDisplayMedia (decision 0082: main answers with the screen's loopback audio), the two
// mixed in Web Audio when both are wanted, the level through an AnalyserNode, and MediaRecorder cutting
// the sound into chunks about every second, which the recorder store hands to main as they come.

/** Why the sound cannot be recorded, in terms the panel words for the user. */
export type MicrophoneProblem =
  'denied' | 'no-device' | 'busy' | 'unsupported' | 'system-denied' | 'system-unavailable';

/** What is recorded: the microphone, the computer's own sound (an online meeting), or both mixed. */
export type SoundSource = 'microphone' | 'system' | 'both';
export const SOUND_SOURCES: readonly SoundSource[] = ['microphone', 'system', 'both'];

export class MicrophoneError extends Error {
  constructor(
    readonly problem: MicrophoneProblem,
    cause?: unknown,
  ) {
    super(`microphone: ${problem}`, { cause });
  }
}

export interface AudioInput {
  id: string;
  /** Empty when the system gives no name. */
  label: string;
}

/** What MediaRecorder can write here, best first: Opus in WebM (Chromium, Electron), else Ogg, else MP4. */
const FORMATS = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

export function recordingFormat(): string | null {
  if (typeof MediaRecorder === 'undefined') return null;
  return FORMATS.find((format) => MediaRecorder.isTypeSupported(format)) ?? null;
}

function problemOf(error: unknown): MicrophoneProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError')
    return 'no-device';
  return 'busy';
}

export async function audioInputs(): Promise<AudioInput[]> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((device) => device.kind === 'audioinput' && device.deviceId !== '')
    .map((device) => ({ id: device.deviceId, label: device.label }));
}

async function microphoneStream(deviceId: string | null): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new MicrophoneError('unsupported');
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: {
        ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
        echoCancellation: false,
        noiseSuppression: false,
        autoGainControl: true,
      },
      video: false,
    });
  } catch (error) {
    throw new MicrophoneError(problemOf(error), error);
  }
}

/**
 * The computer's own sound: a screen share's audio (Chromium asks for video too; it is stopped at once
 * and never recorded). No audio track means the platform gives none (decision 0082).
 */
async function systemSoundStream(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getDisplayMedia) throw new MicrophoneError('system-unavailable');
  let shared: MediaStream;
  try {
    shared = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true });
  } catch (error) {
    const name = error instanceof DOMException || error instanceof Error ? error.name : '';
    throw new MicrophoneError(name === 'NotAllowedError' ? 'system-denied' : 'system-unavailable', error);
  }
  for (const track of shared.getVideoTracks()) {
    track.stop();
    shared.removeTrack(track);
  }
  if (shared.getAudioTracks().length === 0) throw new MicrophoneError('system-unavailable');
  return shared;
}

/** The open sound inputs: one stream for MediaRecorder (the two mixed when both), and its current level. */
export class Microphone {
  private readonly context: AudioContext;
  private readonly analyser: AnalyserNode;
  private readonly samples: Float32Array<ArrayBuffer>;
  /** What MediaRecorder and the live-text tap read. */
  readonly stream: MediaStream;

  private constructor(
    private readonly microphone: MediaStream | null,
    private readonly system: MediaStream | null,
  ) {
    this.context = new AudioContext();
    this.analyser = this.context.createAnalyser();
    this.analyser.fftSize = 2048;
    this.samples = new Float32Array(this.analyser.fftSize);
    const inputs = [microphone, system].filter((input): input is MediaStream => input !== null);
    if (inputs.length === 1) {
      this.stream = inputs[0]!;
      // Analysed only: nothing is connected to the speakers.
      this.context.createMediaStreamSource(this.stream).connect(this.analyser);
    } else {
      // Mixed in Web Audio: one track to record, at the sum of both (neither is played aloud).
      const mix = this.context.createMediaStreamDestination();
      for (const input of inputs) {
        const source = this.context.createMediaStreamSource(input);
        source.connect(mix);
        source.connect(this.analyser);
      }
      this.stream = mix.stream;
    }
  }

  static async open(deviceId: string | null, source: SoundSource = 'microphone'): Promise<Microphone> {
    if (!recordingFormat()) throw new MicrophoneError('unsupported');
    const microphone = source === 'system' ? null : await microphoneStream(deviceId);
    let system: MediaStream | null = null;
    try {
      system = source === 'microphone' ? null : await systemSoundStream();
    } catch (error) {
      for (const track of microphone?.getTracks() ?? []) track.stop();
      throw error;
    }
    const opened = new Microphone(microphone, system);
    await opened.context.resume().catch(() => {});
    return opened;
  }

  /** The microphone actually in use; null when only the computer's sound is recorded. */
  get deviceId(): string | null {
    return this.microphone?.getAudioTracks()[0]?.getSettings().deviceId ?? null;
  }

  /** 0 (silence, below -60 dBFS) to 1 (full scale), from the last ~40 ms of sound. */
  level(): number {
    this.analyser.getFloatTimeDomainData(this.samples);
    let sum = 0;
    for (const sample of this.samples) sum += sample * sample;
    const rms = Math.sqrt(sum / this.samples.length);
    if (rms <= 0) return 0;
    const decibels = 20 * Math.log10(rms);
    return Math.min(1, Math.max(0, (decibels + 60) / 60));
  }

  close(): void {
    for (const input of [this.microphone, this.system, this.stream])
      for (const track of input?.getTracks() ?? []) track.stop();
    void this.context.close().catch(() => {});
  }
}

/** The live text's rate (decision 0073): the server's engines decode 16 kHz, so it is sent as is. */
const LIVE_RATE = 16000;
/** 4096 frames at 16 kHz: a quarter second per chunk, well under the channel's limit of two seconds. */
const LIVE_FRAMES = 4096;

/**
 * 16 kHz mono PCM16 of a microphone's stream, for live text only (the recording stays MediaRecorder's
 * file). A second AudioContext at 16 kHz lets the browser resample. ScriptProcessorNode rather than an
 * AudioWorklet: a worklet's module would need a URL the strict CSP allows, for a few lines of copying.
 */
export class PcmTap {
  private readonly context: AudioContext;
  private readonly processor: ScriptProcessorNode;
  private running = true;

  constructor(stream: MediaStream, onChunk: (pcm: Uint8Array) => void) {
    this.context = new AudioContext({ sampleRate: LIVE_RATE });
    const source = this.context.createMediaStreamSource(stream);
    this.processor = this.context.createScriptProcessor(LIVE_FRAMES, 1, 1);
    this.processor.onaudioprocess = (event) => {
      if (!this.running) return;
      const samples = event.inputBuffer.getChannelData(0);
      const pcm = new Int16Array(samples.length);
      for (let i = 0; i < samples.length; i++) {
        const s = Math.max(-1, Math.min(1, samples[i]!));
        pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
      }
      onChunk(new Uint8Array(pcm.buffer));
    };
    // A processor runs only when it leads to the destination; a silent gain keeps the speakers quiet.
    const mute = this.context.createGain();
    mute.gain.value = 0;
    source.connect(this.processor);
    this.processor.connect(mute);
    mute.connect(this.context.destination);
    void this.context.resume().catch(() => {});
  }

  /** While paused nothing is sent, as nothing is recorded. */
  pause(): void {
    this.running = false;
  }

  resume(): void {
    this.running = true;
  }

  close(): void {
    this.running = false;
    this.processor.onaudioprocess = null;
    void this.context.close().catch(() => {});
  }
}

/** MediaRecorder over a microphone's stream; `onChunk` gets each piece in order. */
export class Recorder {
  private readonly recorder: MediaRecorder;
  private readonly stopped: Promise<void>;

  constructor(
    stream: MediaStream,
    readonly format: string,
    onChunk: (chunk: Blob) => void,
  ) {
    this.recorder = new MediaRecorder(stream, { mimeType: format, audioBitsPerSecond: 64_000 });
    this.recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) onChunk(event.data);
    });
    this.stopped = new Promise((resolve) => this.recorder.addEventListener('stop', () => resolve(), { once: true }));
  }

  /** Chunks come about every second, so a crash loses at most about a second. */
  start(): void {
    this.recorder.start(1000);
  }

  pause(): void {
    if (this.recorder.state === 'recording') this.recorder.pause();
  }

  resume(): void {
    if (this.recorder.state === 'paused') this.recorder.resume();
  }

  /** Resolves after the last chunk has been handed to `onChunk`. */
  stop(): Promise<void> {
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    return this.stopped;
  }
}

/** Bytes as base64, in slices (String.fromCharCode takes a bounded number of arguments). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}
