// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { DropZone } from '../../../../src-renderer/features/library/drop-zone';
import { UploadOptionsForm } from '../../../../src-renderer/features/library/upload-options-form';
import { DEFAULT_UPLOAD_OPTIONS, useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import { LIMITS } from '../../../../src-shared/limits';
import { UploadRequest } from '../../../../src-shared/api/transcriptions';
import { installFakeApi, offerOf, setUiLanguage, type FakeApi } from '../fake-api';

let fake: FakeApi;
beforeEach(() => {
  useUploadsStore.setState({ ...useUploadsStore.getInitialState(), options: DEFAULT_UPLOAD_OPTIONS }, true);
  fake = installFakeApi({ 'dictionaries:list': () => [] });
});
afterEach(cleanup);

/** The error the input points at with aria-describedby: the message next to it. */
const errorOf = (input: HTMLElement) => {
  const describedBy = input.getAttribute('aria-describedby');
  return describedBy ? (document.getElementById(describedBy)?.textContent ?? null) : null;
};
const chooseMode = (mode: 'auto' | 'exact' | 'range') =>
  fireEvent.change(screen.getByTestId('speaker-mode'), { target: { value: mode } });

describe('UploadOptionsForm', () => {
  it('offers the transcription_model choice as what it does to speakers, not as an engine or a "model" (issue 27)', () => {
    const { unmount } = render(<UploadOptionsForm />);
    expect(screen.queryByLabelText('Model')).toBeNull();
    const select = screen.getByLabelText<HTMLSelectElement>('Telling speakers apart');
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['default', 'Standard'],
      ['diarization-high', 'More careful (slower)'],
    ]);
    expect(errorOf(select)).toBe(
      'Both find who speaks when. “More careful” goes over the voices several times, so it takes longer.',
    );
    unmount();
    setUiLanguage('ja');
    onTestFinished(() => setUiLanguage('en'));
    render(<UploadOptionsForm />);
    const japanese = screen.getByLabelText<HTMLSelectElement>('話者の聞き分け');
    expect([...japanese.options].map((o) => o.textContent)).toEqual(['標準', 'より丁寧に（時間がかかる）']);
  });

  it('says what the dictionary does and how the extra words differ, in English and Japanese', () => {
    const { unmount } = render(<UploadOptionsForm />);
    expect(errorOf(screen.getByLabelText<HTMLSelectElement>('Dictionary'))).toBe(
      'Its words help recognition catch names and terms; its forced replacements then rewrite the transcript. Extra words below count for these files only.',
    );
    unmount();
    setUiLanguage('ja');
    onTestFinished(() => setUiLanguage('en'));
    render(<UploadOptionsForm />);
    expect(errorOf(screen.getByLabelText<HTMLSelectElement>('辞書'))).toBe(
      '辞書の単語は名前や用語の聞き取りを助け、強制置換はその後で文字起こしを書き換えます。下の追加の単語は、これらのファイルだけに使われます。',
    );
  });

  it('allows the shared speaker limit, not a renderer-only one', () => {
    render(<UploadOptionsForm />);
    chooseMode('range');
    for (const testId of ['min-speakers-input', 'max-speakers-input']) {
      expect(screen.getByTestId(testId).getAttribute('max')).toBe(String(LIMITS.speakers.max));
    }
    chooseMode('exact');
    expect(screen.getByTestId('num-speakers-input').getAttribute('max')).toBe(String(LIMITS.speakers.max));
    fireEvent.change(screen.getByTestId('num-speakers-input'), { target: { value: '64' } });
    expect(useUploadsStore.getState().options.numSpeakers).toBe(64);
    expect(errorOf(screen.getByTestId('num-speakers-input'))).toBeNull();
  });

  it('checks the speaker counts with the shared rule and says so next to the field', () => {
    render(<UploadOptionsForm />);
    chooseMode('range');
    fireEvent.change(screen.getByTestId('min-speakers-input'), { target: { value: '4' } });
    fireEvent.change(screen.getByTestId('max-speakers-input'), { target: { value: '2' } });
    expect(errorOf(screen.getByTestId('min-speakers-input'))).toBe('The minimum is above the maximum.');
    expect(screen.getByTestId('min-speakers-input').getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(screen.getByTestId('max-speakers-input'))).toBeNull();

    chooseMode('exact');
    fireEvent.change(screen.getByTestId('num-speakers-input'), { target: { value: String(LIMITS.speakers.max + 1) } });
    expect(errorOf(screen.getByTestId('num-speakers-input'))).toBe(
      `Enter a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}.`,
    );
  });

  it('places main’s refusal by its field, next to the option and not in the drop zone banner', async () => {
    installFakeApi({
      'dictionaries:list': () => [],
      'uploads:add': () => ({
        ok: false,
        error: {
          code: 'validation',
          field: 'options.language',
          reason: 'app.invalid-request',
          detail: 'Language must be a two-letter ISO 639-1 code such as "en" or "ja".',
        },
      }),
    });
    render(
      <>
        <DropZone />
        <UploadOptionsForm />
      </>,
    );
    await act(() => useUploadsStore.getState().addHandles(['handle of a.wav']));
    const message = screen.getByText(/two-letter ISO 639-1 code/).closest<HTMLElement>('[data-testid="field-error"]')!;
    expect(message.getAttribute('data-field')).toBe('options.language');
    expect(screen.getByTestId('language-input').getAttribute('aria-describedby')).toBe(message.id);
    expect(document.querySelector('.error-banner')).toBeNull();
    expect((document.querySelector('details.upload-options') as HTMLDetailsElement).open).toBe(true);

    // Changing an option settles the refusal.
    fireEvent.change(screen.getByTestId('language-input'), { target: { value: 'en' } });
    fireEvent.keyDown(screen.getByTestId('language-input'), { key: 'Enter' });
    expect(useUploadsStore.getState().options.language).toBe('en');
    expect(screen.queryByText(/two-letter ISO 639-1 code/)).toBeNull();
  });

  it('keeps errors that are not about an option in the drop zone banner', async () => {
    installFakeApi({
      'uploads:add': () => ({
        ok: false,
        error: { code: 'validation', field: 'files', reason: 'app.file-empty', params: { name: 'a.wav' } },
      }),
    });
    render(<DropZone />);
    await act(() => useUploadsStore.getState().addHandles(['handle of a.wav']));
    expect(document.querySelector('.error-banner')?.textContent).toContain(
      '“a.wav” is empty (0 bytes), so there is nothing to transcribe.',
    );
  });

  it('offers no more speakers than the server accepts: the input’s bounds are the upload route’s', () => {
    const serverCount = UploadRequest.properties.num_speakers.anyOf[0] as unknown as {
      minimum: number;
      maximum: number;
    };
    render(<UploadOptionsForm />);
    chooseMode('exact');
    const input = screen.getByTestId('num-speakers-input');
    expect(Number(input.getAttribute('max'))).toBe(serverCount.maximum);
    expect(Number(input.getAttribute('min'))).toBe(serverCount.minimum);
    chooseMode('range');
    for (const testId of ['min-speakers-input', 'max-speakers-input']) {
      expect(Number(screen.getByTestId(testId).getAttribute('max'))).toBe(
        (UploadRequest.properties.max_speakers.anyOf[0] as unknown as { maximum: number }).maximum,
      );
    }
  });

  it('reads "Exactly N" or "Between A and B", and the upload carries only that mode’s counts', async () => {
    fake.handlers['uploads:add'] = () => [];
    render(<UploadOptionsForm />);
    const mode = screen.getByTestId<HTMLSelectElement>('speaker-mode');
    expect(mode.value).toBe('auto');
    expect([...mode.options].map((option) => option.text)).toEqual(['Detect automatically', 'Exactly', 'Between']);
    expect(screen.queryByRole('spinbutton')).toBeNull();

    chooseMode('exact');
    fireEvent.change(screen.getByLabelText('Number of speakers'), { target: { value: '3' } });
    expect(screen.getByTestId('speaker-mode').parentElement?.textContent).toContain('speakers');
    chooseMode('range');
    // The exact count carries over as both bounds, so switching does not lose what was typed.
    expect(screen.getByLabelText<HTMLInputElement>('Fewest speakers').value).toBe('3');
    fireEvent.change(screen.getByLabelText('Fewest speakers'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Most speakers'), { target: { value: '5' } });
    expect(screen.queryByLabelText('Number of speakers')).toBeNull();
    await act(() => useUploadsStore.getState().addHandles(['handle of a.wav']));
    expect(fake.calls.find((call) => call.channel === 'uploads:add')?.request).toMatchObject({
      options: { numSpeakers: null, minSpeakers: 2, maxSpeakers: 5 },
    });

    // An emptied box keeps its mode (the user is typing), and sends "let the server decide".
    chooseMode('exact');
    fireEvent.change(screen.getByLabelText('Number of speakers'), { target: { value: '' } });
    expect(screen.getByTestId<HTMLSelectElement>('speaker-mode').value).toBe('exact');
    expect(useUploadsStore.getState().options).toMatchObject({
      numSpeakers: null,
      minSpeakers: null,
      maxSpeakers: null,
    });
    chooseMode('auto');
    expect(screen.queryByRole('spinbutton')).toBeNull();
  });

  it('remembers a valid choice in the settings, and not counts that cannot hold', () => {
    fake.handlers['settings:update'] = (patch) => ({
      ...SETTINGS,
      defaults: { ...SETTINGS.defaults, ...patch.defaults },
    });
    render(<UploadOptionsForm />);
    chooseMode('range');
    fireEvent.change(screen.getByLabelText('Fewest speakers'), { target: { value: '4' } });
    const updates = () => fake.calls.filter((call) => call.channel === 'settings:update').map((call) => call.request);
    expect(updates().at(-1)).toEqual({
      defaults: {
        language: null,
        model: 'default',
        numSpeakers: null,
        minSpeakers: 4,
        maxSpeakers: null,
        dictionaryId: null,
      },
    });
    const count = updates().length;
    fireEvent.change(screen.getByLabelText('Most speakers'), { target: { value: '2' } });
    expect(updates()).toHaveLength(count);
    fireEvent.change(screen.getByLabelText('Most speakers'), { target: { value: '6' } });
    expect(updates().at(-1)).toMatchObject({ defaults: { minSpeakers: 4, maxSpeakers: 6 } });
    // Ad-hoc words are for one upload only.
    fireEvent.change(screen.getByLabelText(/Extra words/), { target: { value: 'Kikitori' } });
    expect(JSON.stringify(updates())).not.toContain('Kikitori');
  });
});

describe('multichannel offer', () => {
  /** Main's offers: "call.wav" has two channels, "memo.wav" one, "odd.wav" is not known. */
  const channels: Record<string, number | null> = { 'call.wav': 2, 'memo.wav': 1, 'odd.wav': null };
  function install() {
    return installFakeApi({ 'dictionaries:list': () => [], 'uploads:add': () => [] }, (file) => ({
      ...offerOf(file),
      channels: channels[file.name] ?? null,
    }));
  }
  const adds = (api: FakeApi) => api.calls.filter((call) => call.channel === 'uploads:add').map((call) => call.request);

  it('is not offered for files of one channel, or of channels not known, which are uploaded at once', async () => {
    const api = install();
    render(<UploadOptionsForm />);
    await act(() =>
      useUploadsStore.getState().addFiles([new File(['RIFF'], 'memo.wav'), new File(['RIFF'], 'odd.wav')]),
    );
    expect(screen.queryByTestId('multichannel-input')).toBeNull();
    // Each file on its own request, so a bad one cannot refuse the others.
    expect(adds(api)).toEqual([
      { files: ['handle of memo.wav'], options: DEFAULT_UPLOAD_OPTIONS },
      { files: ['handle of odd.wav'], options: DEFAULT_UPLOAD_OPTIONS },
    ]);
  });

  it('holds a file of two or more channels until the user says whether each channel is a speaker', async () => {
    const api = install();
    render(<UploadOptionsForm />);
    await act(() =>
      useUploadsStore.getState().addFiles([new File(['RIFF'], 'call.wav'), new File(['RIFF'], 'memo.wav')]),
    );
    // The one-channel file went; the stereo one waits, with the question in the opened options.
    expect(adds(api)).toEqual([{ files: ['handle of memo.wav'], options: DEFAULT_UPLOAD_OPTIONS }]);
    expect((document.querySelector('details.upload-options') as HTMLDetailsElement).open).toBe(true);
    expect(screen.getByTestId('multichannel-offer').textContent).toContain('“call.wav”');
    const checkbox = screen.getByLabelText<HTMLInputElement>('Each channel is a speaker');
    expect(checkbox.checked).toBe(false);
    fireEvent.click(checkbox);
    await act(async () => fireEvent.click(screen.getByTestId('multichannel-upload')));
    expect(adds(api)[1]).toEqual({
      files: ['handle of call.wav'],
      options: { ...DEFAULT_UPLOAD_OPTIONS, multichannel: true },
    });
    expect(screen.queryByTestId('multichannel-input')).toBeNull();
  });

  it('uploads a held file mixed down when the box is left unticked, and forgets it on Cancel', async () => {
    const api = install();
    render(<UploadOptionsForm />);
    await act(() => useUploadsStore.getState().addFiles([new File(['RIFF'], 'call.wav')]));
    await act(async () => fireEvent.click(screen.getByTestId('multichannel-upload')));
    expect(adds(api)).toEqual([{ files: ['handle of call.wav'], options: DEFAULT_UPLOAD_OPTIONS }]);
    await act(() => useUploadsStore.getState().addFiles([new File(['RIFF'], 'call.wav')]));
    fireEvent.click(screen.getByText('Cancel'));
    expect(screen.queryByTestId('multichannel-offer')).toBeNull();
    expect(adds(api)).toHaveLength(1);
  });

  it('asks in Japanese', async () => {
    setUiLanguage('ja');
    onTestFinished(() => useSettingsStore.setState(useSettingsStore.getInitialState(), true));
    install();
    render(<UploadOptionsForm />);
    await act(() => useUploadsStore.getState().addFiles([new File(['RIFF'], 'call.wav')]));
    expect(screen.getByLabelText('チャンネルごとに別の話者')).toBeTruthy();
    expect(screen.getByTestId('multichannel-offer').textContent).toContain('2 チャンネル以上の録音');
  });
});

const SETTINGS = {
  activeProfileId: 'embedded',
  uiLanguage: 'en' as const,
  defaults: {
    language: null,
    model: 'default' as const,
    numSpeakers: null,
    minSpeakers: null,
    maxSpeakers: null,
    dictionaryId: null,
  },
  playbackRate: 1,
  notifications: true,
};
