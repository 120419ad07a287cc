// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpeechModels } from '../../../../src-shared/ipc-contract';
import { downloadOf, isRunning, selectOffer, useModelsStore } from '../../../../src-renderer/stores/models-store';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { installFakeApi } from '../fake-api';
import { speechModel, speechModels, WHISPER_BASE } from '../speech-fixtures';

const MB = 1024 * 1024;
const offs: Array<() => void> = [];
beforeEach(() => {
  useModelsStore.setState(useModelsStore.getInitialState(), true);
  useSettingsStore.setState({ settings: null });
});
afterEach(() => offs.splice(0).forEach((off) => off()));

describe('models store', () => {
  it('loads the list and offers the recommended model', async () => {
    installFakeApi({ 'models:list': () => speechModels() });
    await useModelsStore.getState().load();
    expect(useModelsStore.getState().models?.models.map((m) => m.name)).toEqual(['tiny', 'base', 'base.en']);
    expect(selectOffer(useModelsStore.getState())?.name).toBe('base');
  });

  it('follows pushed progress, and reloads the list when the download ends', async () => {
    let installed = false;
    const fake = installFakeApi({
      'models:list': () =>
        installed
          ? speechModels({
              models: [speechModel('base', { installed: true })],
              serving: { default: WHISPER_BASE, 'diarization-high': WHISPER_BASE },
              offer: false,
            })
          : speechModels(),
      'models:download': () => speechModels(),
    });
    offs.push(useModelsStore.getState().follow());
    await useModelsStore.getState().load();
    expect(await useModelsStore.getState().download('base')).toBeNull();
    expect(fake.calls).toContainEqual({ channel: 'models:download', request: { name: 'base' } });

    fake.emit('models:changed', {
      model: 'base',
      status: 'DOWNLOADING',
      receivedBytes: 40 * MB,
      totalBytes: 141 * MB,
      error: null,
      errorCode: null,
    });
    const base = () => useModelsStore.getState().models!.models.find((m) => m.name === 'base')!;
    expect(downloadOf(useModelsStore.getState(), base())).toMatchObject({ receivedBytes: 40 * MB });
    expect(isRunning(downloadOf(useModelsStore.getState(), base()))).toBe(true);

    installed = true;
    const listsBefore = fake.calls.filter((c) => c.channel === 'models:list').length;
    fake.emit('models:changed', {
      model: 'base',
      status: 'COMPLETED',
      receivedBytes: 141 * MB,
      totalBytes: 141 * MB,
      error: null,
      errorCode: null,
    });
    await expect.poll(() => base().installed).toBe(true);
    expect(fake.calls.filter((c) => c.channel === 'models:list').length).toBe(listsBefore + 1);
    expect(useModelsStore.getState().models?.serving.default.engine).toBe('whisper');
    expect(selectOffer(useModelsStore.getState())).toBeNull();
  });

  it('keeps a refused action per model, and clears it on the next try', async () => {
    const fake = installFakeApi({
      'models:list': () => speechModels(),
      'models:download': () => ({ ok: false, error: { code: 'insufficient-storage', message: 'No space.' } }),
    });
    await useModelsStore.getState().load();
    const error = await useModelsStore.getState().download('base');
    expect(error?.code).toBe('insufficient-storage');
    expect(useModelsStore.getState().failures.base?.code).toBe('insufficient-storage');
    expect(useModelsStore.getState().pending).toEqual({});
    fake.handlers['models:download'] = () => speechModels();
    await useModelsStore.getState().download('base');
    expect(useModelsStore.getState().failures).toEqual({});
  });

  it('an action answer wins over a slower load that started before it', async () => {
    let release: (value: SpeechModels) => void = () => {};
    installFakeApi({
      'models:list': () => new Promise<SpeechModels>((resolve) => (release = resolve)),
      'models:delete': () => speechModels({ models: [speechModel('base')] }),
    });
    const loading = useModelsStore.getState().load();
    await useModelsStore.getState().remove('base');
    release(speechModels({ models: [speechModel('base', { installed: true })] }));
    await loading;
    expect(useModelsStore.getState().models?.models).toEqual([speechModel('base')]);
  });

  it('hides the offer at once when dismissed, and tells main', async () => {
    const fake = installFakeApi({
      'models:list': () => speechModels(),
      'models:dismiss-offer': () => speechModels({ offer: false }),
    });
    await useModelsStore.getState().load();
    const dismissing = useModelsStore.getState().dismissOffer();
    expect(selectOffer(useModelsStore.getState())).toBeNull();
    expect(await dismissing).toBeNull();
    expect(fake.calls.map((c) => c.channel)).toContain('models:dismiss-offer');
  });

  it('reloads for the new server when the active profile changes', async () => {
    let server = 'a';
    installFakeApi({ 'models:list': () => speechModels({ canManage: server === 'a' }) });
    const settings = {
      activeProfileId: 'a',
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
    useSettingsStore.setState({ settings });
    offs.push(useModelsStore.getState().follow());
    await useModelsStore.getState().load();
    expect(useModelsStore.getState().models?.canManage).toBe(true);
    server = 'b';
    useSettingsStore.setState({ settings: { ...settings, activeProfileId: 'b' } });
    await expect.poll(() => useModelsStore.getState().models?.canManage).toBe(false);
  });

  it('follows events once however many views follow, until the last one stops', async () => {
    const fake = installFakeApi({ 'models:list': () => speechModels() });
    await useModelsStore.getState().load();
    const first = useModelsStore.getState().follow();
    const second = useModelsStore.getState().follow();
    first();
    first(); // a second off() from the same view changes nothing
    fake.emit('models:changed', {
      model: 'base',
      status: 'DOWNLOADING',
      receivedBytes: 1,
      totalBytes: 2,
      error: null,
      errorCode: null,
    });
    expect(useModelsStore.getState().downloads.base?.receivedBytes).toBe(1);
    second();
    fake.emit('models:changed', {
      model: 'base',
      status: 'DOWNLOADING',
      receivedBytes: 2,
      totalBytes: 2,
      error: null,
      errorCode: null,
    });
    expect(useModelsStore.getState().downloads.base?.receivedBytes).toBe(1);
  });
});
