// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisView } from '../../../../src-shared/ipc-contract';
import { analysisKey, useAnalysisStore } from '../../../../src-renderer/stores/analysis-store';
import { installFakeApi } from '../fake-api';

const view = (status: AnalysisView['status']): AnalysisView => ({
  kind: 'summary',
  status,
  language: null,
  error: null,
  errorCode: null,
  summary:
    status === 'COMPLETED'
      ? { text: 'Short.', overview: 'Short.', key_points: [], action_items: [], decisions: [], dates: [] }
      : null,
  emotions: null,
  translation: null,
  updatedAt: '2026-01-01T00:00:00Z',
  outdated: false,
});

beforeEach(() => useAnalysisStore.setState(useAnalysisStore.getInitialState(), true));

describe('analysis store', () => {
  it('requests an analysis, then fetches it again when main says it changed', async () => {
    let status: AnalysisView['status'] = 'IN_PROGRESS';
    const fake = installFakeApi({
      'analysis:get': () => view(status),
      'analysis:request': () => view('IN_PROGRESS'),
    });
    const off = useAnalysisStore.getState().init();
    await useAnalysisStore.getState().request('t1', 'summary');
    expect(useAnalysisStore.getState().slots[analysisKey('t1', 'summary')]?.view?.status).toBe('IN_PROGRESS');

    status = 'COMPLETED';
    fake.emit('analysis:changed', { id: 't1', kind: 'summary', language: null });
    await expect
      .poll(() => useAnalysisStore.getState().slots[analysisKey('t1', 'summary')]?.view?.status)
      .toBe('COMPLETED');
    // Another transcription's change is not fetched.
    const before = fake.calls.length;
    fake.emit('analysis:changed', { id: 'other', kind: 'summary', language: null });
    expect(fake.calls.length).toBe(before);
    off();
  });

  it('keeps the error of a refused request in the slot', async () => {
    installFakeApi({
      'analysis:request': () => ({ ok: false, error: { code: 'conflict', message: 'Not finished yet.' } }),
    });
    const error = await useAnalysisStore.getState().request('t1', 'emotion');
    expect(error?.code).toBe('conflict');
    expect(useAnalysisStore.getState().slots[analysisKey('t1', 'emotion')]).toMatchObject({
      requesting: false,
      error: { code: 'conflict' },
    });
  });

  it('shows a refused translation in the slot the panel reads, the latest translation (issue 12)', async () => {
    installFakeApi({
      'analysis:request': () => ({
        ok: false,
        error: { code: 'unsupported', field: 'language', message: 'This server cannot translate into Klingon.' },
      }),
    });
    await useAnalysisStore.getState().request('t1', 'translation', 'tlh');
    expect(useAnalysisStore.getState().slots[analysisKey('t1', 'translation')]).toMatchObject({
      requesting: false,
      error: { field: 'language' },
    });
    expect(useAnalysisStore.getState().slots[analysisKey('t1', 'translation', 'tlh')]).toMatchObject({
      error: { field: 'language' },
    });
  });
});
