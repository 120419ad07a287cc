// The macOS build declares microphone use: macOS refuses audio input to a hardened app without the
// entitlement, and without a usage description it ends the app when it first asks (decision 0027).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../../..');

interface MacConfig {
  hardenedRuntime?: boolean;
  entitlements?: string;
  entitlementsInherit?: string;
  extendInfo?: Record<string, unknown>;
}

const builder = parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as { mac?: MacConfig };

/** The entitlement keys set to <true/> in a plist. */
function trueEntitlements(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  return [...text.matchAll(/<key>([^<]+)<\/key>\s*<true\s*\/>/g)].map((match) => match[1]!);
}

describe('macOS packaging', () => {
  it('says why it uses the microphone', () => {
    const description = builder.mac?.extendInfo?.NSMicrophoneUsageDescription;
    expect(typeof description).toBe('string');
    expect(description).toMatch(/microphone/i);
  });

  it('runs hardened, with the audio-input entitlement for the app and its helpers', () => {
    const mac = builder.mac!;
    expect(mac.hardenedRuntime).toBe(true);
    for (const file of [mac.entitlements, mac.entitlementsInherit]) {
      expect(file).toBeTruthy();
      const granted = trueEntitlements(file!);
      expect(granted).toContain('com.apple.security.device.audio-input');
      // Replacing electron-builder's default entitlements must keep what Electron needs to run.
      expect(granted).toContain('com.apple.security.cs.allow-jit');
      // Nothing beyond the microphone: no camera.
      expect(granted).not.toContain('com.apple.security.device.camera');
    }
  });
});
