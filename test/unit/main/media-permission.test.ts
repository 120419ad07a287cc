import { describe, expect, it } from 'vitest';
import { trustedRendererUrl } from '../../../src-main/ipc/trusted-sender.js';
import { permissionGranted } from '../../../src-main/media-permission.js';

const APP = 'kikitori-app://app/index.html';
const trusted = trustedRendererUrl(APP);

describe('permissionGranted', () => {
  it("grants the microphone to the app's own page, when asked for audio only", () => {
    expect(permissionGranted({ permission: 'media', requestingUrl: APP, mediaTypes: ['audio'] }, trusted)).toBe(true);
    expect(
      permissionGranted({ permission: 'media', requestingUrl: `${APP}#/library`, mediaTypes: ['audio'] }, trusted),
    ).toBe(true);
    expect(permissionGranted({ permission: 'media', requestingUrl: APP, mediaType: 'audio' }, trusted)).toBe(true);
  });

  it('refuses the camera, and a request that mixes it with the microphone or names neither', () => {
    expect(permissionGranted({ permission: 'media', requestingUrl: APP, mediaTypes: ['video'] }, trusted)).toBe(false);
    expect(
      permissionGranted({ permission: 'media', requestingUrl: APP, mediaTypes: ['audio', 'video'] }, trusted),
    ).toBe(false);
    expect(permissionGranted({ permission: 'media', requestingUrl: APP, mediaTypes: [] }, trusted)).toBe(false);
    expect(permissionGranted({ permission: 'media', requestingUrl: APP, mediaType: 'video' }, trusted)).toBe(false);
    expect(permissionGranted({ permission: 'media', requestingUrl: APP, mediaType: 'unknown' }, trusted)).toBe(false);
    expect(permissionGranted({ permission: 'media', requestingUrl: APP }, trusted)).toBe(false);
  });

  it('refuses the microphone to any other page', () => {
    for (const url of ['file:///tmp/evil.html', 'https://example.com/', 'http://127.0.0.1:5173/', '', 'not a url']) {
      expect(permissionGranted({ permission: 'media', requestingUrl: url, mediaTypes: ['audio'] }, trusted)).toBe(
        false,
      );
      expect(permissionGranted({ permission: 'media', requestingUrl: url, mediaType: 'audio' }, trusted)).toBe(false);
    }
  });

  it("lets the app's own page ask for a screen share, for the computer's sound (decision 0082), and no other page", () => {
    expect(permissionGranted({ permission: 'display-capture', requestingUrl: APP }, trusted)).toBe(true);
    for (const url of ['file:///tmp/evil.html', 'https://example.com/', '', 'not a url'])
      expect(permissionGranted({ permission: 'display-capture', requestingUrl: url }, trusted)).toBe(false);
  });

  it('refuses every other permission, even to the app itself', () => {
    for (const permission of [
      'notifications',
      'geolocation',
      'clipboard-read',
      'fullscreen',
      'openExternal',
      'midiSysex',
      'fileSystem',
      'unknown',
    ]) {
      expect(permissionGranted({ permission, requestingUrl: APP, mediaTypes: ['audio'] }, trusted)).toBe(false);
      expect(permissionGranted({ permission, requestingUrl: APP }, trusted)).toBe(false);
    }
  });

  it('follows the dev server rule when the renderer is served by it', () => {
    const dev = trustedRendererUrl('http://localhost:5173/');
    expect(
      permissionGranted(
        { permission: 'media', requestingUrl: 'http://localhost:5173/index.html', mediaTypes: ['audio'] },
        dev,
      ),
    ).toBe(true);
    expect(
      permissionGranted({ permission: 'media', requestingUrl: 'http://localhost:5174/', mediaTypes: ['audio'] }, dev),
    ).toBe(false);
  });
});
