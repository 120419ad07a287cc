// @vitest-environment happy-dom
// The bulk import's bad lines in the UI's language: each by number, text and what is wrong, from main's
// closed problem codes; "Import the other lines" sends the good ones; a part-way failure says how far it got.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  IMPORT_LINE_PROBLEMS,
  type DictionaryDetail,
  type DictionaryImport,
} from '../../../../src-shared/ipc-contract';
import { LIMITS } from '../../../../src-shared/limits';
import { ImportSection, useBulkDraft } from '../../../../src-renderer/features/dictionaries/dictionary-import-section';
import { importProblemText, linesFrom } from '../../../../src-renderer/features/dictionaries/import-problems';
import { en, ja, translate, type MessageKey } from '../../../../src-renderer/i18n/messages';
import { useDictionariesStore } from '../../../../src-renderer/stores/dictionaries-store';
import { installFakeApi, setUiLanguage } from '../fake-api';

/** The section with its own draft, as the editor holds it. */
function Section() {
  return <ImportSection draft={useBulkDraft()} />;
}

const detail: DictionaryDetail = {
  id: 'd1',
  name: 'Names',
  isTemporary: false,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  words: [],
  replacementRules: [],
};

const tEn = (key: MessageKey, params?: Record<string, string | number>) => translate('en', key, params);
const tJa = (key: MessageKey, params?: Record<string, string | number>) => translate('ja', key, params);

beforeEach(() => {
  useDictionariesStore.setState(
    { ...useDictionariesStore.getInitialState(), selectedId: 'd1', detail, list: [detail] },
    true,
  );
});
afterEach(cleanup);

describe('importProblemText', () => {
  it('words every problem code in English and in Japanese, the Japanese its own', () => {
    for (const code of IMPORT_LINE_PROBLEMS) {
      const english = importProblemText(tEn, code);
      const japanese = importProblemText(tJa, code);
      expect(english, code).toMatch(/^[A-Z“]/);
      expect(japanese, code).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(japanese).not.toBe(english);
      expect(`${english}${japanese}`, code).not.toMatch(/\{\w+\}/);
    }
  });

  it('names the limit a line is over', () => {
    expect(importProblemText(tEn, 'reading-too-long')).toBe(`The reading is longer than ${LIMITS.reading} characters.`);
    expect(importProblemText(tJa, 'word-too-long')).toBe(`単語が ${LIMITS.word} 文字を超えています。`);
    expect(importProblemText(tEn, 'reading-unpronounceable')).toBe(en['dict.import.problem.reading-unpronounceable']);
    expect(importProblemText(tJa, 'reading-unpronounceable')).toBe(ja['dict.import.problem.reading-unpronounceable']);
  });
});

describe('linesFrom', () => {
  it('keeps the lines from a line number on', () => {
    expect(linesFrom('a\r\nb\nc\nd', 3)).toBe('c\nd');
  });
});

const checked: DictionaryImport = {
  outcome: 'checked',
  problems: [{ line: 2, text: 'Kikitori,123', problem: 'reading-unpronounceable' }],
  badLines: 1,
  goodLines: 2,
};

async function paste(text: string, label = 'Lines to import', button = 'Import') {
  fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: button })));
}

describe('ImportSection', () => {
  it('lists a bad line by number, text and problem in English, and imports the others on request', async () => {
    setUiLanguage('en');
    const fake = installFakeApi({
      'dictionaries:import': ({ skipBadLines }): DictionaryImport =>
        skipBadLines
          ? {
              outcome: 'imported',
              detail: { ...detail, words: [{ id: 'w1', word: 'Alpha', reading: null }] },
              importedLines: 2,
              skippedLines: 1,
              duplicateLines: 0,
            }
          : checked,
    });
    render(<Section />);
    await paste('Alpha\nKikitori,123\nBeta');
    const problems = screen.getByTestId('import-problems');
    expect(problems.textContent).toContain('Nothing was imported: 1 line cannot be imported.');
    const line = screen.getByTestId('import-problem');
    expect(line.textContent).toContain('Line 2');
    expect(line.textContent).toContain('Kikitori,123');
    expect(line.textContent).toContain(en['dict.import.problem.reading-unpronounceable']);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Import the other 2 lines' })));
    expect(fake.calls.at(-1)).toEqual({
      channel: 'dictionaries:import',
      request: { id: 'd1', text: 'Alpha\nKikitori,123\nBeta', kind: 'words', skipBadLines: true },
    });
    expect(screen.queryByTestId('import-problems')).toBeNull();
    expect(screen.getByTestId('import-done').textContent).toBe(
      '2 lines imported; the 1 that could not be were left out.',
    );
    expect(screen.getByLabelText<HTMLTextAreaElement>('Lines to import').value).toBe('');
    expect(useDictionariesStore.getState().detail?.words.map((w) => w.word)).toEqual(['Alpha']);
  });

  it('says the same in Japanese, with no English in it', async () => {
    setUiLanguage('ja');
    installFakeApi({ 'dictionaries:import': () => checked });
    render(<Section />);
    await paste('Alpha\nKikitori,123\nBeta', '読み込む行', '読み込む');
    const problems = screen.getByTestId('import-problems');
    expect(problems.textContent).toContain('何も読み込んでいません。読み込めない行が 1 行あります。');
    expect(screen.getByTestId('import-problem').textContent).toContain('2 行目');
    expect(screen.getByTestId('import-problem').textContent).toContain(
      ja['dict.import.problem.reading-unpronounceable'],
    );
    // Apart from the pasted line itself, nothing English: no "cannot be imported", no "the word is".
    expect(problems.textContent?.replace('Kikitori,123', '')).not.toMatch(/[a-z]{3,}/i);
    expect(screen.getByRole('button', { name: 'ほかの 2 行を読み込む' })).toBeTruthy();
  });

  it.each([
    ['en', 'Lines to import', 'Import', '1 line imported. 2 words were already in this dictionary and were left out.'],
    ['ja', '読み込む行', '読み込む', '1 行を読み込みました。 すでにこの辞書にある 2 語は除きました。'],
  ] as const)('in %s, says how many words were already there and left out', async (language, box, run, said) => {
    setUiLanguage(language);
    installFakeApi({
      'dictionaries:import': () => ({
        outcome: 'imported',
        detail,
        importedLines: 1,
        skippedLines: 0,
        duplicateLines: 2,
      }),
    });
    render(<Section />);
    await paste('Alpha\nAlpha\nBeta', box, run);
    expect(screen.getByTestId('import-done').textContent).toBe(said);
  });

  it('forgets the bad lines once the paste is changed', async () => {
    setUiLanguage('en');
    installFakeApi({ 'dictionaries:import': () => checked });
    render(<Section />);
    await paste('Alpha\nKikitori,123\nBeta');
    fireEvent.change(screen.getByLabelText('Lines to import'), { target: { value: 'Alpha\nKikitori,key key\nBeta' } });
    expect(screen.queryByTestId('import-problems')).toBeNull();
  });

  it('after a part-way failure, says which lines went in and leaves the others in the box', async () => {
    setUiLanguage('en');
    installFakeApi({
      'dictionaries:import': () => ({
        outcome: 'partly-imported',
        detail,
        importedLines: 2,
        lastImportedLine: 2,
        firstNotImportedLine: 3,
        error: { code: 'offline', reason: 'app.offline-at', params: { host: 'example.org' } },
      }),
    });
    render(<Section />);
    await paste('Alpha\nBeta\nGamma\nDelta');
    const partial = screen.getByTestId('import-partial');
    expect(partial.textContent).toContain(
      'Only lines 1–2 were imported (2 lines). Line 3 and the lines after it were not:',
    );
    expect(partial.textContent).toContain('Cannot reach the server at example.org.');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Lines to import').value).toBe('Gamma\nDelta');
  });
});
