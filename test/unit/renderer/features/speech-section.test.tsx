// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../../../src-shared/ipc-contract';
import { SpeechSection } from '../../../../src-renderer/features/settings/speech-section';
import { useModelsStore } from '../../../../src-renderer/stores/models-store';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { freshSettings, installFakeApi, type FakeApi } from '../fake-api';
import { speechModel, speechModels, WHISPER_BASE } from '../speech-fixtures';

const MB = 1024 * 1024;
const settings = (uiLanguage: Settings['uiLanguage'] = 'en'): Settings => freshSettings({ uiLanguage });

let fake: FakeApi;
beforeEach(() => {
  useModelsStore.setState(useModelsStore.getInitialState(), true);
  useSettingsStore.setState({
    settings: settings(),
    profiles: [{ id: 'embedded', name: 'This computer', kind: 'embedded', baseUrl: '' }],
  });
  fake = installFakeApi({ 'models:list': () => speechModels() });
});
afterEach(cleanup);

const BASE = 'Whisper base — 99 languages';
const group = (family: string, multilingual = true) =>
  screen
    .getAllByTestId('speech-group')
    .find(
      (el) =>
        el.dataset.family === family &&
        el.querySelector('strong')!.textContent.includes(multilingual ? '99' : 'English'),
    )!;
const row = (name: string) => screen.getAllByTestId('speech-model').find((el) => el.dataset.model === name)!;
const findRow = async (name: string) =>
  (await screen.findAllByTestId('speech-model')).find((el) => el.dataset.model === name)!;

describe('SpeechSection', () => {
  it('says in plain words what transcribes now, no engine name, and lists the models by plain name with their hints', async () => {
    render(<SpeechSection />);
    expect(await screen.findByTestId('speech-headline')).toHaveProperty('textContent', 'Built-in English recognizer');
    // Issue 27: no "Using: pocketsphinx" anywhere.
    expect(screen.queryByTestId('speech-using')).toBeNull();
    expect(screen.getByTestId('speech-section').textContent).not.toMatch(/pocketsphinx|Using:/);
    expect(screen.getByRole('heading', { name: 'Speech recognition' })).toBeTruthy();
    expect(screen.getByText('No model is installed yet.')).toBeTruthy();
    expect(group('base').textContent).toContain('Whisper base — 99 languagesSpeed: fast · Accuracy: good');
    expect(row('base').textContent).toContain('Full size');
    expect(row('base').textContent).toContain('141 MB');
    expect(group('base', false).textContent).toContain('Whisper base — English only');
    expect(within(row('base')).getByText('Recommended for this computer')).toBeTruthy();
    expect(within(row('tiny')).queryByText('Recommended for this computer')).toBeNull();
  });

  it('names whisper and its languages once a model serves', async () => {
    fake.handlers['models:list'] = () =>
      speechModels({
        models: [speechModel('base', { installed: true }), speechModel('tiny')],
        serving: { default: WHISPER_BASE, 'diarization-high': WHISPER_BASE },
      });
    render(<SpeechSection />);
    expect((await screen.findByTestId('speech-headline')).textContent).toBe('Whisper base — 99 languages');
    expect(screen.queryByTestId('speech-using')).toBeNull();
    expect(within(screen.getByTestId('speech-installed')).getByText(BASE)).toBeTruthy();
  });

  it('groups the compressed files under their model, never as accurate as the full one (issue 27)', async () => {
    const compressed = (name: string, precision: 'near-full' | 'reduced', bytes: number) =>
      speechModel(name, { family: 'small', quantized: true, precision, bytes, speed: 'moderate', accuracy: 'better' });
    const small = speechModel('small', { speed: 'moderate', accuracy: 'better', bytes: 465 * MB });
    fake.handlers['models:list'] = () =>
      speechModels({
        recommended: null,
        models: [
          small,
          speechModel('small.en', { speed: 'moderate', accuracy: 'better' }),
          compressed('small-q5_1', 'reduced', 181 * MB),
          compressed('small-q8_0', 'near-full', 252 * MB),
        ],
        serving: {
          default: { ...WHISPER_BASE, model: 'small-q5_1' },
          'diarization-high': { ...WHISPER_BASE, model: 'small-q5_1' },
        },
      });
    render(<SpeechSection />);
    expect((await screen.findByTestId('speech-headline')).textContent).toBe(
      'Whisper small — 99 languages (compressed, a little less accurate)',
    );
    const groups = screen.getAllByTestId('speech-group');
    expect(groups.map((g) => g.querySelector('strong')!.textContent)).toEqual([
      'Whisper small — 99 languages',
      'Whisper small — English only',
    ]);
    // The full file first, then the compressed ones by what they keep; the model's hints once, on the group.
    const files = within(groups[0]!).getAllByTestId('speech-model');
    expect(files.map((f) => f.dataset.model)).toEqual(['small', 'small-q8_0', 'small-q5_1']);
    expect(files.map((f) => f.querySelector('.speech-model-name')!.textContent)).toEqual([
      'Full size',
      'Compressed: smaller, nearly as accurate',
      'Compressed: smallest, a little less accurate',
    ]);
    expect(groups[0]!.textContent.match(/Accuracy: better/g)).toHaveLength(1);
    expect(
      within(files[2]!).getByRole('button', {
        name: 'Download Whisper small — 99 languages (compressed, a little less accurate)',
      }),
    ).toBeTruthy();
    expect(screen.getByTestId('speech-section').textContent).not.toMatch(/q5_1|q8_0/);
  });

  it('downloads with a progress bar (percent, MB of MB) and cancels', async () => {
    fake.handlers['models:download'] = () => speechModels();
    fake.handlers['models:cancel'] = () => speechModels();
    render(<SpeechSection />);
    fireEvent.click(await screen.findByRole('button', { name: `Download ${BASE}` }));
    await waitFor(() => expect(fake.calls).toContainEqual({ channel: 'models:download', request: { name: 'base' } }));
    fake.emit('models:changed', {
      model: 'base',
      status: 'DOWNLOADING',
      receivedBytes: 70.5 * MB,
      totalBytes: 141 * MB,
      error: null,
      errorCode: null,
    });
    const bar = await screen.findByRole('progressbar', { name: `Download of ${BASE}` });
    expect(bar.getAttribute('value')).toBe(String(70.5 * MB));
    expect(within(row('base')).getByTestId('speech-progress-text').textContent).toBe('50% · 71 MB of 141 MB');
    expect(within(row('base')).queryByRole('button', { name: `Download ${BASE}` })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: `Cancel the download of ${BASE}` }));
    await waitFor(() => expect(fake.calls).toContainEqual({ channel: 'models:cancel', request: { name: 'base' } }));
    fake.emit('models:changed', {
      model: 'base',
      status: 'CANCELLED',
      receivedBytes: 70.5 * MB,
      totalBytes: 141 * MB,
      error: null,
      errorCode: null,
    });
    expect(await within(row('base')).findByText('Download cancelled.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it("a failed download says what to do when the server is offline, with the server's reason as a detail", async () => {
    render(<SpeechSection />);
    await screen.findByTestId('speech-headline');
    fake.emit('models:changed', {
      model: 'base',
      status: 'FAILED',
      receivedBytes: 0,
      totalBytes: 0,
      error: 'Could not reach huggingface.co.',
      errorCode: 'unreachable',
    });
    const failed = await within(row('base')).findByTestId('speech-download-failed');
    // Why, in the UI's language from the server's code; the server's own words under "Details".
    expect(failed.textContent).toContain('the server cannot reach the model host');
    expect(within(failed).getByTestId('error-details').textContent).toBe('DetailsCould not reach huggingface.co.');
    expect(within(row('base')).getByRole('button', { name: `Download ${BASE}` })).toBeTruthy();
  });

  it('deletes only after a confirmation', async () => {
    fake.handlers['models:list'] = () => speechModels({ models: [speechModel('base', { installed: true })] });
    fake.handlers['models:delete'] = () => speechModels({ models: [speechModel('base')] });
    render(<SpeechSection />);
    fireEvent.click(await screen.findByRole('button', { name: `Delete ${BASE}` }));
    const confirm = screen.getByRole('group', { name: `Delete ${BASE}` });
    expect(confirm.textContent).toContain(`Delete ${BASE} from the server?`);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    expect(fake.calls.some((c) => c.channel === 'models:delete')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: `Delete ${BASE}` }));
    fireEvent.click(
      within(screen.getByRole('group', { name: `Delete ${BASE}` })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(fake.calls).toContainEqual({ channel: 'models:delete', request: { name: 'base' } }));
    expect(await screen.findByText('No model is installed yet.')).toBeTruthy();
  });

  it('against a server whose key is not OPERATOR: shows what it offers, without admin actions', async () => {
    fake.handlers['models:list'] = () =>
      speechModels({
        canManage: false,
        local: false,
        recommended: null,
        offer: false,
        models: [speechModel('small', { installed: true }), speechModel('base')],
      });
    useSettingsStore.setState({
      settings: { ...settings(), activeProfileId: 'office' },
      profiles: [{ id: 'office', name: 'Office', kind: 'remote', baseUrl: 'https://kikitori.example.com' }],
    });
    render(<SpeechSection />);
    expect(await screen.findByText('These are the models of the server at kikitori.example.com.')).toBeTruthy();
    expect(screen.getByTestId('speech-not-admin').textContent).toContain('OPERATOR');
    expect(screen.getAllByTestId('speech-model')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /Download|Delete/ })).toBeNull();
  });

  it('says which installed model is damaged and what to do: delete it, or ask the operator', async () => {
    fake.handlers['models:list'] = () =>
      speechModels({
        models: [speechModel('base', { installed: true, damaged: true }), speechModel('tiny', { installed: true })],
      });
    const { unmount } = render(<SpeechSection />);
    expect((await within(await findRow('base')).findByTestId('speech-damaged')).textContent).toBe(
      'Damaged: the server cannot load this model, so transcriptions do not use it. Delete it and download it again.',
    );
    expect(row('base').getAttribute('data-damaged')).toBe('true');
    expect(within(row('base')).getByRole('button', { name: `Delete ${BASE}` })).toBeTruthy();
    // The recommended model, but damaged: not recommended as it is.
    expect(within(row('base')).queryByText('Recommended for this computer')).toBeNull();
    expect(within(row('tiny')).queryByTestId('speech-damaged')).toBeNull();
    unmount();

    fake.handlers['models:list'] = () =>
      speechModels({
        canManage: false,
        offer: false,
        models: [speechModel('base', { installed: true, damaged: true })],
      });
    render(<SpeechSection />);
    expect((await within(await findRow('base')).findByTestId('speech-damaged')).textContent).toMatch(
      /Ask the server's operator to delete it and download it again\.$/,
    );
  });

  it("a refused action shows in the user's terms under its model", async () => {
    fake.handlers['models:download'] = () => ({
      ok: false,
      error: { code: 'insufficient-storage', message: 'Main words it in English.', errorId: 'e-7' },
    });
    render(<SpeechSection />);
    fireEvent.click(await screen.findByRole('button', { name: `Download ${BASE}` }));
    const alert = await within(row('base')).findByRole('alert');
    expect(alert.textContent).toBe(
      'The server does not have enough free disk space for this model. Free some space on it, or choose a smaller model. Error id: e-7',
    );
  });

  it('says in Japanese why the list failed to load, with no space after the first sentence', async () => {
    useSettingsStore.setState({ settings: settings('ja') });
    fake.handlers['models:list'] = () => ({
      ok: false,
      error: { code: 'offline', message: 'Cannot reach the server.' },
    });
    render(<SpeechSection />);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^音声モデルを読み込めませんでした。サーバーに接続できません。/,
    );
  });

  it('speaks Japanese', async () => {
    useSettingsStore.setState({ settings: settings('ja') });
    fake.handlers['models:download'] = () => ({
      ok: false,
      error: { code: 'offline', message: 'Cannot reach the server.' },
    });
    render(<SpeechSection />);
    expect((await screen.findByTestId('speech-headline')).textContent).toBe('内蔵の英語音声認識');
    expect(screen.getByRole('heading', { name: '音声認識' })).toBeTruthy();
    expect(group('base').textContent).toContain('Whisper base — 99 言語速度: 速い · 精度: 良い');
    expect(row('base').textContent).toContain('通常版');
    expect(screen.getAllByTestId('speech-group')[2]!.textContent).toContain('Whisper base — 英語のみ');
    fireEvent.click(screen.getByRole('button', { name: 'Whisper base — 99 言語 をダウンロード' }));
    expect((await within(row('base')).findByRole('alert')).textContent).toBe(
      'サーバーに接続できません。接続を確認してから、もう一度お試しください。',
    );
    fake.emit('models:changed', {
      model: 'tiny',
      status: 'DOWNLOADING',
      receivedBytes: 15 * MB,
      totalBytes: 75 * MB,
      error: null,
      errorCode: null,
    });
    expect((await within(row('tiny')).findByTestId('speech-progress-text')).textContent).toBe('20% · 75 MB 中 15 MB');
  });

  it('opened from “Speech models in Settings…”, is scrolled to and its heading focused', async () => {
    useNavigationStore.setState({ route: { name: 'settings', section: 'speech' } });
    try {
      render(<SpeechSection />);
      await waitFor(() =>
        expect(document.activeElement?.textContent).toBe(screen.getByRole('heading', { level: 2 }).textContent),
      );
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2 }));
    } finally {
      useNavigationStore.setState({ route: { name: 'library' } });
    }
  });
});
