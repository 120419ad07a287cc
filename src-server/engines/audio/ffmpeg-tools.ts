// Where the ffmpeg and ffprobe programs come from (decision 0015). In this order:
//   1. the configured path (KIKITORI_FFMPEG_PATH / KIKITORI_FFPROBE_PATH): used as given, never
//      silently replaced by another one when it does not run;
//   2. the command on PATH: the system's ffmpeg (the Linux deb depends on Debian's), which the
//      distribution keeps patched, so a server decoding strangers' uploads prefers it;
//   3. the binary bundled through npm (@ffmpeg-installer/ffmpeg, @ffprobe-installer/ffprobe: one
//      optional package per platform, binaries inside the registry tarballs), what the macOS and
//      Windows installers rely on. In a packaged app it is run from app.asar.unpacked.
// Each program is located once per process, on first use; a failed search is not remembered, so
// installing ffmpeg takes effect without a restart.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { EngineError } from '../../domain/engine-error.js';
import { unpackedAsarPath } from '../../../src-shared/asar-path.js';

export type AudioTool = 'ffmpeg' | 'ffprobe';
export const AUDIO_TOOLS: readonly AudioTool[] = ['ffmpeg', 'ffprobe'];

/** Where a program was found: configured by the operator, on PATH, or bundled with the app. */
export type AudioToolSource = 'configured' | 'path' | 'bundled';

export interface AudioToolLocation {
  tool: AudioTool;
  /** What to spawn: an absolute path, or the bare name when it was found on PATH. */
  command: string;
  source: AudioToolSource;
  /** As the program prints it ("5.1.9-0+deb12u1"), or null when it could not tell. */
  version: string | null;
}

export interface AudioToolSettings {
  ffmpegPath?: string;
  ffprobePath?: string;
}

/** One program as `kikitori-server engines` reports it. */
export type AudioToolReport =
  (AudioToolLocation & { usable: true }) | { tool: AudioTool; usable: false; reason: string };

const BUNDLED_PACKAGES: Record<AudioTool, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

const require = createRequire(import.meta.url);

/**
 * The bundled binary for this platform and architecture, or null when its package is not installed
 * (another platform's installer, or an unsupported architecture: the packages then throw a string).
 */
export function bundledAudioToolPath(tool: AudioTool): string | null {
  try {
    const found = require(BUNDLED_PACKAGES[tool]) as { path?: unknown };
    return typeof found.path === 'string' ? unpackedAsarPath(found.path) : null;
  } catch {
    return null;
  }
}

/** `<command> -version`: its version when it runs, null when it does not exist or cannot run. */
function runVersion(command: string): Promise<{ version: string | null } | null> {
  return new Promise((resolve) => {
    execFile(command, ['-hide_banner', '-version'], { timeout: 15_000, windowsHide: true }, (error, stdout) => {
      if (error) return resolve(null);
      resolve({ version: /version (\S+)/.exec(stdout)?.[1] ?? null });
    });
  });
}

let settings: AudioToolSettings = {};
const located = new Map<AudioTool, Promise<AudioToolLocation>>();

/** Sets the configured paths (from ServerConfig's `audio` section); forgets what was located before. */
export function configureAudioTools(next: AudioToolSettings): void {
  settings = { ...next };
  located.clear();
}

/** Where `tool` is, searched in the order above; throws an 'unavailable' EngineError when nowhere. */
export function locateAudioTool(tool: AudioTool): Promise<AudioToolLocation> {
  let found = located.get(tool);
  if (!found) {
    found = search(tool, settings);
    located.set(tool, found);
    found.catch(() => located.delete(tool));
  }
  return found;
}

/** Searches for `tool` again on its next use (it disappeared after it was located). */
export function forgetAudioTool(tool: AudioTool): void {
  located.delete(tool);
}

const missingMessage =
  'Audio files cannot be converted on this server because its audio converter is missing. ' +
  'Reinstall Kikitori, or ask the administrator of the server to install the audio converter (kikitori-server engines tells what is missing).';

async function search(tool: AudioTool, current: AudioToolSettings): Promise<AudioToolLocation> {
  const configured = tool === 'ffmpeg' ? current.ffmpegPath : current.ffprobePath;
  const variable = tool === 'ffmpeg' ? 'KIKITORI_FFMPEG_PATH' : 'KIKITORI_FFPROBE_PATH';
  if (configured !== undefined) {
    const run = await runVersion(configured);
    if (run) return { tool, command: configured, source: 'configured', version: run.version };
    throw new EngineError('unavailable', missingMessage, {
      detail: `${variable}=${configured} does not run (${tool} -version failed): fix the path or unset it`,
    });
  }
  const onPath = await runVersion(tool);
  if (onPath) return { tool, command: tool, source: 'path', version: onPath.version };
  const bundled = bundledAudioToolPath(tool);
  if (bundled) {
    const run = await runVersion(bundled);
    if (run) return { tool, command: bundled, source: 'bundled', version: run.version };
  }
  throw new EngineError('unavailable', missingMessage, {
    detail:
      `${tool} was not found: ${variable} is unset, there is no ${tool} on PATH, and ` +
      (bundled
        ? `the bundled ${bundled} does not run`
        : `${BUNDLED_PACKAGES[tool]} has no binary for ${process.platform}-${process.arch}`) +
      ' (on Debian: apt-get install ffmpeg)',
  });
}

/** Both programs, found or not, for `kikitori-server engines`. */
export async function describeAudioTools(): Promise<AudioToolReport[]> {
  return Promise.all(
    AUDIO_TOOLS.map(async (tool): Promise<AudioToolReport> => {
      try {
        return { ...(await locateAudioTool(tool)), usable: true };
      } catch (error) {
        const reason =
          error instanceof EngineError && error.detail ? `${error.message} (${error.detail})` : String(error);
        return { tool, usable: false, reason };
      }
    }),
  );
}
