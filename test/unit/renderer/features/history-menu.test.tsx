// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptDetail, TranscriptRevisions } from '../../../../src-shared/ipc-contract';
import { HistoryMenu } from '../../../../src-renderer/features/transcript/history-menu';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, summary, type FakeApi, setUiLanguage } from '../fake-api';

const detail = (text: string, revision: number): TranscriptDetail => ({
  summary: summary('t1'),
  speakerNames: {},
  unsyncedEdits: false,
  conflict: null,
  document: {
    transcription_id: 't1',
    text,
    language: 'en',
    duration: 2,
    speaking_duration: 2,
    segments: [{ id: 0, start: 0, end: 2, speaker: null, text, words: [] }],
    replacements: [],
    engine: { name: 'test', model: 'test', transcription_model: 'default' },
    created_at: '2026-01-01T00:00:00Z',
    revision,
  },
});
const revisions = (latest: number): TranscriptRevisions => ({
  latest,
  revisions: [
    { revision: 1, createdAt: '2026-01-01T00:00:00Z', author: 'Alice', source: 'recognized', summary: 'Recognized' },
    { revision: 2, createdAt: '2026-01-02T00:00:00Z', author: 'Bob', source: 'edit', summary: 'Edited 1 segment' },
    ...(latest > 2
      ? [
          {
            revision: 3,
            createdAt: '2026-01-03T00:00:00Z',
            author: 'Alice',
            source: 'restore' as const,
            summary: 'Restored revision 1',
          },
        ]
      : []),
  ],
});

let fake: FakeApi;
let latest = 2;
beforeEach(() => {
  latest = 2;
  fake = installFakeApi({
    'transcripts:revisions': () => revisions(latest),
    'transcripts:restore-revision': () => {
      latest = 3;
      return detail('as recognized', 3);
    },
  });
  useSettingsStore.setState({ settings: null });
  useTranscriptStore.setState({ id: 't1', detail: detail('edited', 2), loading: false, error: null });
});
afterEach(cleanup);

describe('HistoryMenu', () => {
  it('lists the revisions newest first with author, time and what made each (the server summary as its detail); the shown one cannot be restored', async () => {
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'History…' }));
    const dialog = screen.getByRole('dialog', { name: 'Versions on the server' });
    const items = await within(dialog).findAllByTestId('history-revision');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/Version 2.*Shown now.*by Bob.*Edited/),
      expect.stringMatching(/Version 1.*by Alice.*As recognized.*Restore/),
    ]);
    expect(within(items[0]!).getByText('Edited').getAttribute('title')).toBe('Edited 1 segment');
    expect(within(dialog).queryByRole('button', { name: 'Restore version 2' })).toBeNull();
    expect(fake.calls).toContainEqual({ channel: 'transcripts:revisions', request: { id: 't1' } });
  });

  it('restores a revision, shows the transcript the server answers, and lists the new revision', async () => {
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'History…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    await waitFor(() => expect(screen.getAllByTestId('history-revision')).toHaveLength(3));
    expect(fake.calls).toContainEqual({ channel: 'transcripts:restore-revision', request: { id: 't1', revision: 1 } });
    expect(useTranscriptStore.getState().detail).toMatchObject({
      document: { revision: 3, segments: [{ text: 'as recognized' }] },
    });
    expect(screen.getAllByTestId('history-revision')[0]!.textContent).toMatch(/Version 3.*An earlier version restored/);
  });

  it('shows why a restore was refused, and keeps the list', async () => {
    fake.handlers['transcripts:restore-revision'] = () => ({
      ok: false,
      error: { code: 'conflict', message: 'Someone changed this transcript meanwhile.' },
    });
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'History…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Someone changed this transcript meanwhile.');
    expect(screen.getAllByTestId('history-revision')).toHaveLength(2);
    expect(useTranscriptStore.getState().detail?.document?.revision).toBe(2);
  });

  it('speaks Japanese when the UI does', async () => {
    setUiLanguage('ja');
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: '履歴…' }));
    expect(screen.getByRole('dialog', { name: 'サーバー上の版' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: '第1版を復元' })).toBeTruthy();
    expect(screen.getByText('表示中')).toBeTruthy();
    // What made each version is in Japanese; the server's English summary is only its detail.
    expect(screen.getByText('編集').getAttribute('title')).toBe('Edited 1 segment');
    expect(screen.getByText('認識した結果')).toBeTruthy();
    expect(screen.queryByText('Edited 1 segment')).toBeNull();
  });
});
