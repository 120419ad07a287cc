// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RerunPlan, TranscriptionSummary, UploadJob, UploadOptions } from '../../../../src-shared/ipc-contract';
import { TranscriptionList } from '../../../../src-renderer/features/library/transcription-list';
import { useLibraryStore } from '../../../../src-renderer/stores/library-store';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { installFakeApi, setUiLanguage, summary, type FakeApi, type FakeHandlers } from '../fake-api';
import { en, ja } from '../../../../src-renderer/i18n/messages';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';

/** The handle main answers for the file chosen again (never its path). */
const CHOSEN = `file-${'c'.repeat(32)}`;
const REASON =
  'The audio could not be decoded (ffmpeg: Invalid data found when processing input). The file may be damaged or in a format this server cannot read; export it again as WAV, MP3 or M4A and upload that.';
const ORIGINAL: UploadOptions = {
  language: 'en',
  model: 'diarization-high',
  numSpeakers: 2,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [{ word: 'Kikitori' }],
};

const job = (id: string): UploadJob => ({
  id: `job-${id}`,
  filePath: `/cache/audio/${id}.wav`,
  fileName: `${id}.wav`,
  size: 100,
  sentBytes: 0,
  state: 'queued',
  transcriptionId: null,
  error: null,
  createdAt: '2026-01-02T03:04:05.000Z',
  startedAt: null,
});

let fake: FakeApi;
function setUp(items: TranscriptionSummary[], extra: FakeHandlers = {}) {
  fake = installFakeApi({
    'transcripts:list': () => ({ items, total: items.length }),
    'transcripts:rerun': ({ id }) => job(id),
    'transcripts:rerun-plan': (): RerunPlan => ({ options: ORIGINAL, optionsKnown: true, audioCached: true }),
    'dictionaries:list': () => [],
    'languages:serving': () => null,
    ...extra,
  });
}

const callsOf = (channel: string) => fake.calls.filter((c) => c.channel === channel).map((c) => c.request);

beforeEach(() => {
  useLibraryStore.setState({ ...useLibraryStore.getInitialState(), requestedPages: new Set(), reruns: {} }, true);
  useNavigationStore.setState({ route: { name: 'library' } });
});
afterEach(cleanup);

async function showList(items: TranscriptionSummary[], extra: FakeHandlers = {}) {
  setUp(items, extra);
  await act(() => useLibraryStore.getState().reload());
  render(<TranscriptionList />);
}

describe('a failed row', () => {
  it('says why it failed on one line, with the whole reason in its tooltip, and still opens', async () => {
    await showList([summary('ok'), summary('bad', { status: 'FAILED', failureReason: REASON })]);
    const reason = screen.getByTestId('failure-reason');
    expect(reason.textContent).toBe(REASON);
    expect(reason.getAttribute('title')).toBe(`Why it failed: ${REASON}`);
    expect(screen.getAllByTestId('failure-reason')).toHaveLength(1); // the completed row has none

    fireEvent.click(screen.getByRole('button', { name: 'Open bad.wav' }));
    expect(useNavigationStore.getState().route).toEqual({ name: 'transcript', id: 'bad' });
  });

  it('says why by the server’s failure code in the UI language, the server’s words only in the tooltip’s details', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: REASON, failureCode: 'bad-input' })]);
    const reason = screen.getByTestId('failure-reason');
    expect(reason.textContent).toBe(en['failure.bad-input']);
    expect(reason.getAttribute('title')).toBe(`Why it failed: ${en['failure.bad-input']}\nDetails: ${REASON}`);
    cleanup();

    setUiLanguage('ja');
    try {
      await showList([summary('bad', { status: 'FAILED', failureReason: REASON, failureCode: 'bad-input' })]);
      const japanese = screen.getByTestId('failure-reason');
      expect(japanese.textContent).toBe(ja['failure.bad-input']);
      // Japanese puts a full-width colon and no space after a label, and no space between sentences.
      expect(japanese.getAttribute('title')).toBe(`失敗の理由：${ja['failure.bad-input']}\n詳細：${REASON}`);
    } finally {
      useSettingsStore.setState({ settings: null });
    }
  });

  it('joins the reason and the missing recording as Japanese sentences, with no stray spaces', async () => {
    setUiLanguage('ja');
    try {
      await showList([
        summary('bad', { status: 'FAILED', failureReason: null, failureCode: 'bad-input', audioCached: false }),
      ]);
      expect(screen.getByTestId('failure-reason').getAttribute('title')).toBe(
        `失敗の理由：${ja['failure.bad-input']}${ja['library.rerun.notCached']}`,
      );
    } finally {
      useSettingsStore.setState({ settings: null });
    }
  });

  it('says so when the server gave no reason', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: null })]);
    expect(screen.getByTestId('failure-reason').textContent).toBe('The server gave no reason.');
  });

  it('tries again with the same options, then waits to be replaced', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: REASON })]);
    fireEvent.click(screen.getByRole('button', { name: 'Try bad.wav again with the same options' }));
    await screen.findByText('Transcribing again…');
    expect(callsOf('transcripts:rerun')).toEqual([{ id: 'bad' }]);
    expect(callsOf('uploads:pick')).toEqual([]);
    expect(screen.queryByRole('button', { name: /again with the same options/ })).toBeNull();
  });

  it('offers its actions again when the server refuses the new upload, and says why', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: REASON })]);
    const off = useLibraryStore.getState().init();
    fireEvent.click(screen.getByRole('button', { name: 'Try bad.wav again with the same options' }));
    await screen.findByText('Transcribing again…');
    const refusal = {
      code: 'unsupported' as const,
      field: 'language',
      reason: 'server.UNSUPPORTED_LANGUAGE' as const,
      detail: 'Japanese needs a speech model that knows Japanese.',
    };
    act(() => fake.emit('uploads:changed', { ...job('other'), state: 'failed', error: refusal }));
    expect(screen.getByText('Transcribing again…')).toBeTruthy(); // another upload: not this row's
    act(() => fake.emit('uploads:changed', { ...job('bad'), state: 'failed', error: refusal }));
    expect(screen.getByRole('alert').textContent).toBe(en['error.server.UNSUPPORTED_LANGUAGE']);
    expect(screen.getByRole('button', { name: 'Try bad.wav again with the same options' })).toBeTruthy();
    off();
  });

  it('shows a refusal in place of the reason, in the user’s terms', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: REASON })], {
      'transcripts:rerun': () => ({
        ok: false,
        error: { code: 'offline', reason: 'app.offline' },
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Try bad.wav again with the same options' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(en['error.app.offline']);
    // The actions stay, to try again later.
    expect(screen.getByRole('button', { name: 'Try bad.wav again with the same options' })).toBeTruthy();
  });

  it('asks for the file when the recording is not on this computer, and sends the chosen one', async () => {
    await showList([summary('elsewhere', { status: 'FAILED', failureReason: REASON, audioCached: false })], {
      'uploads:pick': () => [{ handle: CHOSEN, kind: 'file', name: 'elsewhere.wav', size: 1000 }],
    });
    expect(screen.queryByRole('button', { name: /again with the same options/ })).toBeNull();
    const choose = screen.getByRole('button', { name: 'Choose the recording of elsewhere.wav to transcribe it again' });
    expect(choose.textContent).toBe('Choose the file…');
    expect(choose.getAttribute('title')).toMatch(/^The recording is not on this computer/);
    fireEvent.click(choose);
    await screen.findByText('Transcribing again…');
    expect(callsOf('transcripts:rerun')).toEqual([{ id: 'elsewhere', file: CHOSEN }]);
  });

  it('does nothing when the picker is closed without a file', async () => {
    await showList([summary('elsewhere', { status: 'FAILED', failureReason: REASON, audioCached: false })], {
      'uploads:pick': () => [],
    });
    fireEvent.click(
      screen.getByRole('button', { name: 'Choose the recording of elsewhere.wav to transcribe it again' }),
    );
    await waitFor(() => expect(callsOf('uploads:pick')).toHaveLength(1));
    expect(callsOf('transcripts:rerun')).toEqual([]);
    expect(screen.getByTestId('failure-reason').textContent).toBe(REASON);
  });
});

describe('the "other options" dialog', () => {
  it('opens prefilled with the original options and sends the changed ones', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: REASON })]);
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe bad.wav again with other options…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transcribe “bad.wav” again' });
    const model = await within(dialog).findByTestId<HTMLSelectElement>('rerun-model');
    expect(model.value).toBe('diarization-high');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Number of speakers').value).toBe('2');
    expect(within(dialog).getByText(/from the recording already on the server/)).toBeTruthy();
    expect(within(dialog).queryByText(/were read from the server/)).toBeNull();

    fireEvent.change(model, { target: { value: 'default' } });
    fireEvent.change(within(dialog).getByLabelText('Number of speakers'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByTestId('rerun-submit'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsOf('transcripts:rerun')).toEqual([
      { id: 'bad', options: { ...ORIGINAL, model: 'default', numSpeakers: null } },
    ]);
    expect(screen.getByText('Transcribing again…')).toBeTruthy();
  });

  it('checks the speaker counts before sending, and shows main’s refusal next to its field', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: REASON })], {
      'transcripts:rerun': () => ({
        ok: false,
        error: {
          code: 'unsupported',
          field: 'options.language',
          reason: 'server.UNSUPPORTED_LANGUAGE',
          detail: 'Japanese needs a speech model that knows Japanese.',
        },
      }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe bad.wav again with other options…' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByTestId('rerun-model');
    fireEvent.change(within(dialog).getByTestId('rerun-speaker-mode'), { target: { value: 'range' } });
    fireEvent.change(within(dialog).getByLabelText('Fewest speakers'), { target: { value: '4' } });
    fireEvent.change(within(dialog).getByLabelText('Most speakers'), { target: { value: '3' } });
    expect(within(dialog).getByText('The minimum is above the maximum.')).toBeTruthy();
    expect(within(dialog).getByTestId<HTMLButtonElement>('rerun-submit').disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Fewest speakers'), { target: { value: '' } });

    fireEvent.click(within(dialog).getByTestId('rerun-submit'));
    const refusal = (await within(dialog).findByText(en['error.server.UNSUPPORTED_LANGUAGE'])).closest<HTMLElement>(
      '[data-testid="field-error"]',
    )!;
    expect(refusal.dataset.field).toBe('options.language');
    expect(within(refusal).getByTestId('error-details').textContent).toContain('Japanese needs a speech model');
    expect(screen.getByRole('dialog')).toBeTruthy(); // still open, to change the language
  });

  it('runs in place first; asks for the recording only when main says neither computer has it', async () => {
    let answers = 0;
    await showList([summary('elsewhere', { status: 'FAILED', failureReason: REASON, audioCached: false })], {
      'transcripts:rerun-plan': () => ({
        options: { ...ORIGINAL, words: [] },
        optionsKnown: false,
        audioCached: false,
      }),
      // The server lost its copy too: main asks for the file, once.
      'transcripts:rerun': () =>
        answers++ === 0
          ? {
              ok: false,
              error: { code: 'not-found', field: 'audio', message: 'The recording is not on this computer.' },
            }
          : { ok: true, value: null },
      'uploads:pick': () => [{ handle: CHOSEN, kind: 'file', name: 'elsewhere.wav', size: 1000 }],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe elsewhere.wav again with other options…' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByTestId('rerun-model');
    expect(within(dialog).getByText(/were read from the server/)).toBeTruthy();
    // The server may still have the recording: no file is asked for yet.
    expect(within(dialog).queryByText(/not on this computer: choose the file/)).toBeNull();
    const submit = within(dialog).getByTestId('rerun-submit');
    expect(submit.textContent).toBe('Transcribe again');
    fireEvent.click(submit);
    await waitFor(() => expect(callsOf('transcripts:rerun')).toHaveLength(1));
    expect(callsOf('transcripts:rerun')[0]).toEqual({ id: 'elsewhere', options: { ...ORIGINAL, words: [] } });

    await waitFor(() => expect(submit.textContent).toBe('Choose the file and transcribe'));
    expect(within(dialog).getByText(/not on this computer: choose the file/)).toBeTruthy();
    fireEvent.click(submit);
    await waitFor(() => expect(callsOf('transcripts:rerun')).toHaveLength(2));
    expect(callsOf('transcripts:rerun')[1]).toEqual({
      id: 'elsewhere',
      options: { ...ORIGINAL, words: [] },
      file: CHOSEN,
    });
  });

  it('closes with Escape without sending', async () => {
    await showList([summary('bad', { status: 'FAILED', failureReason: REASON })]);
    fireEvent.click(screen.getByRole('button', { name: 'Transcribe bad.wav again with other options…' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsOf('transcripts:rerun')).toEqual([]);
  });
});
