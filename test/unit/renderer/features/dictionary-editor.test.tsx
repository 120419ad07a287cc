// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DictionaryDetail } from '../../../../src-shared/ipc-contract';
import { DictionaryEditor } from '../../../../src-renderer/features/dictionaries/dictionary-editor';
import { useDictionariesStore } from '../../../../src-renderer/stores/dictionaries-store';
import { en } from '../../../../src-renderer/i18n/messages';
import { installFakeApi } from '../fake-api';

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
afterEach(cleanup);

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
});
