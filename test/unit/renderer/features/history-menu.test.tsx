// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RevisionChanges, TranscriptDetail, TranscriptRevisions } from '../../../../src-shared/ipc-contract';
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

const changes: RevisionChanges = {
  revision: 2,
  language: 'en',
  segments: [
    {
      segmentId: 0,
      start: 72,
      before: { text: 'the budget meeting', speaker: 'SPEAKER_1' },
      after: { text: 'the Q3 budget review', speaker: 'SPEAKER_2' },
    },
    { segmentId: 1, start: 80, before: { text: 'merged away', speaker: 'SPEAKER_1' }, after: null },
  ],
  moreSegments: 3,
  speakerNames: [{ speaker: 'SPEAKER_1', before: null, after: 'Aiko' }],
  replacements: [{ pattern: 'budget', replacement: 'Q3 budget', count: 2 }],
};

let fake: FakeApi;
let latest = 2;
beforeEach(() => {
  latest = 2;
  fake = installFakeApi({
    'transcripts:revisions': () => revisions(latest),
    'transcripts:revision-changes': () => changes,
    'transcripts:restore-revision': () => {
      latest = 3;
      return detail('as recognized', 3);
    },
  });
  useSettingsStore.setState({ settings: null });
  const shown = detail('edited', 2);
  shown.document!.segments = [
    { id: 0, start: 72, end: 74, speaker: 'SPEAKER_1', text: 'the Q3 budget review', words: [] },
    { id: 2, start: 90, end: 92, speaker: 'SPEAKER_2', text: 'thanks', words: [] },
  ];
  shown.speakerNames = { SPEAKER_1: 'Aiko' };
  useTranscriptStore.setState({ id: 't1', detail: shown, loading: false, error: null });
});
afterEach(cleanup);

describe('HistoryMenu', () => {
  it('lists the revisions newest first with author, time and what made each (what it changed in its tooltip, in the UI’s words); the shown one cannot be restored', async () => {
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'History…' }));
    const dialog = screen.getByRole('dialog', { name: 'Versions on the server' });
    const items = await within(dialog).findAllByTestId('history-revision');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/Version 2.*Shown now.*by Bob.*Edited/),
      expect.stringMatching(/Version 1.*by Alice.*As recognized.*Restore/),
    ]);
    // The tooltip says what changed in the UI's words, once the changes are read (the pointer reaching
    // the version reads them); never the server's English summary with its internal labels.
    const edited = within(items[0]!).getByText('Edited');
    expect(edited.getAttribute('title')).toBeNull();
    fireEvent.mouseEnter(within(items[0]!).getByRole('button', { name: /^Version 2/ }));
    await waitFor(() =>
      expect(edited.getAttribute('title')).toBe(
        '5 segments changed; 1 speaker name changed; 2 words replaced by a dictionary',
      ),
    );
    expect(within(items[1]!).getByText('As recognized').getAttribute('title')).toBe(
      'The transcript as recognized: there is no earlier version to compare with.',
    );
    expect(dialog.innerHTML).not.toContain('Edited 1 segment');
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
      error: { code: 'conflict', reason: 'app.restore-changed' },
    });
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'History…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Someone changed this transcript meanwhile. Look at its history again, then restore.',
    );
    expect(screen.getAllByTestId('history-revision')).toHaveLength(2);
    expect(useTranscriptStore.getState().detail?.document?.revision).toBe(2);
  });

  it('selecting a version shows what it changed under it: each segment before and after, the changed words marked, speakers by their names', async () => {
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'History…' }));
    const select = await screen.findByRole('button', { name: /^Version 2/ });
    expect(select.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(select);
    expect(select.getAttribute('aria-expanded')).toBe('true');
    const region = screen.getByRole('region', { name: 'What changed in version 2' });
    expect(select.getAttribute('aria-controls')).toBe(region.id);
    const [edited, removed] = await within(region).findAllByTestId('history-change');
    expect(fake.calls).toContainEqual({ channel: 'transcripts:revision-changes', request: { id: 't1', revision: 2 } });

    // Time, and the speaker change by the names the transcript shows (Aiko; the unnamed one as "Speaker 2").
    expect(edited!.textContent).toMatch(/^1:12 · Aiko → Speaker 2/);
    expect(within(edited!).getByText('Before').nextElementSibling!.textContent).toBe('the budget meeting');
    expect(within(edited!).getByText('After').nextElementSibling!.textContent).toBe('the Q3 budget review');
    expect([...edited!.querySelectorAll('del')].map((d) => d.textContent)).toEqual(['meeting']);
    expect([...edited!.querySelectorAll('ins')].map((d) => d.textContent)).toEqual(['Q3', 'review']);
    expect(removed!.textContent).toMatch(/1:20 · Aiko.*Removed.*Before.*merged away/);
    expect(within(removed!).queryByText('After')).toBeNull();

    expect(region.textContent).toContain('Dictionary: “budget” → “Q3 budget” (replaced: 2)');
    expect(region.textContent).toContain('Speaker 1 named “Aiko”');
    expect(region.textContent).toContain('More changed segments, not listed here: 3');

    // Selecting it again closes it; selected again, it is not read twice.
    fireEvent.click(select);
    expect(select.getAttribute('aria-expanded')).toBe('false');
    expect(region.hidden).toBe(true);
    fireEvent.mouseEnter(select);
    fireEvent.click(select);
    expect(within(region).getAllByTestId('history-change')).toHaveLength(2);
    expect(fake.calls.filter((c) => c.channel === 'transcripts:revision-changes')).toHaveLength(1);
    // Restore stays beside what changed.
    expect(screen.getByRole('button', { name: 'Restore version 1' })).toBeTruthy();
  });

  it('says version 1 is the transcript as recognized without asking main, and shows why changes could not be read', async () => {
    fake.handlers['transcripts:revision-changes'] = () => ({
      ok: false,
      error: { code: 'offline' },
    });
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'History…' }));
    fireEvent.click(await screen.findByRole('button', { name: /^Version 1/ }));
    expect(screen.getByRole('region', { name: 'What changed in version 1' }).textContent).toMatch(/as recognized/);
    // (History reads the newer versions' changes for their lines as it opens: never version 1's.)
    expect(fake.calls).not.toContainEqual({
      channel: 'transcripts:revision-changes',
      request: { id: 't1', revision: 1 },
    });

    fireEvent.click(screen.getByRole('button', { name: /^Version 2/ }));
    const region = screen.getByRole('region', { name: 'What changed in version 2' });
    expect((await within(region).findByRole('alert')).textContent).toBe(
      'The server cannot be reached. Check the connection, then try again.',
    );
    const first = screen.getByRole('button', { name: /^Version 1/ });
    expect(first.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(first.getAttribute('aria-controls')!)!.hidden).toBe(true);
  });

  it('speaks Japanese when the UI does', async () => {
    setUiLanguage('ja');
    render(<HistoryMenu />);
    fireEvent.click(screen.getByRole('button', { name: '履歴…' }));
    expect(screen.getByRole('dialog', { name: 'サーバー上の版' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: '第1版を復元' })).toBeTruthy();
    expect(screen.getByText('表示中')).toBeTruthy();
    // What made each version, and what it changed (its tooltip), are in Japanese; never the server's English.
    fireEvent.focus(screen.getByRole('button', { name: /^第2版 / }));
    // The line says what the version changed (read as History opens), in Japanese, with the tooltip's count.
    const line = await screen.findByTitle('5 箇所を変更、話者名を 1 件変更、辞書で 2 語を置換');
    expect(line.textContent).not.toMatch(/[A-Za-z]{3,}/);
    expect(line.textContent).not.toBe('編集');
    expect(screen.getByText('認識した結果')).toBeTruthy();
    expect(screen.queryByText('Edited 1 segment')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /^第2版 / }));
    const region = screen.getByRole('region', { name: '第2版の変更点' });
    const [edited] = await within(region).findAllByTestId('history-change');
    expect(edited!.textContent).toMatch(/^1:12 · Aiko → 話者 2.*変更前.*変更後/);
    expect(region.textContent).toContain('辞書：「budget」→「Q3 budget」（2 件を置換）');
    expect(region.textContent).toContain('話者 1 に「Aiko」と名前を付けました');
    expect(region.textContent).toContain('削除');
  });
});
