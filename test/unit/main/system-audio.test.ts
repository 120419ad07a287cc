// The computer's sound for recordings (decision 0082): Chromium's loopback features switched on once, and
// screen-share audio granted to the app's own page only.
import { describe, expect, it } from 'vitest';
import { trustedRendererUrl } from '../../../src-main/ipc/trusted-sender.js';
import { enableFeaturesValue, grantsSystemAudio, SYSTEM_AUDIO_FEATURES } from '../../../src-main/system-audio.js';

const APP = 'kikitori-app://app/index.html';
const trusted = trustedRendererUrl(APP);

describe('enableFeaturesValue', () => {
  it('adds the loopback features to those already enabled, each once', () => {
    expect(enableFeaturesValue(null)).toBe(SYSTEM_AUDIO_FEATURES.join(','));
    expect(enableFeaturesValue('')).toBe(SYSTEM_AUDIO_FEATURES.join(','));
    expect(enableFeaturesValue('WebRtcPipeWireCapturer, PulseaudioLoopbackForScreenShare')).toBe(
      ['WebRtcPipeWireCapturer', ...SYSTEM_AUDIO_FEATURES].join(','),
    );
  });
});

describe('grantsSystemAudio', () => {
  it("grants the screen's sound to the app's own page when it asks for audio", () => {
    expect(grantsSystemAudio({ frameUrl: APP, audioRequested: true }, trusted)).toBe(true);
    expect(grantsSystemAudio({ frameUrl: `${APP}#/library`, audioRequested: true }, trusted)).toBe(true);
  });

  it('refuses a request without audio (a plain screen share), from a gone frame, or from any other page', () => {
    expect(grantsSystemAudio({ frameUrl: APP, audioRequested: false }, trusted)).toBe(false);
    expect(grantsSystemAudio({ frameUrl: '', audioRequested: true }, trusted)).toBe(false);
    for (const url of ['file:///tmp/evil.html', 'https://example.com/', 'http://127.0.0.1:5173/', 'not a url'])
      expect(grantsSystemAudio({ frameUrl: url, audioRequested: true }, trusted)).toBe(false);
  });
});
