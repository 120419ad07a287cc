// @vitest-environment happy-dom
// An action item's owner badge names a person: a speaker by the name the transcript shows, a name said in
// the meeting as said, and nothing for a bare pronoun the summary kept when the sentence named no one.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SummaryPanel } from '../../../../src-renderer/features/analysis/summary-panel';
import { useAnalysisStore } from '../../../../src-renderer/stores/analysis-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import type { ActionItem } from '../../../../src-shared/analysis';
import type { AnalysisView } from '../../../../src-shared/ipc-contract';
import type { TranscriptSegment } from '../../../../src-shared/transcript-document';
import { installFakeApi, setUiLanguage, transcriptDetail } from '../fake-api';

const segment = (id: number, speaker: string): TranscriptSegment => ({
  id,
  start: id * 2,
  end: id * 2 + 2,
  speaker,
  text: 'Hello.',
  words: [],
});
const action = (text: string, owner: string | null): ActionItem => ({
  segment_id: 0,
  start: 0,
  end: 2,
  text,
  owner,
  due: null,
});
const actions = [
  action('We will send the report.', 'we'),
  action('You should check the numbers.', 'you'),
  action('Dana will book the room.', 'Dana'),
  action('I will write the minutes.', 'SPEAKER_1'),
  action('私たちで確認します。', '私たち'),
  action('Nobody said who.', null),
];
const view: AnalysisView = {
  kind: 'summary',
  status: 'COMPLETED',
  language: null,
  error: null,
  errorCode: null,
  summary: { text: 'x', overview: 'x', key_points: [], action_items: actions, decisions: [], dates: [] },
  emotions: null,
  translation: null,
  updatedAt: '2026-01-01T00:00:00Z',
  outdated: false,
};

beforeEach(() => {
  useAnalysisStore.setState({ slots: {}, targets: {} });
  const detail = transcriptDetail([segment(0, 'SPEAKER_1'), segment(1, 'SPEAKER_2')]);
  useTranscriptStore.setState({
    id: 't1',
    detail: { ...detail, speakerNames: { SPEAKER_1: 'Ines' } },
    loading: false,
    error: null,
  });
  installFakeApi({ 'analysis:get': ({ kind }) => (kind === 'summary' ? view : null) });
});
afterEach(() => {
  cleanup();
  setUiLanguage('en');
});

const badges = async () => {
  await screen.findByTestId('summary-result');
  return [...document.querySelectorAll('.moment-list li')].map((li) => li.querySelector('.badge')?.textContent ?? null);
};

describe('an action item’s owner', () => {
  it('shows a name, never a bare pronoun', async () => {
    setUiLanguage('en');
    render(<SummaryPanel id="t1" />);
    expect(await badges()).toEqual([null, null, 'Owner: Dana', 'Owner: Ines', null, null]);
  });

  it('does so in Japanese', async () => {
    setUiLanguage('ja');
    render(<SummaryPanel id="t1" />);
    expect(await badges()).toEqual([null, null, '担当：Dana', '担当：Ines', null, null]);
  });
});
