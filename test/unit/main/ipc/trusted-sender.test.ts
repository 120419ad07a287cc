import { describe, expect, it } from 'vitest';
import { trustedRendererUrl } from '../../../../src-main/ipc/trusted-sender.js';

describe('trustedRendererUrl', () => {
  it('trusts only the renderer index file itself', () => {
    const trusted = trustedRendererUrl('file:///opt/Kikitori/resources/app.asar/dist/renderer/index.html');
    expect(trusted('file:///opt/Kikitori/resources/app.asar/dist/renderer/index.html')).toBe(true);
    expect(trusted('file:///opt/Kikitori/resources/app.asar/dist/renderer/index.html#/x')).toBe(true);
    expect(trusted('file:///tmp/evil.html')).toBe(false);
    expect(trusted('https://example.com/')).toBe(false);
    expect(trusted('')).toBe(false);
    expect(trusted('not a url')).toBe(false);
  });

  it('trusts the app scheme’s own host, whatever the page or asset, and nothing that only looks like it', () => {
    const trusted = trustedRendererUrl('kikitori-app://app/index.html');
    expect(trusted('kikitori-app://app/index.html')).toBe(true);
    expect(trusted('kikitori-app://app/assets/index-DSogV3Oy.js')).toBe(true);
    expect(trusted('kikitori-app://app/index.html#/settings')).toBe(true);
    for (const url of [
      'kikitori-app://evil/index.html',
      'kikitori-app://app.evil/index.html',
      'kikitori-app://user:secret@app/index.html',
      'kikitori-media://app/index.html',
      'evil://app/index.html',
      'file:///opt/Kikitori/resources/app.asar/dist/renderer/index.html',
      'https://app/index.html',
      'null',
      '',
      'not a url',
    ])
      expect(trusted(url), url).toBe(false);
  });

  it('trusts the dev server origin, not other ports or hosts', () => {
    const trusted = trustedRendererUrl('http://localhost:5173/');
    expect(trusted('http://localhost:5173/index.html')).toBe(true);
    expect(trusted('http://localhost:5174/')).toBe(false);
    expect(trusted('http://127.0.0.1:5173/')).toBe(false);
  });
});
