// ffmpeg and ffprobe for the waveform, found as kikitori-server finds them (its decision 0015, minus
// the settings): the command on PATH, else the binary bundled through npm (@ffmpeg-installer/ffmpeg,
// @ffprobe-installer/ffprobe), which the macOS and Windows installers rely on, run from
// app.asar.unpacked in a packaged app. Located once per process; a failed search is not remembered.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { unpackedAsarPath } from '../../src-shared/asar-path.js';

export type PeaksTool = 'ffmpeg' | 'ffprobe';

const BUNDLED_PACKAGES: Record<PeaksTool, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};
const require = createRequire(import.meta.url);
const located = new Map<PeaksTool, Promise<string>>();

/** The bundled binary for this platform, or null when its package is not installed. */
export function bundledPeaksTool(tool: PeaksTool): string | null {
  try {
    const found = require(BUNDLED_PACKAGES[tool]) as { path?: unknown };
    return typeof found.path === 'string' ? unpackedAsarPath(found.path) : null;
  } catch {
    return null; // another platform's installer, or an architecture the packages do not cover
  }
}

const runs = (command: string) =>
  new Promise<boolean>((resolve) =>
    execFile(command, ['-hide_banner', '-version'], { timeout: 15_000, windowsHide: true }, (error) => resolve(!error)),
  );

/** What to spawn for `tool`: its name when it is on PATH, else the bundled binary, else the name (and spawn says ENOENT). */
export function peaksToolCommand(tool: PeaksTool): Promise<string> {
  let found = located.get(tool);
  if (!found) {
    found = (async () => {
      if (await runs(tool)) return tool;
      const bundled = bundledPeaksTool(tool);
      if (bundled && (await runs(bundled))) return bundled;
      located.delete(tool);
      return tool;
    })();
    located.set(tool, found);
  }
  return found;
}
