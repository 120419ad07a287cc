// The folder walk behind "Import folder…", over real files: speech in WAV and MP3, a PDF, text, an
// empty file, hidden files, nested and too-deep folders, and a link loop.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FOLDER_DEPTH, scanFolder } from '../../../../src-main/uploads/folder-scan.js';
import { encodeAudio } from '../../../support/audio-fixtures.js';
import { tempDir } from '../../../support/test-server.js';
import { shortSpeech } from '../main-test-support.js';

describe('folder scan', () => {
  const dir = tempDir('kikitori-folder-');
  const root = path.join(dir, 'Interviews');
  const put = (relative: string, content: string | Buffer) => {
    const file = path.join(root, ...relative.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  };

  beforeAll(async () => {
    const wav = fs.readFileSync(await shortSpeech());
    const mp3 = fs.readFileSync(
      await encodeAudio(await shortSpeech(), path.join(dir, 'speech.mp3'), ['-c:a', 'libmp3lame', '-b:a', '64k']),
    );
    put('take 10.wav', wav);
    put('take 2.wav', wav);
    put('notes.txt', 'Questions for the second interview\n1. Budget\n');
    put(
      'agenda.pdf',
      Buffer.concat([
        Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1'),
        Buffer.alloc(200, 0x20),
      ]),
    );
    put('empty.wav', '');
    put('.DS_Store', Buffer.alloc(64, 1));
    put('.hidden/secret.wav', wav);
    put('2024/March/visit.mp3', mp3);
    // One level deeper than followed.
    put(`${Array.from({ length: MAX_FOLDER_DEPTH + 1 }, (_, i) => `d${i}`).join('/')}/deep.wav`, wav);
    fs.symlinkSync(root, path.join(root, '2024', 'loop'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds the recordings in file-manager order, files before subfolders, and counts the rest by why they were left out', async () => {
    const scan = await scanFolder(root);
    expect(scan.files.map((file) => file.relativePath)).toEqual(['take 2.wav', 'take 10.wav', '2024/March/visit.mp3']);
    expect(scan.files.every((file) => file.size > 0 && path.isAbsolute(file.filePath))).toBe(true);
    // Counted by reason and by what they look like, never named (decision 0046).
    expect(scan.skipped).toEqual({ 'not-media': 2, empty: 1 });
    expect(scan.notMedia).toEqual({ pdf: 1, text: 1 });
    expect(JSON.stringify({ skipped: scan.skipped, notMedia: scan.notMedia })).not.toMatch(/agenda|notes|empty\.wav/);
    // d0/…/d7 are walked; d8 (holding deep.wav) is not, and the link back to the root is not followed.
    expect(scan.tooDeep).toBe(1);
  });

  it('queues no more than its bound, and reports the rest', async () => {
    const scan = await scanFolder(root, { files: 2 });
    expect(scan.files.map((file) => file.relativePath)).toEqual(['take 2.wav', 'take 10.wav']);
    expect(scan.skipped).toEqual({ 'not-media': 2, empty: 1, 'too-many': 1 });
  });

  it('walks a shallower depth when asked', async () => {
    const scan = await scanFolder(root, { depth: 0 });
    expect(scan.files.map((file) => file.relativePath)).toEqual(['take 2.wav', 'take 10.wav']);
    expect(scan.tooDeep).toBe(2); // 2024 and d0
  });
});
