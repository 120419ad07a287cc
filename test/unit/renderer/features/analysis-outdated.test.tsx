// @vitest-environment happy-dom
// A summary made before the transcript was edited says so, in the UI's language, and offers to run it
// again; an edit of the open transcript reads the results shown again, so the marker appears without
// reopening anything.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnalysisPanels } from '../../../../src-renderer/features/analysis/analysis-panels';
import { useAnalysisStore } from '../../../../src-renderer/stores/analysis-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import type { AnalysisView } from '../../../../src-shared/ipc-contract';
import type { TranscriptSegment } from '../../../../src-shared/transcript-document';
import { installFakeApi, setUiLanguage, transcriptDetail, type FakeApi } from '../fake-api';

const segment = (text: string): TranscriptSegment => ({ id: 0, start: 0, end: 2, speaker: null, text, words: [] });

const summaryView = (outdated: boolean): AnalysisView => ({
  kind: 'summary',
  status: 'COMPLETED',
  language: null,
  error: null,
  errorCode: null,
  summary: { text: 'Hello.', overview: 'Hello.', key_points: [], action_items: [], decisions: [], dates: [] },
  emotions: null,
  translation: null,
  updatedAt: '2026-01-01T00:00:00Z',
  outdated,
});

let fake: FakeApi;
let outdated: boolean;
beforeEach(() => {
  outdated = false;
  useAnalysisStore.setState({ slots: {}, targets: {} });
  useTranscriptStore.setState({ id: 't1', detail: transcriptDetail([segment('Hello.')]), loading: false, error: null });
  fake = installFakeApi({
    'analysis:get': ({ kind }) => (kind === 'summary' ? summaryView(outdated) : null),
    'analysis:request': () => ({ ...summaryView(false), status: 'IN_PROGRESS', summary: null }),
  });
});
afterEach(cleanup);

const status = () => screen.getByTestId('analysis-status-summary');

describe('an outdated analysis', () => {
  it('is marked when an edit leaves it behind the transcript, and runs again from the marker', async () => {
    setUiLanguage('en');
    render(<AnalysisPanels id="t1" />);
    await waitFor(() => expect(status().textContent).toBe('Ready'));
    expect(screen.queryByTestId('analysis-outdated-summary')).toBeNull();

    // The transcript is edited: main now says the summary is from an older revision.
    outdated = true;
    act(() =>
      useTranscriptStore.setState({ detail: { ...transcriptDetail([segment('Hello there.')]), unsyncedEdits: true } }),
    );
    await waitFor(() => expect(status().textContent).toBe('Out of date'));
    expect(status().dataset.outdated).toBe('true');
    expect(screen.getByTestId('analysis-outdated-summary').textContent).toMatch(
      /The transcript changed since this was made/,
    );
    const rerun = screen.getByTestId('analysis-request-summary');
    expect(rerun.textContent).toBe('Run again');
    fireEvent.click(rerun);
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'analysis:request')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('analysis-outdated-summary')).toBeNull());
  });

  it('says so in Japanese', async () => {
    setUiLanguage('ja');
    outdated = true;
    render(<AnalysisPanels id="t1" />);
    await waitFor(() => expect(status().textContent).toBe('古い結果'));
    expect(screen.getByTestId('analysis-outdated-summary').textContent).toMatch(/文字起こしが変更されました/);
    expect(screen.getByTestId('analysis-request-summary').textContent).toBe('もう一度実行');
  });
});
