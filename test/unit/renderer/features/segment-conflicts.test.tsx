// @vitest-environment happy-dom
// The per-segment conflict view (issue 24): both versions side by side with their authors, a choice per
// segment, one Save settling them all; the whole-text banner stays for conflicts without segments.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcError, SegmentConflict, TranscriptDetail } from '../../../../src-shared/ipc-contract';
import { ConflictBanner } from '../../../../src-renderer/features/transcript/conflict-banner';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, summary, type FakeApi, setUiLanguage } from '../fake-api';

const CONFLICTS: SegmentConflict[] = [
  {
    segmentId: 0,
    start: 0,
    end: 4.2,
    mine: { text: 'please send the Kikitori report', speaker: 'SPEAKER_1' },
    theirs: { text: 'please send the quarterly report', speaker: 'SPEAKER_1' },
    theirAuthors: ['Bob', 'Carol'],
  },
  {
    segmentId: 1,
    start: 5,
    end: 7.5,
    mine: { text: 'the budget meeting moved', speaker: 'SPEAKER_1' },
    theirs: { text: 'the budget meeting moved', speaker: 'SPEAKER_2' },
    theirAuthors: ['Bob'],
  },
  {
    segmentId: 2,
    start: 8,
    end: 9,
    mine: { text: 'to next week', speaker: 'SPEAKER_2' },
    theirs: null,
    theirAuthors: ['Bob'],
  },
];

const NOT_SENT: IpcError = { code: 'conflict', reason: 'app.edits-conflict' };
const detail = (conflictSegments: SegmentConflict[] | undefined, conflict: IpcError | null): TranscriptDetail => ({
  summary: summary('t1'),
  speakerNames: { SPEAKER_1: 'Aiko' },
  unsyncedEdits: conflict !== null,
  conflict,
  ...(conflictSegments ? { conflictSegments } : {}),
  document: {
    transcription_id: 't1',
    text: '',
    language: 'en',
    duration: 10,
    speaking_duration: 10,
    segments: [
      { id: 0, start: 0, end: 4.2, speaker: 'SPEAKER_1', text: 'please send the Kikitori report', words: [] },
      { id: 1, start: 5, end: 7.5, speaker: 'SPEAKER_1', text: 'the budget meeting moved', words: [] },
      { id: 2, start: 8, end: 9, speaker: 'SPEAKER_2', text: 'to next week', words: [] },
    ],
    replacements: [],
    engine: { name: 'test', model: 'test', transcription_model: 'default' },
    created_at: '2026-01-01T00:00:00Z',
  },
});

let fake: FakeApi;
beforeEach(() => {
  fake = installFakeApi({ 'transcripts:settle-conflict': () => detail([], null) });
  useSettingsStore.setState({ settings: null });
  useTranscriptStore.setState({ id: 't1', detail: detail(CONFLICTS, NOT_SENT), loading: false, error: null });
});
afterEach(cleanup);

const segmentAt = (name: string) => screen.getByRole('group', { name });

describe('segment conflicts', () => {
  it('shows each segment side by side: yours and theirs with their authors, time, speakers by name, the differing words marked', () => {
    render(<ConflictBanner />);
    const view = screen.getByRole('region', { name: 'Someone else changed the same segments' });
    expect(within(view).getAllByTestId('segment-conflict')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Keep my corrections' })).toBeNull();

    const first = segmentAt('Segment 0:00–0:04');
    const mine = within(first).getByRole('group', { name: 'Your version (this computer)' });
    const theirs = within(first).getByRole('group', { name: 'Bob and Carol’s version (on the server)' });
    expect(mine.textContent).toBe('Your version (this computer)Speaker: Aikoplease send the Kikitori report');
    expect(theirs.textContent).toContain('please send the quarterly report');
    expect([...mine.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Kikitori']);
    expect([...theirs.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['quarterly']);

    // A speaker changed on the server: both named as the transcript names them.
    const second = segmentAt('Segment 0:05–0:07');
    expect(within(second).getByRole('group', { name: 'Bob’s version (on the server)' }).textContent).toContain(
      'Speaker: Speaker 2',
    );
    expect(within(second).getByRole('group', { name: 'Your version (this computer)' }).textContent).toContain(
      'Speaker: Aiko',
    );

    // Merged away on the server: only the server's version can be kept.
    const third = segmentAt('Segment 0:08–0:09');
    expect(third.textContent).toContain('Merged into a neighbouring segment on the server.');
    expect(within(third).getByRole<HTMLInputElement>('radio', { name: 'Keep my version' }).disabled).toBe(true);
    expect(within(third).getByRole<HTMLInputElement>('radio', { name: 'Write a merged text' }).disabled).toBe(true);
  });

  it('saves once every segment has a choice: mine, theirs, or a merged text prefilled with mine', async () => {
    render(<ConflictBanner />);
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(save.disabled).toBe(true);
    expect(screen.getByText('Chosen: 0 of 3')).toBeTruthy();

    const first = segmentAt('Segment 0:00–0:04');
    fireEvent.click(within(first).getByRole('radio', { name: 'Write a merged text' }));
    const merged = within(first).getByRole<HTMLTextAreaElement>('textbox', {
      name: 'Merged text of segment 0:00–0:04',
    });
    expect(merged.value).toBe('please send the Kikitori report');
    fireEvent.change(merged, { target: { value: 'please send the quarterly Kikitori report' } });
    fireEvent.click(within(segmentAt('Segment 0:05–0:07')).getByRole('radio', { name: 'Keep the server’s version' }));
    expect(save.disabled).toBe(true);
    fireEvent.click(within(segmentAt('Segment 0:08–0:09')).getByRole('radio', { name: 'Keep the server’s version' }));
    expect(screen.getByText('Chosen: 3 of 3')).toBeTruthy();
    expect(save.disabled).toBe(false);

    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByTestId('segment-conflicts')).toBeNull());
    // The segment merged away on the server is left out: its removal stands.
    expect(fake.calls).toContainEqual({
      channel: 'transcripts:settle-conflict',
      request: {
        id: 't1',
        segments: [
          { segmentId: 0, text: 'please send the quarterly Kikitori report', speaker: 'SPEAKER_1' },
          { segmentId: 1, text: 'the budget meeting moved', speaker: 'SPEAKER_2' },
        ],
      },
    });
    expect(useTranscriptStore.getState().detail).toMatchObject({ conflict: null, conflictSegments: [] });
  });

  it('keeping mine sends this computer’s text and speaker', async () => {
    useTranscriptStore.setState({ detail: detail(CONFLICTS.slice(0, 2), NOT_SENT) });
    render(<ConflictBanner />);
    for (const name of ['Segment 0:00–0:04', 'Segment 0:05–0:07'])
      fireEvent.click(within(segmentAt(name)).getByRole('radio', { name: 'Keep my version' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'transcripts:settle-conflict')).toBe(true));
    expect(fake.calls.find((c) => c.channel === 'transcripts:settle-conflict')!.request).toEqual({
      id: 't1',
      segments: [
        { segmentId: 0, text: 'please send the Kikitori report', speaker: 'SPEAKER_1' },
        { segmentId: 1, text: 'the budget meeting moved', speaker: 'SPEAKER_1' },
      ],
    });
  });

  it('keeps the choices and shows why when saving fails', async () => {
    fake.handlers['transcripts:settle-conflict'] = () => ({
      ok: false,
      error: { code: 'offline' },
    });
    useTranscriptStore.setState({ detail: detail(CONFLICTS.slice(0, 1), NOT_SENT) });
    render(<ConflictBanner />);
    fireEvent.click(within(segmentAt('Segment 0:00–0:04')).getByRole('radio', { name: 'Keep my version' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The server cannot be reached. Check the connection, then try again.',
    );
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Keep my version' }).checked).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(false);
  });

  it('keeps the whole-text banner for a conflict without segments', () => {
    useTranscriptStore.setState({ detail: detail([], { code: 'not-found', reason: 'app.edits-deleted' }) });
    render(<ConflictBanner />);
    expect(screen.getByRole('alert', { name: 'Your corrections were not sent' })).toBeTruthy();
    expect(screen.queryByTestId('segment-conflicts')).toBeNull();
  });

  it('speaks Japanese when the UI does', () => {
    setUiLanguage('ja');
    render(<ConflictBanner />);
    expect(screen.getByRole('region', { name: '同じ区間がサーバー上でも変更されています' })).toBeTruthy();
    const first = segmentAt('区間 0:00–0:04');
    expect(within(first).getByRole('group', { name: 'あなたの版（このコンピューター）' })).toBeTruthy();
    expect(within(first).getByRole('group', { name: 'Bob、Carol さんの版（サーバー上）' })).toBeTruthy();
    expect(within(first).getByRole('radio', { name: '自分の版を残す' })).toBeTruthy();
    expect(within(first).getByRole('radio', { name: 'サーバーの版を使う' })).toBeTruthy();
    expect(within(first).getByRole('radio', { name: '統合したテキストを書く' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '保存' })).toBeTruthy();
    expect(screen.getByText('3 件中 0 件を選択済み')).toBeTruthy();
  });
});
