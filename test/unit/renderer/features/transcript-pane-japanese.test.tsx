// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { TranscriptPane } from '../../../../src-renderer/features/transcript/transcript-pane';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { transcriptDetail } from '../fake-api';

const word = (w: string, start: number, end: number) => ({ word: w, start, end, confidence: 0.95 });
const detail = (language: string, words: ReturnType<typeof word>[]): TranscriptDetail =>
  transcriptDetail([{ id: 0, start: 0, end: 3, speaker: null, text: '', words }], { language });

afterEach(cleanup);

describe('TranscriptPane in Japanese', () => {
  it('shows Japanese words unspaced, and English words spaced', () => {
    useTranscriptStore.setState({
      id: 't1',
      detail: detail('ja', [word('今日', 0, 1), word('は', 1, 2), word('晴れ。', 2, 3)]),
      loading: false,
      error: null,
    });
    const { unmount } = render(<TranscriptPane />);
    expect(screen.getByText('今日').closest('p')!.textContent).toBe('今日は晴れ。');
    unmount();
    useTranscriptStore.setState({
      id: 't1',
      detail: detail('en', [word('good', 0, 1), word('morning', 1, 2)]),
      loading: false,
      error: null,
    });
    render(<TranscriptPane />);
    expect(screen.getByText('good').closest('p')!.textContent).toBe('good morning ');
  });
});
