// @vitest-environment happy-dom
// A finished transcription most likely not in its language (decision 0070): the row and the view say so
// in the UI's language, and "Transcribe again as …" opens the Transcribe again dialog with that language.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TRANSCRIPTION_MODELS,
  type RerunPlan,
  type ServingLanguages,
  type TranscriptionSummary,
  type UploadOptions,
} from '../../../../src-shared/ipc-contract';
import { TranscriptionList } from '../../../../src-renderer/features/library/transcription-list';
import { LanguageWarningBanner } from '../../../../src-renderer/features/transcript/language-warning';
import { useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { useLanguagesStore } from '../../../../src-renderer/stores/languages-store';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { installFakeApi, setUiLanguage, summary, type FakeApi } from '../fake-api';

const ORIGINAL: UploadOptions = {
  language: 'en',
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};
const spanish = summary('junta', { warnings: [{ code: 'LANGUAGE_MISMATCH', likelyLanguage: 'es' }] });
const unknown = summary('otra', { warnings: [{ code: 'LANGUAGE_MISMATCH', likelyLanguage: null }] });

let fake: FakeApi;
function setUp(items: TranscriptionSummary[]) {
  fake = installFakeApi({
    'transcripts:list': () => ({ items, total: items.length }),
    'transcripts:rerun-plan': (): RerunPlan => ({ options: ORIGINAL, optionsKnown: true, audioCached: true }),
    'dictionaries:list': () => [],
    'languages:serving': () => null,
  });
}

/** The server recognizes English only (the built-in recognizer, no speech model installed). */
function englishOnly() {
  const engine = { engine: 'pocketsphinx', detectsLanguage: false, languages: ['en'] };
  fake.handlers['languages:serving'] = () =>
    Object.fromEntries(TRANSCRIPTION_MODELS.map((model) => [model, engine])) as ServingLanguages;
}

const chips = (root: HTMLElement) =>
  [...root.querySelectorAll('.language-chip[data-code]')].map((c) => c.getAttribute('data-code'));

beforeEach(() => {
  setUiLanguage('en');
  useLanguagesStore.setState(useLanguagesStore.getInitialState(), true);
  useLibraryStore.setState({ ...useLibraryStore.getInitialState(), requestedPages: new Set(), reruns: {} }, true);
  useNavigationStore.setState({ route: { name: 'library' } });
});
afterEach(cleanup);

async function showList(items: TranscriptionSummary[]) {
  setUp(items);
  await act(() => useLibraryStore.getState().reload());
  render(<TranscriptionList />);
}

describe('the language warning', () => {
  it('shows on the row with the likely language, and its button opens the dialog with that language', async () => {
    await showList([summary('fine'), spanish]);
    const notes = screen.getAllByTestId('row-language-warning');
    expect(notes).toHaveLength(1); // the row without a warning has none
    expect(notes[0]!.textContent).toBe('May not be in English: sounds like Spanish');
    expect(notes[0]!.getAttribute('title')).toBe('This recording may not be in English. It sounds like Spanish.');

    fireEvent.click(screen.getByRole('button', { name: 'Transcribe again as Spanish…' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(chips(dialog)).toEqual(['es']));
    expect(within(dialog).getByTestId('rerun-model')).toHaveProperty('value', 'default');
  });

  it('still opens the row', async () => {
    await showList([spanish]);
    fireEvent.click(screen.getByRole('button', { name: 'Open junta.wav' }));
    expect(useNavigationStore.getState().route).toEqual({ name: 'transcript', id: 'junta' });
  });

  it('without a likely language, chooses nothing for the user: no language until one is chosen', async () => {
    await showList([unknown]);
    expect(screen.getByTestId('row-language-warning').textContent).toBe('May not be in English');
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe again in another language…' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Choose the language spoken in the recording.');
    expect(chips(dialog)).toEqual([]);
    expect(within(dialog).getByTestId('rerun-submit')).toHaveProperty('disabled', true);

    const search = within(dialog).getByTestId('rerun-language-input');
    fireEvent.focus(search);
    fireEvent.change(search, { target: { value: 'Finnish' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(chips(dialog)).toEqual(['fi']);
    expect(within(dialog).getByTestId('rerun-submit')).toHaveProperty('disabled', false);
  });

  it('says which languages need a speech model that is not installed, and leads to Settings → Speech models', async () => {
    setUp([unknown, spanish]);
    englishOnly();
    await act(() => useLibraryStore.getState().reload());
    render(<TranscriptionList />);
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe again in another language…' }));
    let dialog = await screen.findByRole('dialog');
    const note = await within(dialog).findByTestId('rerun-needs-model');
    expect(note.textContent).toMatch(/^Languages marked “needs a speech model” are not installed on the server/);
    fireEvent.click(within(note).getByRole('button', { name: 'Speech models in Settings…' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useNavigationStore.getState().route).toEqual({ name: 'settings', section: 'speech' });

    // The likely language named, but not one this server recognizes: said, and not sent to be refused.
    useNavigationStore.setState({ route: { name: 'library' } });
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe again as Spanish…' }));
    dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByTestId('rerun-needs-model')).textContent).toMatch(
      /^Spanish: needs a speech model that is not installed on the server\./,
    );
    expect(within(dialog).getByTestId('rerun-submit')).toHaveProperty('disabled', true);
  });

  it('says so in Japanese', async () => {
    setUiLanguage('ja');
    setUp([spanish]);
    englishOnly();
    render(<LanguageWarningBanner summary={spanish} />);
    fireEvent.click(screen.getByRole('button', { name: 'スペイン語としてもう一度文字起こし…' }));
    const note = await within(await screen.findByRole('dialog')).findByTestId('rerun-needs-model');
    expect(note.textContent).toBe(
      'スペイン語：サーバーにインストールされていない音声モデルが必要です。 設定の音声モデルへ…',
    );
  });

  it('reads in Japanese, in the view too', async () => {
    setUiLanguage('ja');
    setUp([spanish]);
    render(<LanguageWarningBanner summary={spanish} />);
    const banner = screen.getByTestId('language-warning');
    expect(banner.textContent).toContain('この録音は英語ではない可能性があります。スペイン語のように聞こえます。');
    fireEvent.click(within(banner).getByRole('button', { name: 'スペイン語としてもう一度文字起こし…' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(chips(dialog)).toEqual(['es']));
  });

  it('is not shown on a transcription that is running again', () => {
    setUp([]);
    render(<LanguageWarningBanner summary={{ ...spanish, status: 'IN_PROGRESS' }} />);
    expect(screen.queryByTestId('language-warning')).toBeNull();
  });
});
