// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DictionarySummary, TranscriptDetail } from '../../../../src-shared/ipc-contract';
import type { TranscriptSegment } from '../../../../src-shared/transcript-document';
import { EditToolbar } from '../../../../src-renderer/features/transcript/edit-toolbar';
import { ApplyDictionaryMenu } from '../../../../src-renderer/features/transcript/apply-dictionary-menu';
import { FindReplacePanel } from '../../../../src-renderer/features/transcript/find-replace-panel';
import { TranscriptPane } from '../../../../src-renderer/features/transcript/transcript-pane';
import { useDictionariesStore } from '../../../../src-renderer/stores/dictionaries-store';
import { usePlayerStore } from '../../../../src-renderer/stores/player-store';
import { useTranscriptStore } from '../../../../src-renderer/stores/transcript-store';
import { installFakeApi, transcriptDetail, type FakeApi } from '../fake-api';

const seg = (id: number, start: number, words: string[], separator = ' '): TranscriptSegment => ({
  id,
  start,
  end: start + words.length,
  speaker: 'SPEAKER_1',
  text: words.join(separator),
  words: words.map((word, i) => ({ word, start: start + i, end: start + i + 1, confidence: 0.95 })),
});
const detail = (segments: TranscriptSegment[], language = 'en', history = { undo: 0, redo: 0 }): TranscriptDetail => ({
  ...transcriptDetail(segments, { language, duration: 10, speaking_duration: 6 }),
  history,
});

let fake: FakeApi;
beforeEach(() => {
  fake = installFakeApi({
    'transcripts:edit-document': () => detail([seg(0, 0, ['hello', 'there', 'world'])], 'en', { undo: 1, redo: 0 }),
    'transcripts:undo': () => detail([seg(0, 0, ['hello', 'world'])], 'en', { undo: 0, redo: 1 }),
  });
  useTranscriptStore.setState({
    id: 't1',
    detail: detail([seg(0, 0, ['hello', 'world']), seg(1, 3, ['good', 'morning'])]),
    loading: false,
    error: null,
  });
  usePlayerStore.setState(usePlayerStore.getInitialState(), true);
});
afterEach(cleanup);

describe('inline word edit', () => {
  it('opens on double-click, saves with Enter as a word edit', async () => {
    render(<TranscriptPane />);
    fireEvent.doubleClick(screen.getByText('world'));
    const editor = screen.getByRole('textbox', { name: 'Edit the word “world”' });
    fireEvent.change(editor, { target: { value: 'there world' } });
    await act(async () => fireEvent.keyDown(editor, { key: 'Enter' }));
    expect(fake.calls.at(-1)).toEqual({
      channel: 'transcripts:edit-document',
      request: { id: 't1', operation: { kind: 'word', segmentId: 0, wordIndex: 1, text: 'there world' } },
    });
    expect(screen.getByText('there')).toBeTruthy();
  });

  it('opens with Enter on a focused word, and Escape cancels without saving', () => {
    render(<TranscriptPane />);
    const word = screen.getByText('morning');
    word.focus();
    fireEvent.keyDown(word, { key: 'Enter' });
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit the word “morning”' }), { key: 'Escape' });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(fake.calls.filter((c) => c.channel === 'transcripts:edit-document')).toHaveLength(0);
  });

  it('splits before a focused word with S, and merges its segment with M', async () => {
    render(<TranscriptPane />);
    await act(async () => fireEvent.keyDown(screen.getByText('world'), { key: 's' }));
    expect(fake.calls.at(-1)?.request).toEqual({ id: 't1', operation: { kind: 'split', segmentId: 0, wordIndex: 1 } });
    act(() =>
      useTranscriptStore.setState({ detail: detail([seg(0, 0, ['hello', 'world']), seg(1, 3, ['good', 'morning'])]) }),
    );
    await act(async () => fireEvent.keyDown(screen.getByText('hello'), { key: 'm' }));
    expect(fake.calls.at(-1)?.request).toEqual({ id: 't1', operation: { kind: 'merge', segmentId: 0 } });
  });
});

describe('find and replace', () => {
  it('counts matches and previews each change, then replaces all', async () => {
    useTranscriptStore.setState({
      detail: detail([seg(0, 0, ['colour', 'and', 'Colour']), seg(1, 3, ['watercolour'])]),
    });
    render(<FindReplacePanel mode="replace" onMode={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Find'), { target: { value: 'colour' } });
    fireEvent.change(screen.getByLabelText('Replace with'), { target: { value: 'color' } });
    expect(screen.getByTestId('find-count').textContent).toBe('Matches: 3');
    fireEvent.click(screen.getByLabelText('Whole word'));
    expect(screen.getByTestId('find-count').textContent).toBe('Matches: 2');
    const previews = screen.getAllByTestId('find-match');
    expect(previews.map((p) => [p.querySelector('del')?.textContent, p.querySelector('ins')?.textContent])).toEqual([
      ['colour', 'color'],
      ['Colour', 'color'],
    ]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Replace all (2)' })));
    expect(fake.calls.at(-1)?.request).toEqual({
      id: 't1',
      operation: {
        kind: 'replace',
        query: 'colour',
        replacement: 'color',
        options: { matchCase: false, wholeWord: true },
      },
    });
  });

  it('offers no replacement that would change nothing', () => {
    useTranscriptStore.setState({ detail: detail([seg(0, 0, ['colour', 'and', 'Colour'])]) });
    render(<FindReplacePanel mode="replace" onMode={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Find'), { target: { value: 'colour' } });
    fireEvent.change(screen.getByLabelText('Replace with'), { target: { value: 'colour' } });
    // "Colour" would become "colour": one change, and only that match offers Replace.
    expect(screen.getByRole('button', { name: 'Replace all (1)' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Replace' })).toHaveLength(1);
    fireEvent.click(screen.getByLabelText('Match case'));
    expect(screen.queryByRole('button', { name: /Replace all/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Find'), { target: { value: 'nothing here' } });
    expect(screen.queryByRole('button', { name: /Replace all/ })).toBeNull();
  });

  it('closes with Escape wherever focus is, and gives focus back to the button that opened it', () => {
    function Host() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open find
          </button>
          {open && <FindReplacePanel mode="replace" onMode={() => {}} onClose={() => setOpen(false)} />}
        </>
      );
    }
    render(<Host />);
    const opener = screen.getByRole('button', { name: 'Open find' });
    opener.focus();
    fireEvent.click(opener);
    expect(screen.getByTestId('find-panel')).toBeTruthy();
    // Focus left the panel (a replace disabled the focused button, or the user clicked the transcript).
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByTestId('find-panel')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('finds Japanese words inside a sentence with whole word on', () => {
    useTranscriptStore.setState({ detail: detail([seg(0, 0, ['東京', '都', 'に', '住む'], '')], 'ja') });
    render(<FindReplacePanel mode="find" onMode={() => {}} onClose={() => {}} />);
    fireEvent.click(screen.getByLabelText('Whole word'));
    fireEvent.change(screen.getByLabelText('Find'), { target: { value: '東京' } });
    expect(screen.getByTestId('find-count').textContent).toBe('Matches: 1');
    expect(screen.getByTestId('find-match').querySelector('mark')?.textContent).toBe('東京');
  });
});

describe('Apply dictionary…', () => {
  it('closes with Escape while focus is still on its button, and keeps focus there', () => {
    fake.handlers['dictionaries:list'] = () => [];
    render(<ApplyDictionaryMenu />);
    const button = screen.getByRole('button', { name: 'Apply dictionary…' });
    button.focus();
    fireEvent.click(button);
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.keyDown(button, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('closes on a press outside it, as the Export menu does, and stays open on a press inside', () => {
    fake.handlers['dictionaries:list'] = () => [];
    render(
      <>
        <ApplyDictionaryMenu />
        <button type="button">History</button>
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Apply dictionary…' }));
    fireEvent.pointerDown(screen.getByRole('heading', { name: 'Apply a dictionary' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'History' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply dictionary…' }).getAttribute('aria-expanded')).toBe('false');
  });

  const applied = (count: number, revision: number): TranscriptDetail => {
    const answer = detail([seg(0, 0, ['hello', 'world']), seg(1, 3, ['good', 'morning'])]);
    const replacements = count ? [{ pattern: 'morning', replacement: 'evening', count, segment_ids: [1] }] : [];
    return {
      ...answer,
      summary: { ...answer.summary, dictionaryId: 'd-own' },
      document: { ...answer.document!, replacements, revision },
    };
  };
  const dictionary = (id: string, name: string): DictionarySummary => ({
    id,
    name,
    isTemporary: false,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  });
  const open = () => {
    render(<ApplyDictionaryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Apply dictionary…' }));
  };
  const choices = () =>
    [...screen.getByRole<HTMLSelectElement>('combobox', { name: 'Dictionary' }).options].map((o) => o.textContent);

  describe('which dictionary it offers', () => {
    beforeEach(() => useDictionariesStore.setState(useDictionariesStore.getInitialState(), true));

    it('names its own dictionary when it is listed, once, first, and applies it as null', async () => {
      useTranscriptStore.setState({ detail: applied(0, 2) });
      fake.handlers['dictionaries:list'] = () => [dictionary('d1', 'Products'), dictionary('d-own', 'Team words')];
      fake.handlers['transcripts:apply-dictionary'] = () => applied(0, 2);
      open();
      await screen.findByRole('option', { name: 'Products' });
      expect(choices()).toEqual(['Team words (used to transcribe it)', 'Products']);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply' })));
      expect(fake.calls.at(-1)).toEqual({
        channel: 'transcripts:apply-dictionary',
        request: { id: 't1', dictionaryId: null },
      });
    });

    it('offers the transcription’s own dictionary first, and applies it as null, when it was transcribed with one', async () => {
      useTranscriptStore.setState({ detail: applied(0, 2) });
      fake.handlers['dictionaries:list'] = () => [dictionary('d1', 'Products')];
      fake.handlers['transcripts:apply-dictionary'] = () => applied(0, 2);
      open();
      await screen.findByRole('option', { name: 'Products' });
      expect(choices()).toEqual(['Its own dictionary', 'Products']);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply' })));
      expect(fake.calls.at(-1)).toEqual({
        channel: 'transcripts:apply-dictionary',
        request: { id: 't1', dictionaryId: null },
      });
    });

    it('offers only the listed dictionaries, the first chosen, when it was transcribed without one', async () => {
      fake.handlers['dictionaries:list'] = () => [dictionary('d1', 'Products'), dictionary('d2', 'People')];
      fake.handlers['transcripts:apply-dictionary'] = () => applied(0, 2);
      open();
      await screen.findByRole('option', { name: 'Products' });
      expect(choices()).toEqual(['Products', 'People']);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply' })));
      expect(fake.calls.at(-1)).toEqual({
        channel: 'transcripts:apply-dictionary',
        request: { id: 't1', dictionaryId: 'd1' },
      });
    });

    it('says it is loading until the list answers, with Apply off', async () => {
      let answer: (list: DictionarySummary[]) => void = () => {};
      fake.handlers['dictionaries:list'] = () => new Promise<DictionarySummary[]>((resolve) => (answer = resolve));
      open();
      expect(choices()).toEqual(['Loading dictionaries…']);
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Apply' }).disabled).toBe(true);
      await act(async () => answer([dictionary('d1', 'Products')]));
      expect(choices()).toEqual(['Products']);
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Apply' }).disabled).toBe(false);
    });

    it('says there is none to apply when the transcription has none and no dictionary exists', async () => {
      fake.handlers['dictionaries:list'] = () => [];
      open();
      expect(await screen.findByText('There are no dictionaries yet. Make one under Dictionaries.')).toBeTruthy();
      expect(choices()).toEqual([]);
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Apply' }).disabled).toBe(true);
    });
  });
  const apply = async () => {
    fake.handlers['dictionaries:list'] = () => [];
    render(<ApplyDictionaryMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Apply dictionary…' }));
    await screen.findByRole('option', { name: 'Its own dictionary' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply' })));
    return screen.getByRole('status').textContent;
  };

  it('says no words matched when the dictionary replaced nothing', async () => {
    useTranscriptStore.setState({ detail: applied(0, 2) });
    fake.handlers['transcripts:apply-dictionary'] = () => applied(0, 2);
    expect(await apply()).toBe(
      'Nothing to replace: no words match its forced replacements. Words replaced before stay marked.',
    );
  });

  it('says the replaced words are marked when it replaced some', async () => {
    useTranscriptStore.setState({ detail: applied(0, 2) });
    fake.handlers['transcripts:apply-dictionary'] = () => applied(2, 3);
    expect(await apply()).toBe('Applied. Replaced words are marked in the transcript.');
  });
});

describe('undo and redo', () => {
  it('are offered only when there is something to undo or redo', async () => {
    render(<EditToolbar onFind={() => {}} />);
    expect(screen.getByRole('button', { name: /Undo/ }).hasAttribute('disabled')).toBe(true);
    act(() =>
      useTranscriptStore.setState({
        detail: detail([seg(0, 0, ['hello', 'there', 'world'])], 'en', { undo: 1, redo: 0 }),
      }),
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Undo/ })));
    expect(fake.calls.at(-1)).toEqual({ channel: 'transcripts:undo', request: { id: 't1' } });
    expect(screen.getByRole('button', { name: /Redo/ }).hasAttribute('disabled')).toBe(false);
  });
});
