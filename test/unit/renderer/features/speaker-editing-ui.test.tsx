// @vitest-environment happy-dom
// Speaker editing in the transcript (decision 0060): "New speaker" in a segment's menu, "Merge into…" on a
// speaker's chip, and "Split here and change speaker…" on a word, each one edit operation.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings, TranscriptDetail } from '../../../../src-shared/ipc-contract';
import type { TranscriptSegment } from '../../../../src-shared/transcript-document';
import { TranscriptPane } from '../../../../src-renderer/features/transcript/transcript-pane';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, transcriptDetail, type FakeApi } from '../fake-api';

const seg = (id: number, start: number, words: string[], speaker: string): TranscriptSegment => ({
  id,
  start,
  end: start + words.length,
  speaker,
  text: words.join(' '),
  words: words.map((word, i) => ({ word, start: start + i, end: start + i + 1, confidence: 0.95 })),
});
const segments = [seg(0, 0, ['hello', 'there'], 'SPEAKER_1'), seg(1, 3, ['good', 'morning', 'everyone'], 'SPEAKER_2')];
const detail = (): TranscriptDetail => transcriptDetail(segments, { language: 'en', duration: 10 });

let fake: FakeApi;
beforeEach(() => {
  fake = installFakeApi({ 'transcripts:edit-document': () => detail() });
  useTranscriptStore.setState({ id: 't1', detail: detail(), loading: false, error: null });
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
  useSettingsStore.setState({ settings: null });
});
afterEach(cleanup);

const sent = () => fake.calls.filter((c) => c.channel === 'transcripts:edit-document').map((c) => c.request);

describe('speaker editing', () => {
  it('gives a segment a new speaker, the next free label, from its menu', async () => {
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: 'More actions for the segment at 0:03' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'New speaker' })));
    expect(sent()).toEqual([{ id: 't1', operation: { kind: 'speaker', segmentId: 1, speaker: 'SPEAKER_3' } }]);
  });

  it("merges a speaker into another from the speaker's chip", async () => {
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename Speaker 2' }));
    const merge = screen.getByRole('combobox', { name: 'Merge Speaker 2 into another speaker' });
    expect(
      within(merge)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a speaker', 'Speaker 1']);
    await act(async () => fireEvent.change(merge, { target: { value: 'SPEAKER_1' } }));
    expect(sent()).toEqual([{ id: 't1', operation: { kind: 'merge-speakers', from: 'SPEAKER_2', into: 'SPEAKER_1' } }]);
  });

  it('splits a segment at a word and gives the second part another speaker, or a new one', async () => {
    render(<TranscriptPane />);
    fireEvent.contextMenu(screen.getByText('morning'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Split here and change speaker…' }));
    const menu = screen.getByRole('menu', { name: 'Actions for “morning”' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((b) => b.textContent),
    ).toEqual(['Speaker 1', 'New speaker']);
    await act(async () => fireEvent.click(within(menu).getByRole('menuitem', { name: 'New speaker' })));
    expect(sent()).toEqual([
      { id: 't1', operation: { kind: 'split', segmentId: 1, wordIndex: 1, speaker: 'SPEAKER_3' } },
    ]);
    // Not before the first word: there would be nothing left of the segment.
    fireEvent.contextMenu(screen.getByText('good'));
    expect(screen.getByRole<HTMLButtonElement>('menuitem', { name: 'Split here and change speaker…' }).disabled).toBe(
      true,
    );
  });

  it("says how the chip's two ways to name a speaker differ: Save renames here, “This is…” learns the voice", () => {
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename Speaker 2' }));
    const input = screen.getByRole('textbox', { name: 'New name for Speaker 2' });
    const hint = document.getElementById(input.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toBe(
      'Save names this speaker in this transcript only. “This is…” below also learns the voice, so new transcripts name this person.',
    );
    cleanup();
    useSettingsStore.setState({ settings: { uiLanguage: 'ja' } as Settings });
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: '話者 2 の名前を変更' }));
    expect(screen.getByTestId('speaker-name-routes').textContent).toMatch(/^「保存」はこの文字起こしの中だけで/);
  });

  it('shows the name “This is…” gave in the rename box of the chip it was given from', async () => {
    const named = { ...detail(), speakerNames: { SPEAKER_2: 'Alice' } };
    installFakeApi({
      'voices:list': () => ({ voices: [], offline: false, listedAt: null }),
      // Little speech: the chip's editor stays open on a note, beside the rename box.
      'voices:identify': () => ({
        voice: {
          id: 'spk_1',
          name: 'Alice',
          sampleCount: 1,
          speechSeconds: 4,
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
        },
        enrolled: true,
        sampleSeconds: 4,
        transcript: named,
      }),
    });
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename Speaker 2' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Who is Speaker 2? A voice of your team or a new name' }), {
      target: { value: 'Alice' },
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Learn voice' })));
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'New name for Alice' }).value).toBe('Alice');
  });

  it('closes the speaker editor on a press outside it (another tab, another segment) and on Escape, as the other popovers do', () => {
    render(
      <>
        <button type="button" role="tab">
          Summary
        </button>
        <TranscriptPane />
      </>,
    );
    const chip = screen.getByRole('button', { name: 'Rename Speaker 2' });
    fireEvent.click(chip);
    expect(screen.getByRole('dialog', { name: 'Rename Speaker 2' })).toBeTruthy();
    // A press inside keeps it open.
    fireEvent.pointerDown(screen.getByRole('textbox', { name: 'New name for Speaker 2' }));
    expect(screen.getByRole('dialog', { name: 'Rename Speaker 2' })).toBeTruthy();
    fireEvent.pointerDown(screen.getByRole('tab', { name: 'Summary' }));
    expect(screen.queryByRole('dialog', { name: 'Rename Speaker 2' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'New name for Speaker 2' })).toBeNull();

    fireEvent.click(chip);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Rename Speaker 1' }));
    expect(screen.queryByRole('textbox', { name: 'New name for Speaker 2' })).toBeNull();

    fireEvent.click(chip);
    fireEvent.keyDown(screen.getByRole('combobox', { name: 'Merge Speaker 2 into another speaker' }), {
      key: 'Escape',
    });
    expect(screen.queryByRole('textbox', { name: 'New name for Speaker 2' })).toBeNull();
    expect(document.activeElement).toBe(chip);
  });

  it('offers the same in Japanese', () => {
    useSettingsStore.setState({ settings: { uiLanguage: 'ja' } as Settings });
    render(<TranscriptPane />);
    fireEvent.click(screen.getByRole('button', { name: '0:03 の区間のその他の操作' }));
    expect(screen.getByRole('button', { name: '新しい話者' })).toBeTruthy();
    fireEvent.contextMenu(screen.getByText('morning'));
    expect(screen.getByRole('menuitem', { name: 'ここで分割して話者を変更…' })).toBeTruthy();
  });
});
