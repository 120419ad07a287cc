// @vitest-environment happy-dom
// A transcription still being processed: the transcript view already has the player, says the stage,
// percent and time left, and fills in the transcript when main says it changed, without a reload.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptDetail, TranscriptionSummary } from '../../../../src-shared/ipc-contract';
import { TranscriptView } from '../../../../src-renderer/features/transcript/transcript-view';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, summary, transcriptDetail, type FakeApi } from '../fake-api';

const start = Date.parse('2026-01-02T03:00:00.000Z');
const running = (patch: Partial<TranscriptionSummary> = {}): TranscriptDetail => ({
  summary: summary('t1', {
    status: 'IN_PROGRESS',
    progress: 0.3,
    stage: 'recognizing',
    processingStartedAt: new Date(start - 60_000).toISOString(),
    ...patch,
  }),
  document: null,
  speakerNames: {},
  unsyncedEdits: false,
  conflict: null,
});
const words = ['budget', 'meeting', 'moved'].map((word, i) => ({ word, start: i, end: i + 0.8, confidence: 0.9 }));
const completed = transcriptDetail([{ id: 0, start: 0, end: 3, speaker: null, text: 'budget meeting moved', words }]);

let fake: FakeApi;
let current: TranscriptDetail;
beforeEach(() => {
  current = running();
  fake = installFakeApi({ 'transcripts:get': () => current });
  useTranscriptStore.setState(useTranscriptStore.getInitialState(), true);
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function changed(detail: TranscriptDetail) {
  current = detail;
  await act(async () => {
    fake.emit('transcripts:changed', { ids: ['t1'] });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('a running transcription', () => {
  it('shows the player, the stage, percent and time left, then the transcript when it completes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const unsubscribe = useTranscriptStore.getState().init();
    render(<TranscriptView id="t1" />);
    const panel = await screen.findByTestId('running-panel');
    expect(panel.textContent).toContain('Recognizing speech · 30%');
    expect(panel.textContent).not.toContain('left');
    // 10% more in 20 s: the other 60% takes two minutes.
    vi.setSystemTime(start + 20_000);
    await changed(running({ progress: 0.4 }));
    expect(panel.textContent).toContain('Recognizing speech · 40% · about 2 min left');
    expect(screen.getByRole('region', { name: 'Player' })).toBeTruthy();
    // The player asked main for the recording and its waveform while the transcription runs.
    expect(fake.calls.map((c) => c.channel)).toEqual(expect.arrayContaining(['audio:peaks', 'audio:source']));

    await changed(completed);
    expect(await screen.findByText('budget')).toBeTruthy();
    expect(screen.getByTestId('transcript-view').textContent).toContain('meeting');
    expect(screen.queryByTestId('running-panel')).toBeNull();
    unsubscribe();
  });

  it('says the status when the server gives no stage, and no time left before it means something', async () => {
    current = running({ stage: null, progress: 0.05 });
    render(<TranscriptView id="t1" />);
    const panel = await screen.findByTestId('running-panel');
    expect(panel.textContent).toContain('Transcribing · 5%');
    expect(panel.textContent).not.toContain('left');
  });
});

describe('transcribing again in place', () => {
  it('keeps the old transcript readable and says the stage and percent above it, as the library row does', async () => {
    current = { ...completed, summary: { ...running().summary } };
    render(<TranscriptView id="t1" />);
    const strip = await screen.findByTestId('running-strip');
    expect(strip.textContent).toContain('Recognizing speech · 30%');
    expect(await screen.findByText('budget')).toBeTruthy();
    expect(screen.queryByTestId('running-panel')).toBeNull();
  });
});
