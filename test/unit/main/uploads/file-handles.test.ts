// The registry behind the handles the renderer holds instead of paths (decision 0046), over real files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileHandles, HANDLE_LIFETIME_MS, MAX_HANDLES } from '../../../../src-main/uploads/file-handles.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('file handles', () => {
  const dir = tempDir('kikitori-handles-');
  const file = path.join(dir, 'take 1.wav');
  const folder = path.join(dir, 'Interviews');
  fs.writeFileSync(file, Buffer.alloc(1234, 1));
  fs.mkdirSync(folder);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return (error as { error: unknown }).error;
    }
    throw new Error('accepted');
  };

  it('offers a random handle per path with what the page may show, and answers its path once', async () => {
    const handles = new FileHandles();
    const [offered, again] = await handles.offer([file, file]);
    expect(offered).toEqual({
      handle: expect.stringMatching(/^file-[0-9a-f]{32}$/),
      kind: 'file',
      name: 'take 1.wav',
      size: 1234,
    });
    expect(again!.handle).not.toBe(offered!.handle);
    expect(JSON.stringify(offered)).not.toContain(dir);
    expect(handles.take(offered!.handle, 'file', 'file')).toBe(file);
    // Taken once: a replay is refused.
    expect(refusal(() => handles.take(offered!.handle, 'file', 'file'))).toMatchObject({
      code: 'not-found',
      field: 'file',
    });
    const [shownFolder] = await handles.offer([folder]);
    expect(shownFolder).toMatchObject({ kind: 'folder', name: 'Interviews', size: null });
  });

  it('refuses a handle it never issued, one of the other kind, and one past its lifetime', async () => {
    let now = 1_000_000;
    const handles = new FileHandles(() => now);
    const [fileOffer, folderOffer] = await handles.offer([file, folder]);
    expect(refusal(() => handles.take(`file-${'0'.repeat(32)}`, 'file', 'files.0'))).toMatchObject({
      code: 'not-found',
      field: 'files.0',
      reason: 'app.file-forgotten',
    });
    expect(refusal(() => handles.take(folderOffer!.handle, 'file', 'files.0'))).toMatchObject({ code: 'not-found' });
    expect(refusal(() => handles.take(fileOffer!.handle, 'folder', 'folder'))).toMatchObject({
      code: 'not-found',
      reason: 'app.folder-forgotten',
    });
    now += HANDLE_LIFETIME_MS;
    expect(refusal(() => handles.take(fileOffer!.handle, 'file', 'file'))).toMatchObject({ code: 'not-found' });
    expect(refusal(() => handles.take(folderOffer!.handle, 'folder', 'folder'))).toMatchObject({ code: 'not-found' });
  });

  it('takes all of a request or none of it, and refuses the same handle twice in one request', async () => {
    const handles = new FileHandles();
    const [a, b] = await handles.offer([file, file]);
    expect(refusal(() => handles.takeAll([a!.handle, `file-${'1'.repeat(32)}`], 'file', 'files'))).toMatchObject({
      code: 'not-found',
      field: 'files.1',
    });
    expect(refusal(() => handles.takeAll([a!.handle, a!.handle], 'file', 'files'))).toMatchObject({
      code: 'validation',
      field: 'files.1',
    });
    expect(handles.takeAll([a!.handle, b!.handle], 'file', 'files')).toEqual([file, file]);
  });

  it('refuses a path that is not there, and keeps at most MAX_HANDLES (the oldest go first)', async () => {
    const handles = new FileHandles();
    const gone = await handles.offer([path.join(dir, 'gone.wav')]).catch((error: { error: unknown }) => error.error);
    expect(gone).toMatchObject({ code: 'not-found', reason: 'app.file-unreadable', params: { name: 'gone.wav' } });
    const [first] = await handles.offer([file]);
    const rest = await handles.offer(Array.from({ length: MAX_HANDLES }, () => file));
    expect(refusal(() => handles.take(first!.handle, 'file', 'file'))).toMatchObject({ code: 'not-found' });
    expect(handles.take(rest.at(-1)!.handle, 'file', 'file')).toBe(file);
  });
});
