// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import type { DictionaryDetail, IpcError } from '../../../../src-shared/ipc-contract';
import { useDictionariesStore } from '../../../../src-renderer/stores/dictionaries-store';
import { errorFor, formLevelError } from '../../../../src-renderer/lib/field-error';
import { installFakeApi } from '../fake-api';

const detail = (patch: Partial<DictionaryDetail> = {}): DictionaryDetail => ({
  id: 'd1',
  name: 'Product names',
  isTemporary: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  words: [],
  replacementRules: [],
  ...patch,
});

beforeEach(() => useDictionariesStore.setState(useDictionariesStore.getInitialState(), true));

describe('dictionaries store', () => {
  it('creates, selects and adds words, keeping the list in step', async () => {
    installFakeApi({
      'dictionaries:create': ({ name }) => detail({ name }),
      'dictionaries:add-words': ({ words }) =>
        detail({ words: words.map((w, i) => ({ id: `w${i}`, word: w.word, reading: w.reading ?? null })) }),
    });
    expect(await useDictionariesStore.getState().create('Product names')).toBeNull();
    expect(useDictionariesStore.getState().selectedId).toBe('d1');
    expect(await useDictionariesStore.getState().addWords([{ word: 'Zintrix', reading: 'zin tricks' }])).toBeNull();
    expect(useDictionariesStore.getState().detail?.words).toEqual([
      { id: 'w0', word: 'Zintrix', reading: 'zin tricks' },
    ]);
    expect(useDictionariesStore.getState().list.map((d) => d.name)).toEqual(['Product names']);
  });

  it('answers the server error with its field so the form can place it', async () => {
    installFakeApi({
      'dictionaries:create': () => detail(),
      'dictionaries:add-words': () => ({
        ok: false,
        error: {
          code: 'validation',
          reason: 'server.VALIDATION_FAILED',
          detail: 'Reading too long',
          field: 'words.0.reading',
        },
      }),
    });
    await useDictionariesStore.getState().create('x');
    const error = await useDictionariesStore.getState().addWords([{ word: 'a', reading: 'b'.repeat(999) }]);
    expect(errorFor(error, ['words.*.reading'])?.detail).toBe('Reading too long');
    expect(errorFor(error, ['word', 'words', 'words.*.word'])).toBeNull();
    expect(errorFor(error, ['reading'])).toBeNull();
    expect(formLevelError(error, ['words.*.word', 'words.*.reading'])).toBeNull();
    expect(
      errorFor<IpcError>({ code: 'validation', detail: 'x', field: 'options.numSpeakers' }, ['options.numSpeakers']),
    ).not.toBeNull();
    expect(errorFor<IpcError>({ code: 'validation', detail: 'x' }, ['name'])).toBeNull();
    expect(formLevelError<IpcError>({ code: 'server', detail: 'down' }, ['word'])?.detail).toBe('down');
  });

  it('keeps a word added while the one before is still saving, whatever order main answers in', async () => {
    const words: DictionaryDetail['words'] = [];
    const held: Array<() => void> = [];
    installFakeApi({
      'dictionaries:create': ({ name }) => detail({ name }),
      'dictionaries:add-words': ({ words: added }) => {
        for (const w of added) words.push({ id: `w${words.length}`, word: w.word, reading: w.reading ?? null });
        const snapshot = detail({ words: [...words] });
        // Each answer waits until the test lets it go: the second is let go first.
        return new Promise<DictionaryDetail>((resolve) => held.push(() => resolve(snapshot)));
      },
    });
    await useDictionariesStore.getState().create('Product names');
    const first = useDictionariesStore.getState().addWords([{ word: 'Zintrix' }]);
    const second = useDictionariesStore.getState().addWords([{ word: 'Kikitori' }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    held.pop()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    held.pop()!();
    await Promise.all([first, second]);
    expect(useDictionariesStore.getState().detail?.words.map((w) => w.word)).toEqual(['Zintrix', 'Kikitori']);
  });

  it('a dictionary read that answers after a change does not take the change back', async () => {
    let answerRead!: (value: DictionaryDetail) => void;
    installFakeApi({
      'dictionaries:get': () => new Promise<DictionaryDetail>((resolve) => (answerRead = resolve)),
      'dictionaries:add-words': () => detail({ words: [{ id: 'w0', word: 'Zintrix', reading: null }] }),
    });
    const opening = useDictionariesStore.getState().select('d1');
    expect(await useDictionariesStore.getState().addWords([{ word: 'Zintrix' }])).toBeNull();
    answerRead(detail()); // read before the word was added
    await opening;
    expect(useDictionariesStore.getState().detail?.words.map((w) => w.word)).toEqual(['Zintrix']);
  });
});
