// @vitest-environment happy-dom
// A finished transcription most likely not in its language (decision 0070): the row and the view say so
// in the UI's language, and "Transcribe again as …" opens the Transcribe again dialog with that language.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RerunPlan, TranscriptionSummary, UploadOptions } from '../../../../src-shared/ipc-contract';
import { TranscriptionList } from '../../../../src-renderer/features/library/transcription-list';
import { LanguageWarningBanner } from '../../../../src-renderer/features/transcript/language-warning';
import { useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { installFakeApi, setUiLanguage, summary } from '../fake-api';

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

function setUp(items: TranscriptionSummary[]) {
  installFakeApi({
    'transcripts:list': () => ({ items, total: items.length }),
    'transcripts:rerun-plan': (): RerunPlan => ({ options: ORIGINAL, optionsKnown: true, audioCached: true }),
    'dictionaries:list': () => [],
    'languages:serving': () => null,
  });
}

const chips = (root: HTMLElement) =>
  [...root.querySelectorAll('.language-chip[data-code]')].map((c) => c.getAttribute('data-code'));

beforeEach(() => {
  setUiLanguage('en');
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

  it('without a likely language, offers another language and keeps the one it was made with', async () => {
    await showList([unknown]);
    expect(screen.getByTestId('row-language-warning').textContent).toBe('May not be in English');
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe again in another language…' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(chips(dialog)).toEqual(['en']));
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
