// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpeechModelOffer } from '../../../../src-renderer/features/settings/speech-model-offer';
import { useModelsStore } from '../../../../src-renderer/stores/models-store';
import { useNavigationStore } from '../../../../src-renderer/stores/navigation-store';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { freshSettings, installFakeApi, type FakeApi, withViewport } from '../fake-api';
import { speechModel, speechModels, WHISPER_BASE } from '../speech-fixtures';

const MB = 1024 * 1024;
let fake: FakeApi;
beforeEach(() => {
  useModelsStore.setState(useModelsStore.getInitialState(), true);
  useSettingsStore.setState({ settings: null });
  useNavigationStore.setState({ route: { name: 'library' } });
  fake = installFakeApi({ 'models:list': () => speechModels() });
});
afterEach(cleanup);

describe('SpeechModelOffer', () => {
  it('offers the recommended model in a region, not a dialog', async () => {
    render(<SpeechModelOffer />);
    const offer = await screen.findByRole('region', { name: 'Get punctuated transcripts in about 99 languages' });
    expect(offer.textContent).toContain(
      'Download Whisper base (141 MB), the speech model that suits this computer. Transcriptions then use it instead of the built-in English recognizer.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('in a low window it starts on one line: the title, Download and Not now; opened, it shows in full', async () => {
    await withViewport({ width: 1024, height: 700 }, async () => {
      render(<SpeechModelOffer />);
      const title = await screen.findByRole('button', { name: 'Get punctuated transcripts in about 99 languages' });
      expect(title.getAttribute('aria-expanded')).toBe('false');
      const offer = screen.getByTestId('speech-offer');
      expect(offer.textContent).not.toContain('the speech model that suits this computer');
      expect(screen.getByRole('button', { name: 'Download Whisper base' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Not now' })).toBeTruthy();
      fireEvent.click(title);
      expect(title.getAttribute('aria-expanded')).toBe('true');
      expect(offer.textContent).toContain('the speech model that suits this computer');
    });
  });

  it('shows nothing when main has no offer', async () => {
    fake.handlers['models:list'] = () => speechModels({ offer: false });
    render(<SpeechModelOffer />);
    await waitFor(() => expect(useModelsStore.getState().models).not.toBeNull());
    expect(screen.queryByTestId('speech-offer')).toBeNull();
  });

  it('"Not now" hides it and tells main to remember', async () => {
    fake.handlers['models:dismiss-offer'] = () => speechModels({ offer: false });
    render(<SpeechModelOffer />);
    fireEvent.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('speech-offer')).toBeNull();
    await waitFor(() => expect(fake.calls.map((c) => c.channel)).toContain('models:dismiss-offer'));
  });

  it('downloads with progress, then says the model is ready', async () => {
    let installed = false;
    fake.handlers['models:download'] = () => speechModels();
    fake.handlers['models:list'] = () =>
      installed
        ? speechModels({
            models: [speechModel('base', { installed: true })],
            serving: { default: WHISPER_BASE, 'diarization-high': WHISPER_BASE },
            offer: false,
          })
        : speechModels();
    render(<SpeechModelOffer />);
    fireEvent.click(await screen.findByRole('button', { name: 'Download Whisper base' }));
    await waitFor(() => expect(fake.calls).toContainEqual({ channel: 'models:download', request: { name: 'base' } }));
    fake.emit('models:changed', {
      model: 'base',
      status: 'DOWNLOADING',
      receivedBytes: 14.1 * MB,
      totalBytes: 141 * MB,
      error: null,
      errorCode: null,
    });
    expect((await screen.findByRole('progressbar', { name: 'Download of base' })).getAttribute('max')).toBe(
      String(141 * MB),
    );
    expect(screen.getByText('10% · 14 MB of 141 MB')).toBeTruthy();
    installed = true;
    fake.emit('models:changed', {
      model: 'base',
      status: 'COMPLETED',
      receivedBytes: 141 * MB,
      totalBytes: 141 * MB,
      error: null,
      errorCode: null,
    });
    expect(await screen.findByText('Whisper base is ready: new transcriptions use it.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('speech-offer')).toBeNull();
    expect(fake.calls.some((c) => c.channel === 'models:dismiss-offer')).toBe(false);
  });

  it('a failed download (the server is offline) says so and offers to try again', async () => {
    fake.handlers['models:download'] = () => speechModels();
    render(<SpeechModelOffer />);
    fireEvent.click(await screen.findByRole('button', { name: 'Download Whisper base' }));
    fake.emit('models:changed', {
      model: 'base',
      status: 'FAILED',
      receivedBytes: 0,
      totalBytes: 0,
      error: 'getaddrinfo ENOTFOUND huggingface.co',
      errorCode: null, // a server that sends no code: the general words
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'If the server has no internet connection, connect it and try again.',
    );
    expect(screen.getByRole('button', { name: 'Download Whisper base' })).toBeTruthy();
  });

  it('leads to Settings for more models, and speaks Japanese', async () => {
    useSettingsStore.setState({ settings: freshSettings({ uiLanguage: 'ja' }) });
    render(<SpeechModelOffer />);
    expect(await screen.findByRole('region', { name: '約 99 言語で句読点付きの文字起こしを' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '設定でほかのモデルを見る' }));
    expect(useNavigationStore.getState().route).toEqual({ name: 'settings' });
  });
});
