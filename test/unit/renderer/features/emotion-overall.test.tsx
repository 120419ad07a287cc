// @vitest-environment happy-dom
// The tester read "Overall: Joy (35%)" beside Joy segments at 38 % and 82 % as a mistake: the overall score
// is the length-weighted mean over all the speech, calm segments included. The panel says so, and in how
// many segments the overall emotion is the strongest, in English and Japanese.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmotionPanel } from '../../../../src-renderer/features/analysis/emotion-panel';
import { useAnalysisStore } from '../../../../src-renderer/stores/analysis-store';
import { EMOTION_LABELS, type EmotionEntry, type EmotionLabel } from '../../../../src-shared/analysis';
import type { AnalysisView } from '../../../../src-shared/ipc-contract';
import { installFakeApi, setUiLanguage } from '../fake-api';

function entry(segment: number | null, start: number, end: number, label: EmotionLabel, score: number): EmotionEntry {
  const rest = (1 - score) / (EMOTION_LABELS.length - 1);
  const scores = Object.fromEntries(
    EMOTION_LABELS.map((l) => [l, l === label ? score : rest]),
  ) as EmotionEntry['scores'];
  return { segment_id: segment, start, end, speaker: null, label, score, scores };
}

const view: AnalysisView = {
  kind: 'emotion',
  status: 'COMPLETED',
  language: null,
  error: null,
  errorCode: null,
  summary: null,
  emotions: [
    entry(0, 0, 4, 'joy', 0.38),
    entry(1, 4, 6, 'neutral', 0.6),
    entry(2, 6, 8, 'joy', 0.82),
    entry(null, 0, 8, 'joy', 0.35),
  ],
  translation: null,
  updatedAt: '2026-01-01T00:00:00Z',
  outdated: false,
};

beforeEach(() => {
  useAnalysisStore.setState({ slots: {}, targets: {} });
  installFakeApi({ 'analysis:get': () => view });
});
afterEach(cleanup);

describe('the overall emotion', () => {
  it('says its score is an average over all the speech, and where the label is the strongest', async () => {
    setUiLanguage('en');
    render(<EmotionPanel id="t1" />);
    await waitFor(() => expect(screen.getByTestId('emotion-overall')).toBeTruthy());
    expect(screen.getByTestId('emotion-overall').textContent).toBe(
      'Overall: Joy, 35% on average over all the speech (longer segments count more). The strongest emotion in 2 of 3 segments.',
    );
  });

  it('says so in Japanese', async () => {
    setUiLanguage('ja');
    render(<EmotionPanel id="t1" />);
    await waitFor(() => expect(screen.getByTestId('emotion-overall')).toBeTruthy());
    expect(screen.getByTestId('emotion-overall').textContent).toMatch(/発話全体の平均 35%/);
    expect(screen.getByTestId('emotion-overall').textContent).toMatch(/3 区間中 2 区間で最も強い感情です。/);
  });
});
