// The computer's own sound for recordings of online meetings (issue 26, decision 0082). Chromium captures
// it as the audio of a screen share: getDisplayMedia in the page, answered by main with the first screen and
// `audio: 'loopback'`. Chromium does that on Windows by itself, and on macOS 12.3+ (ScreenCaptureKit) and
// Linux (the PulseAudio/PipeWire monitor of the output) behind feature switches, which main adds before the
// app is ready. Pure, so it is unit-tested without Electron; window.ts and main.ts wire it.
import type { TrustedUrl } from './ipc/trusted-sender.js';

/** Chromium's features for system-audio loopback in screen capture on Linux and macOS. */
export const SYSTEM_AUDIO_FEATURES = [
  'PulseaudioLoopbackForScreenShare',
  'MacLoopbackAudioForScreenShare',
  'MacSckSystemAudioLoopbackOverride',
] as const;

/** The `enable-features` switch value: what was already enabled, then ours, each once. */
export function enableFeaturesValue(existing: string | null | undefined): string {
  const features = (existing ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  return [...new Set([...features, ...SYSTEM_AUDIO_FEATURES])].join(',');
}

/** What Electron's display-media handler is told, reduced to what the decision reads. */
export interface DisplayMediaQuery {
  /** The URL of the frame asking (empty when the frame is gone). */
  frameUrl: string;
  audioRequested: boolean;
}

/**
 * Whether a getDisplayMedia request gets the screen's sound: only the app's own page, and only when it
 * asks for audio (the video it must also take is stopped by the page at once and never recorded).
 */
export function grantsSystemAudio(query: DisplayMediaQuery, isTrusted: TrustedUrl): boolean {
  return query.audioRequested && query.frameUrl !== '' && isTrusted(query.frameUrl);
}
