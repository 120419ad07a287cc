// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DictionaryDetail } from '../../../../src-shared/ipc-contract';
import { DictionaryEditor } from '../../../../src-renderer/features/dictionaries/dictionary-editor';
import { useDictionariesStore } from '../../../../src-renderer/stores/dictionaries-store';
import { en, ja } from '../../../../src-renderer/i18n/messages';
import { installFakeApi, setUiLanguage } from '../fake-api';

const detail: DictionaryDetail = {
  id: 'd1',
  name: 'Names',
  isTemporary: true,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  words: [{ id: 'w1', word: 'Kikitori', reading: 'key key tory' }],
  replacementRules: [{ id: 'r1', pattern: 'kiki tory', replacement: 'Kikitori' }],
};

beforeEach(() => {
  useDictionariesStore.setState(
    { ...useDictionariesStore.getInitialState(), selectedId: 'd1', detail, list: [detail] },
    true,
  );
});
afterEach(() => {
  cleanup();
  setUiLanguage('en');
});

describe('DictionaryEditor', () => {
  it('names in its delete prompt which of two same-named dictionaries it deletes', () => {
    installFakeApi();
    const twin = { ...detail, id: 'd2', createdAt: '2026-01-01T00:00:40Z', updatedAt: '2026-01-01T00:00:40Z' };
    useDictionariesStore.setState({ list: [detail, twin] });
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    render(<DictionaryEditor />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete dictionary' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect((confirm.mock.calls[0] as unknown[])[0]).toMatch(/^Delete the dictionary “Names \(.*:00:00\s?[AP]M\)”\?$/);
    vi.unstubAllGlobals();
  });

  it('shows words, replacement rules and the temporary mark', () => {
    installFakeApi();
    render(<DictionaryEditor />);
    expect(screen.getByText('key key tory')).toBeTruthy();
    expect(screen.getByText('→ Kikitori')).toBeTruthy();
    expect(screen.getByText('Temporary')).toBeTruthy();
  });

  it('says a replacement with nothing to write instead deletes the word, in the list and in the empty field', () => {
    installFakeApi();
    useDictionariesStore.setState({
      detail: { ...detail, replacementRules: [{ id: 'r2', pattern: 'um', replacement: '' }] },
    });
    render(<DictionaryEditor />);
    expect(screen.getByTestId('replacement-rules-table').textContent).toContain('→ (deleted)');
    expect(screen.getByTestId('replacement-input').getAttribute('placeholder')).toBe('Blank deletes');
  });

  it('puts a server error next to the field that caused it', async () => {
    installFakeApi({
      'dictionaries:add-words': () => ({
        ok: false,
        error: {
          code: 'validation',
          reason: 'server.VALIDATION_FAILED',
          detail: 'Readings use letters only.',
          field: 'words.0.reading',
        },
      }),
    });
    render(<DictionaryEditor />);
    fireEvent.change(screen.getByTestId('word-input'), { target: { value: 'Zintrix' } });
    fireEvent.change(screen.getByTestId('reading-input'), { target: { value: '123' } });
    await act(async () => fireEvent.submit(screen.getByTestId('word-input').closest('form')!));
    const message = await screen.findByText(en['error.server.VALIDATION_FAILED']);
    expect(message.closest('[data-testid="field-error"]')?.textContent).toContain('Readings use letters only.');
    expect(message.closest('.field')?.querySelector('input')).toBe(screen.getByTestId('reading-input'));
    expect(screen.getByTestId('reading-input').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('word-input').getAttribute('aria-invalid')).toBeNull();
  });

  it('imports pasted lines', async () => {
    const fake = installFakeApi({
      'dictionaries:import': () => ({
        outcome: 'imported',
        detail: { ...detail, words: [...detail.words, { id: 'w2', word: 'Zintrix', reading: 'zin tricks' }] },
        importedLines: 1,
        skippedLines: 0,
        duplicateLines: 0,
      }),
    });
    render(<DictionaryEditor />);
    fireEvent.change(screen.getByLabelText('Lines to import'), { target: { value: 'Zintrix,zin tricks' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import' })));
    expect(fake.calls.at(-1)).toEqual({
      channel: 'dictionaries:import',
      request: { id: 'd1', text: 'Zintrix,zin tricks', kind: 'words' },
    });
    expect(screen.getByText('zin tricks')).toBeTruthy();
  });

  it('keeps a word typed while the previous one is still saving', async () => {
    let finish: (detail: DictionaryDetail) => void = () => {};
    const fake = installFakeApi({
      'dictionaries:add-words': () =>
        new Promise<DictionaryDetail>((resolve) => {
          finish = resolve;
        }),
    });
    render(<DictionaryEditor />);
    const word = screen.getByTestId<HTMLInputElement>('word-input');
    const reading = screen.getByTestId<HTMLInputElement>('reading-input');
    fireEvent.change(word, { target: { value: 'Zintrix' } });
    fireEvent.change(reading, { target: { value: 'zin tricks' } });
    await act(async () => fireEvent.submit(word.closest('form')!));
    expect(fake.calls.at(-1)?.request).toEqual({ id: 'd1', words: [{ word: 'Zintrix', reading: 'zin tricks' }] });
    // The save is still under way: the user types the next word.
    fireEvent.change(word, { target: { value: 'Quorbl' } });
    await act(async () =>
      finish({ ...detail, words: [...detail.words, { id: 'w2', word: 'Zintrix', reading: 'zin tricks' }] }),
    );
    expect(screen.getByText('zin tricks')).toBeTruthy();
    expect(word.value).toBe('Quorbl');
    // The reading still held what was saved with Zintrix: it belonged to that word, so it is cleared.
    expect(reading.value).toBe('');
  });

  it.each([
    ['en', en, '“Kikitori” is already in this dictionary.'],
    ['ja', ja, '「Kikitori」はこの辞書にすでに登録されています。'],
  ] as const)('in %s, says next to Word that the word is already in the dictionary', async (language, table, text) => {
    setUiLanguage(language);
    installFakeApi({
      'dictionaries:add-words': () => ({
        ok: false,
        error: {
          code: 'conflict',
          reason: 'app.word-already-in-dictionary',
          params: { word: 'Kikitori' },
          field: 'words.0.word',
        },
      }),
    });
    render(<DictionaryEditor />);
    const word = screen.getByTestId<HTMLInputElement>('word-input');
    fireEvent.change(word, { target: { value: 'kikitori' } });
    fireEvent.change(screen.getByTestId('reading-input'), { target: { value: 'key key tory' } });
    await act(async () => fireEvent.submit(word.closest('form')!));
    expect(table['error.app.word-already-in-dictionary'].replace('{word}', 'Kikitori')).toBe(text);
    const message = await screen.findByText(text);
    expect(message.closest('.field')?.querySelector('input')).toBe(word);
    expect(word.getAttribute('aria-invalid')).toBe('true');
    // Refused: what the user typed stays, to correct it; once changed, the refusal no longer shows.
    expect(word.value).toBe('kikitori');
    fireEvent.change(word, { target: { value: 'kikitori2' } });
    expect(screen.queryByText(text)).toBeNull();
    expect(word.getAttribute('aria-invalid')).toBeNull();
  });

  it.each([
    [
      'en',
      'You pasted 3 lines. Word takes one word at a time: to add several at once, use “Bulk paste or CSV import” below, one word per line.',
      'Move them to the bulk paste',
      'Lines to import',
    ],
    [
      'ja',
      '3 行を貼り付けました。「単語」には 1 語ずつ入力します。まとめて追加するには、下の「一括貼り付け・CSV 読み込み」に 1 行 1 語で貼り付けてください。',
      '一括貼り付けに移す',
      '読み込む行',
    ],
  ] as const)(
    'in %s, does not squash lines pasted into Word: it offers to move them to the bulk paste',
    (language, said, move, importLabel) => {
      setUiLanguage(language);
      installFakeApi();
      render(<DictionaryEditor />);
      const word = screen.getByTestId<HTMLInputElement>('word-input');
      const pasted = fireEvent.paste(word, {
        clipboardData: { getData: () => 'Kikitori\r\n  Zintrix \n\nQuorbl,kwor bull\n' },
      });
      expect(pasted).toBe(false);
      expect(word.value).toBe('');
      expect(screen.getByTestId('pasted-lines').textContent).toContain(said);
      const textArea = screen.getByLabelText<HTMLTextAreaElement>(importLabel);
      expect(textArea.closest('details')?.open).toBe(false);
      fireEvent.change(textArea, { target: { value: 'Ōsaka,oh sah kah\n' } });
      fireEvent.click(screen.getByRole('button', { name: move }));
      expect(textArea.value).toBe('Ōsaka,oh sah kah\nKikitori\nZintrix\nQuorbl,kwor bull');
      expect(textArea.closest('details')?.open).toBe(true);
      expect(document.activeElement).toBe(textArea);
      expect(screen.queryByTestId('pasted-lines')).toBeNull();
    },
  );

  it.each([
    ['en', 'The rest of what you pasted did not fit and was left out.', '199 of at most 200 characters'],
    ['ja', '貼り付けた文字のうち、入りきらなかった残りは入っていません。', '199 文字（最大 200 文字）'],
  ] as const)('in %s, says when a paste did not fit, until the field is typed in', (language, said, typed) => {
    setUiLanguage(language);
    installFakeApi();
    render(<DictionaryEditor />);
    const reading = screen.getByTestId<HTMLInputElement>('reading-input');
    const word = screen.getByTestId<HTMLInputElement>('word-input');
    fireEvent.paste(word, { clipboardData: { getData: () => 'y'.repeat(245) } });
    fireEvent.change(word, { target: { value: 'y'.repeat(200) } }); // what the input keeps of it
    expect(screen.getByTestId('word-input-count').textContent).toContain(said);
    fireEvent.change(word, { target: { value: 'y'.repeat(199) } });
    expect(screen.getByTestId('word-input-count').textContent).toBe(typed);
    // A paste that fits says nothing more than the count.
    fireEvent.paste(reading, { clipboardData: { getData: () => 'zin tricks' } });
    fireEvent.change(reading, { target: { value: 'zin tricks' } });
    expect(screen.queryByTestId('reading-input-count')).toBeNull();
  });

  it('pastes one line into Word as usual', () => {
    installFakeApi();
    render(<DictionaryEditor />);
    expect(fireEvent.paste(screen.getByTestId('word-input'), { clipboardData: { getData: () => 'Kikitori\n' } })).toBe(
      true,
    );
    expect(screen.queryByTestId('pasted-lines')).toBeNull();
  });

  it.each([
    ['en', '180 of at most 200 characters'],
    ['ja', '180 文字（最大 200 文字）'],
  ] as const)('in %s, takes at most the server’s limit and counts the characters near it', (language, count) => {
    setUiLanguage(language);
    installFakeApi();
    render(<DictionaryEditor />);
    const word = screen.getByTestId<HTMLInputElement>('word-input');
    expect(word.maxLength).toBe(200);
    expect(screen.getByTestId<HTMLInputElement>('reading-input').maxLength).toBe(400);
    expect(screen.getByTestId<HTMLInputElement>('pattern-input').maxLength).toBe(200);
    expect(screen.getByTestId<HTMLInputElement>('replacement-input').maxLength).toBe(200);
    // The dictionary's name, renamed in place.
    expect(document.querySelector<HTMLInputElement>('input.title-input')?.maxLength).toBe(200);
    fireEvent.change(word, { target: { value: 'x'.repeat(179) } });
    expect(screen.queryByTestId('word-input-count')).toBeNull();
    fireEvent.change(word, { target: { value: 'x'.repeat(180) } });
    const counter = screen.getByTestId('word-input-count');
    expect(counter.textContent).toBe(count);
    expect(word.getAttribute('aria-describedby')).toBe(counter.id);
  });

  it('keeps lines typed into the bulk paste while an import runs, and drops those imported', async () => {
    let finish: (detail: DictionaryDetail) => void = () => {};
    installFakeApi({
      'dictionaries:import': () =>
        new Promise<DictionaryDetail>((resolve) => {
          finish = resolve;
        }).then((imported) => ({
          outcome: 'imported' as const,
          detail: imported,
          importedLines: 1,
          skippedLines: 0,
          duplicateLines: 0,
        })),
    });
    render(<DictionaryEditor />);
    const lines = screen.getByLabelText<HTMLTextAreaElement>('Lines to import');
    fireEvent.change(lines, { target: { value: 'Zintrix,zin tricks' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import' })));
    fireEvent.change(lines, { target: { value: 'Zintrix,zin tricks\nQuorbl' } });
    await act(async () =>
      finish({ ...detail, words: [...detail.words, { id: 'w2', word: 'Zintrix', reading: 'zin tricks' }] }),
    );
    expect(screen.getByText('zin tricks')).toBeTruthy();
    expect(lines.value).toBe('Quorbl');
  });
});
