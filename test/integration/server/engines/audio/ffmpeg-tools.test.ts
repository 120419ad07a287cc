import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import {
  bundledAudioToolPath,
  configureAudioTools,
  describeAudioTools,
  locateAudioTool,
} from '../../../../../src-server/engines/audio/ffmpeg-tools.js';
import { probeAudio } from '../../../../../src-server/engines/audio/ffmpeg.js';
import { unpackedAsarPath } from '../../../../../src-shared/asar-path.js';
import { synthesizeSpeech } from '../../../../support/audio-fixtures.js';

afterEach(() => configureAudioTools({}));

describe('unpackedAsarPath', () => {
  it('points into app.asar.unpacked inside a packaged app, and leaves other paths alone', () => {
    expect(
      unpackedAsarPath(
        '/Applications/Kikitori.app/Contents/Resources/app.asar/node_modules/@ffmpeg-installer/darwin-arm64/ffmpeg',
      ),
    ).toBe(
      '/Applications/Kikitori.app/Contents/Resources/app.asar.unpacked/node_modules/@ffmpeg-installer/darwin-arm64/ffmpeg',
    );
    expect(
      unpackedAsarPath(
        'C:\\Program Files\\Kikitori\\resources\\app.asar\\node_modules\\@ffmpeg-installer\\win32-x64\\ffmpeg.exe',
      ),
    ).toBe(
      'C:\\Program Files\\Kikitori\\resources\\app.asar.unpacked\\node_modules\\@ffmpeg-installer\\win32-x64\\ffmpeg.exe',
    );
    expect(unpackedAsarPath('/opt/Kikitori/resources/app.asar.unpacked/node_modules/x')).toBe(
      '/opt/Kikitori/resources/app.asar.unpacked/node_modules/x',
    );
    expect(unpackedAsarPath('/home/me/kikitori/node_modules/@ffmpeg-installer/linux-x64/ffmpeg')).toBe(
      '/home/me/kikitori/node_modules/@ffmpeg-installer/linux-x64/ffmpeg',
    );
  });
});

describe('locateAudioTool', () => {
  it('has a bundled ffmpeg and ffprobe for this platform', () => {
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      const file = bundledAudioToolPath(tool);
      expect(file).toMatch(new RegExp(`@${tool}-installer/${process.platform}-${process.arch}/${tool}(\\.exe)?$`));
      fs.accessSync(file!, fs.constants.X_OK);
    }
  });

  it('uses the system program on PATH when nothing is configured', async () => {
    expect(await locateAudioTool('ffmpeg')).toMatchObject({
      tool: 'ffmpeg',
      command: 'ffmpeg',
      source: 'path',
      version: expect.any(String),
    });
  });

  it('uses a configured path first, and probes real audio with it', async () => {
    const bundled = bundledAudioToolPath('ffprobe')!;
    configureAudioTools({ ffprobePath: bundled });
    expect(await locateAudioTool('ffprobe')).toMatchObject({ command: bundled, source: 'configured' });
    const probe = await probeAudio(await synthesizeSpeech('the bundled probe reads this'));
    expect(probe).toMatchObject({ formatName: 'wav', channels: 1 });
  });

  it('refuses a configured path that does not run instead of silently using another one', async () => {
    configureAudioTools({ ffmpegPath: '/nonexistent/ffmpeg' });
    const error = await locateAudioTool('ffmpeg').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(
        /^Audio files cannot be converted on this server because its audio converter is missing\./,
      ),
      detail: expect.stringContaining('KIKITORI_FFMPEG_PATH=/nonexistent/ffmpeg'),
    });
    expect((error as Error).message).not.toMatch(/ffmpeg|ffprobe/); // the program's name is for operators: in the detail
    // Not remembered: fixing the setting works at once.
    configureAudioTools({ ffmpegPath: bundledAudioToolPath('ffmpeg')! });
    expect(await locateAudioTool('ffmpeg')).toMatchObject({ source: 'configured' });
  });

  it('describes both programs for `kikitori-server engines`', async () => {
    configureAudioTools({ ffmpegPath: '/nonexistent/ffmpeg' });
    const [ffmpeg, ffprobe] = await describeAudioTools();
    expect(ffmpeg).toMatchObject({
      tool: 'ffmpeg',
      usable: false,
      reason: expect.stringMatching(
        /audio converter is missing.*\(KIKITORI_FFMPEG_PATH=\/nonexistent\/ffmpeg does not run/,
      ),
    });
    expect(ffprobe).toMatchObject({ tool: 'ffprobe', usable: true, source: 'path' });
  });
});
