// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import type { IpcResult, TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { installFakeApi, summary } from '../fake-api';

const detailOf = (id: string): TranscriptDetail => ({
  summary: summary(id),
  document: null,
  speakerNames: {},
  unsyncedEdits: false,
  conflict: null,
});

beforeEach(() => {
  useTranscriptStore.setState(useTranscriptStore.getInitialState(), true);
});

describe('transcript store', () => {
  it('drops the answer for a transcript that is no longer open', async () => {
    const pending = new Map<string, (result: IpcResult<TranscriptDetail>) => void>();
    installFakeApi({ 'transcripts:get': ({ id }) => new Promise((resolve) => pending.set(id, resolve)) });
    const first = useTranscriptStore.getState().open('a');
    const second = useTranscriptStore.getState().open('b');
    expect(useTranscriptStore.getState().loading).toBe(true);
    pending.get('b')!({ ok: true, value: detailOf('b') });
    pending.get('a')!({ ok: true, value: detailOf('a') });
    await Promise.all([first, second]);
    expect(useTranscriptStore.getState()).toMatchObject({
      id: 'b',
      loading: false,
      error: null,
      detail: { summary: { id: 'b' } },
    });
  });

  it('keeps the shown transcript when a background reload fails, with the error', async () => {
    let fail = false;
    installFakeApi({
      'transcripts:get': ({ id }) => (fail ? { ok: false, error: { code: 'offline', message: 'down' } } : detailOf(id)),
    });
    await useTranscriptStore.getState().open('a');
    fail = true;
    await useTranscriptStore.getState().reload();
    expect(useTranscriptStore.getState()).toMatchObject({
      detail: { summary: { id: 'a' } },
      loading: false,
      error: { code: 'offline' },
    });
  });

  it('ignores an answer that arrives after the transcript was closed', async () => {
    let release!: () => void;
    installFakeApi({
      'transcripts:get': ({ id }) => new Promise((resolve) => (release = () => resolve(detailOf(id)))),
    });
    const opening = useTranscriptStore.getState().open('a');
    useTranscriptStore.getState().close();
    release();
    await opening;
    expect(useTranscriptStore.getState()).toMatchObject({ id: null, detail: null, loading: false });
  });
});
