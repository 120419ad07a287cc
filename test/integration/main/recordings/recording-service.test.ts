// Recordings on disk (decision 0027): chunks appended as they come, kept across a restart, queued like a
// dropped file, removed only when discarded or released. Real files, a real SQLite cache, the real
// upload manager (not started, so queued jobs stay queued and no server is needed).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UploadOptions } from '../../../../src-shared/ipc-contract.js';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { openCacheStore } from '../../../../src-main/cache/cache-store.js';
import { RecordingService } from '../../../../src-main/recordings/recording-service.js';
import { UploadManager } from '../../../../src-main/uploads/upload-manager.js';
import { tempDir } from '../../../support/test-server.js';
import { clientOf, shortSpeech } from '../main-test-support.js';

const OPTIONS: UploadOptions = {
  language: 'en',
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};

describe('recording service', () => {
  const root = tempDir('kikitori-recordings-');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  let n = 0;

  function setup(dir = path.join(root, `r${++n}`)) {
    const store = openCacheStore(':memory:');
    const uploads = new UploadManager({
      uploads: store.uploads,
      client: clientOf({ url: 'http://127.0.0.1:9' }, 'unused'),
      onChange: () => {},
    });
    const service = new RecordingService({
      dir,
      uploads,
      repository: store.uploads,
      now: () => new Date(2026, 10, 24, 14, 5, 9),
    });
    return { dir, store, uploads, service };
  }

  /** A real recording's bytes (a WAV of speech), cut in chunks as MediaRecorder would hand them over. */
  async function chunks(count: number): Promise<{ whole: Buffer; parts: Buffer[] }> {
    const whole = fs.readFileSync(await shortSpeech());
    const size = Math.ceil(whole.length / count);
    return { whole, parts: Array.from({ length: count }, (_, i) => whole.subarray(i * size, (i + 1) * size)) };
  }

  it('keeps every chunk on disk as it arrives, in order, and refuses gaps; a retried chunk is kept once', async () => {
    const { dir, service } = setup();
    const recording = await service.start('audio/webm;codecs=opus');
    expect(recording).toMatchObject({ fileName: 'Recording 2026-11-24 14.05.09.webm', size: 0, upload: null });
    const file = path.join(dir, recording.id, recording.fileName);
    expect(fs.statSync(file).size).toBe(0);

    const { whole, parts } = await chunks(5);
    let offset = 0;
    // Sent without waiting, as fast as the renderer could: still appended one after another.
    const answers = await Promise.all(
      parts.map((part) => {
        const at = offset;
        offset += part.length;
        return service.append(recording.id, at, part);
      }),
    );
    expect(answers.at(-1)).toEqual({ size: whole.length });
    expect(fs.readFileSync(file).equals(whole)).toBe(true);

    // The last chunk again (a call retried after a lost answer): nothing changes.
    expect(await service.append(recording.id, whole.length - parts.at(-1)!.length, parts.at(-1)!)).toEqual({
      size: whole.length,
    });
    // A chunk from the wrong place: refused, and the file is untouched.
    await expect(service.append(recording.id, whole.length + 10, parts[0]!)).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(service.append(recording.id, 3, parts[0]!)).rejects.toBeInstanceOf(AppFailure);
    expect(fs.readFileSync(file).equals(whole)).toBe(true);
  });

  it('refuses a format it cannot keep, and a recording it does not have', async () => {
    const { service } = setup();
    await expect(service.start('video/x-flv')).rejects.toMatchObject({ code: 'unsupported' });
    await expect(service.append('nope', 0, Buffer.from('x'))).rejects.toMatchObject({ code: 'not-found' });
    expect(await service.list()).toEqual([]);
  });

  it('keeps what was recorded when the app stops mid-recording, and lists it after a restart', async () => {
    const { dir, service } = setup();
    const recording = await service.start('audio/ogg;codecs=opus');
    const { parts } = await chunks(4);
    await service.append(recording.id, 0, parts[0]!);
    await service.append(recording.id, parts[0]!.length, parts[1]!);

    // A new session over the same folder, as after a crash.
    const after = setup(dir);
    const [listed] = await after.service.list();
    expect(listed).toMatchObject({
      id: recording.id,
      fileName: 'Recording 2026-11-24 14.05.09.ogg',
      size: parts[0]!.length + parts[1]!.length,
      upload: null,
    });
    // It can still be transcribed.
    const job = await after.service.finish(recording.id, OPTIONS);
    expect(job).toMatchObject({
      state: 'queued',
      fileName: listed!.fileName,
      filePath: path.join(dir, recording.id, listed!.fileName),
    });
  });

  it('queues a finished recording like a dropped file, lists its upload, and discards both', async () => {
    const { dir, store, service } = setup();
    const recording = await service.start('audio/webm');
    const { whole } = await chunks(1);
    await service.append(recording.id, 0, whole);
    const job = await service.finish(recording.id, OPTIONS);
    expect(store.uploads.get(job.id)).toMatchObject({ state: 'queued', options: OPTIONS, size: whole.length });
    expect((await service.list())[0]!.upload).toMatchObject({ id: job.id, state: 'queued' });

    await service.discard(recording.id);
    expect(fs.existsSync(path.join(dir, recording.id))).toBe(false);
    expect(store.uploads.get(job.id)).toBeNull();
    expect(await service.list()).toEqual([]);
  });

  it('keeps the recording when its upload is cancelled, and queues it again on retry', async () => {
    const { store, uploads, service } = setup();
    const recording = await service.start('audio/webm');
    const { whole } = await chunks(1);
    await service.append(recording.id, 0, whole);
    const job = await service.finish(recording.id, OPTIONS);
    await uploads.cancel(job.id);
    const [listed] = await service.list();
    expect(listed).toMatchObject({ id: recording.id, size: whole.length, upload: { id: job.id, state: 'cancelled' } });

    expect(await uploads.retry(job.id)).toMatchObject({ id: job.id, state: 'queued', error: null, sentBytes: 0 });
    expect(store.uploads.get(job.id)!.state).toBe('queued');
    // Once the file is gone, trying again says so instead of queueing what cannot be read.
    await uploads.cancel(job.id);
    fs.rmSync(path.join(listed!.upload!.filePath));
    await expect(uploads.retry(job.id)).rejects.toMatchObject({ code: 'validation', field: 'files' });
  });

  it('removes an empty recording instead of queueing it', async () => {
    const { dir, store, service } = setup();
    const recording = await service.start('audio/webm');
    await expect(service.finish(recording.id, OPTIONS)).rejects.toMatchObject({
      code: 'validation',
      error: { reason: 'app.recording-empty' },
    });
    expect(fs.existsSync(path.join(dir, recording.id))).toBe(false);
    expect(store.uploads.list()).toEqual([]);
  });

  it('releases a recording once its audio is kept elsewhere, and never touches other files', async () => {
    const { dir, service } = setup();
    const recording = await service.start('audio/webm');
    await service.append(recording.id, 0, Buffer.from('1234'));
    const outside = path.join(root, 'dropped.wav');
    fs.writeFileSync(outside, 'not a recording');
    await service.release(outside);
    await service.release(path.join(dir, recording.id));
    expect(fs.existsSync(outside)).toBe(true);
    expect(await service.list()).toHaveLength(1);

    await service.release(path.join(dir, recording.id, recording.fileName));
    expect(await service.list()).toEqual([]);
  });
});
