// @vitest-environment happy-dom
// The uploads store hears every change as an event, and also gets snapshots in replies (add, import,
// retry, list). A reply can arrive after events that moved the job on: it must not put it back.
import { beforeEach, describe, expect, it } from 'vitest';
import type { UploadJob } from '../../../../src-shared/ipc-contract';
import { useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import { installFakeApi, type FakeApi } from '../fake-api';

const job = (state: UploadJob['state'], id = 'j1'): UploadJob => ({
  id,
  filePath: `/rec/${id}.wav`,
  fileName: `${id}.wav`,
  size: 1000,
  sentBytes: state === 'done' ? 1000 : 0,
  state,
  transcriptionId: state === 'done' ? `t-${id}` : null,
  error: null,
  createdAt: '2026-01-01T00:00:00Z',
  startedAt: null,
});

let fake: FakeApi;
beforeEach(async () => {
  fake = installFakeApi({ 'uploads:list': () => [] });
  useUploadsStore.setState(useUploadsStore.getInitialState(), true);
  await useUploadsStore.getState().init();
});

describe('uploads store', () => {
  it('keeps what the events said when the reply to "add" arrives after them (a fast upload already done)', async () => {
    fake.handlers['uploads:add'] = () => {
      // Main queues, uploads and starts the file, sending each change, before its reply is read.
      fake.emit('uploads:changed', job('queued'));
      fake.emit('uploads:changed', job('uploading'));
      fake.emit('uploads:changed', job('done'));
      return [job('queued')];
    };
    await useUploadsStore.getState().addHandles(['handle of j1.wav']);
    expect(useUploadsStore.getState().jobs.map((j) => [j.id, j.state])).toEqual([['j1', 'done']]);
  });

  it('takes a replied job that no event has brought yet', async () => {
    fake.handlers['uploads:add'] = () => [job('queued', 'j2')];
    await useUploadsStore.getState().addHandles(['handle of j2.wav']);
    expect(useUploadsStore.getState().jobs.map((j) => [j.id, j.state])).toEqual([['j2', 'queued']]);
    fake.emit('uploads:changed', job('uploading', 'j2'));
    expect(useUploadsStore.getState().jobs.map((j) => [j.id, j.state])).toEqual([['j2', 'uploading']]);
  });

  it('keeps the events over the replies of a folder import and of "Try again"', async () => {
    fake.handlers['uploads:add-folder'] = () => {
      fake.emit('uploads:changed', job('starting', 'f1'));
      return { folder: 'Field recordings', jobs: [job('queued', 'f1')], skipped: {}, notMedia: {}, foldersTooDeep: 0 };
    };
    await useUploadsStore.getState().addFolder('handle of Field recordings');
    fake.handlers['uploads:retry'] = () => {
      fake.emit('uploads:changed', job('uploading', 'f1'));
      return job('queued', 'f1');
    };
    await useUploadsStore.getState().retry('f1');
    expect(useUploadsStore.getState().jobs.map((j) => [j.id, j.state])).toEqual([['f1', 'uploading']]);
  });

  it('hands main the handles of dropped files and folders, never a path', async () => {
    const folder = new File([], 'Interviews');
    const offered = installFakeApi(
      {
        'uploads:list': () => [],
        'uploads:add': () => [job('queued', 'd1')],
        'uploads:add-folder': () => ({ folder: 'Interviews', jobs: [], skipped: {}, notMedia: {}, foldersTooDeep: 0 }),
      },
      (file) => ({
        handle: `handle of ${file.name}`,
        kind: file === folder ? 'folder' : 'file',
        name: file.name,
        size: file === folder ? null : file.size,
      }),
    );
    await useUploadsStore.getState().addFiles([new File(['RIFF'], 'd1.wav'), folder]);
    expect(offered.calls.map((call) => [call.channel, call.request])).toEqual([
      ['uploads:add', { files: ['handle of d1.wav'], options: useUploadsStore.getState().options }],
      ['uploads:add-folder', { folder: 'handle of Interviews', options: useUploadsStore.getState().options }],
    ]);
  });
});

describe('files refused in a drop', () => {
  const notMedia = (name: string) => ({
    ok: false as const,
    error: { code: 'validation' as const, field: 'files', reason: 'app.not-media-text' as const, params: { name } },
  });

  it('queues the good files of a drop that also holds a bad one, and names the bad one', async () => {
    fake.handlers['uploads:add'] = ({ files }) =>
      files[0] === 'handle of notes.wav' ? notMedia('notes.wav') : [job('queued', 'good')];
    await useUploadsStore.getState().addHandles(['handle of notes.wav', 'handle of good.wav']);
    const state = useUploadsStore.getState();
    expect(state.jobs.map((j) => j.id)).toEqual(['good']);
    expect(state.refusals.map((r) => r.error.params?.name)).toEqual(['notes.wav']);
  });

  it('keeps each refusal through later good drops until the user dismisses it', async () => {
    fake.handlers['uploads:add'] = ({ files }) =>
      files[0]!.startsWith('handle of bad') ? notMedia(files[0]!.slice(10)) : [job('queued', files[0]!.slice(10))];
    await useUploadsStore.getState().addHandles(['handle of bad1.wav']);
    await useUploadsStore.getState().addHandles(['handle of bad2.wav']);
    await useUploadsStore.getState().addHandles(['handle of fine.wav']);
    const names = () => useUploadsStore.getState().refusals.map((r) => r.error.params?.name);
    expect(names()).toEqual(['bad1.wav', 'bad2.wav']);
    useUploadsStore.getState().dismissRefusal(useUploadsStore.getState().refusals[0]!.key);
    expect(names()).toEqual(['bad2.wav']);
  });
});

describe('a file dropped again', () => {
  it('is held with the earlier transcription to open, not uploaded a second time, until the user asks for it', async () => {
    fake.handlers['uploads:add'] = () => [job('queued', 'first')];
    await useUploadsStore.getState().addFiles([new File(['RIFF'], 'first.wav')]);
    fake.emit('uploads:changed', { ...job('done', 'first'), size: 4 });
    await useUploadsStore.getState().addFiles([new File(['RIFF'], 'first.wav')]);
    const adds = () => fake.calls.filter((call) => call.channel === 'uploads:add').length;
    expect(adds()).toBe(1);
    expect(useUploadsStore.getState().duplicates).toEqual([
      { offer: expect.objectContaining({ name: 'first.wav' }), transcriptionId: 't-first' },
    ]);
    // "Transcribe again" sends it after all.
    await useUploadsStore.getState().addDuplicate('handle of first.wav');
    expect(adds()).toBe(2);
    expect(useUploadsStore.getState().duplicates).toEqual([]);
  });

  it('is uploaded again when the earlier upload failed, or when only the name is the same', async () => {
    fake.handlers['uploads:add'] = () => [];
    fake.emit('uploads:changed', { ...job('failed', 'broken'), size: 4 });
    fake.emit('uploads:changed', { ...job('done', 'other'), size: 999 });
    await useUploadsStore.getState().addFiles([new File(['RIFF'], 'broken.wav'), new File(['RIFF'], 'other.wav')]);
    expect(fake.calls.filter((call) => call.channel === 'uploads:add').length).toBe(2);
    expect(useUploadsStore.getState().duplicates).toEqual([]);
  });
});
