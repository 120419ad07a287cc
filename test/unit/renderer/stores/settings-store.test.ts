// @vitest-environment happy-dom
// A change chosen in Settings stays chosen when an older answer arrives after it: opening Settings loads
// the settings, and the language picked before that load answers (a loaded machine answers late) must
// not flip back. The same for two quick changes whose answers cross.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServerProfile, Settings } from '../../../../src-shared/ipc-contract';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { freshSettings, installFakeApi } from '../fake-api';

const stored = freshSettings;
const PROFILES: ServerProfile[] = [{ id: 'p', name: 'This computer', kind: 'embedded', baseUrl: 'http://127.0.0.1:1' }];

/** A promise the test settles by hand: main's answer, held until the test lets it arrive. */
function held<T>() {
  let release!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (release = resolve));
  return { promise, release };
}

beforeEach(() => useSettingsStore.setState(useSettingsStore.getInitialState(), true));

describe('settings store', () => {
  it('keeps a language chosen while the load Settings started is still under way', async () => {
    useSettingsStore.setState({ settings: stored() });
    const loadAnswer = held<Settings>();
    let main = stored();
    installFakeApi({
      'settings:get': () => loadAnswer.promise,
      'profiles:list': () => PROFILES,
      'settings:update': (patch) => (main = { ...main, ...patch, defaults: main.defaults }),
    });
    const load = useSettingsStore.getState().load();
    expect(await useSettingsStore.getState().update({ uiLanguage: 'ja' })).toBeNull();
    expect(useSettingsStore.getState().settings?.uiLanguage).toBe('ja');

    loadAnswer.release(stored()); // read before the change reached main
    await load;
    expect(useSettingsStore.getState().settings?.uiLanguage).toBe('ja');
    expect(useSettingsStore.getState().profiles).toEqual(PROFILES); // the rest of the load still lands
  });

  it('a load that starts after the change takes main’s settings', async () => {
    useSettingsStore.setState({ settings: stored() });
    installFakeApi({
      'settings:get': () => stored({ uiLanguage: 'ja', playbackRate: 1.5 }),
      'profiles:list': () => PROFILES,
      'settings:update': (patch) => ({ ...stored(), ...patch, defaults: stored().defaults }),
    });
    await useSettingsStore.getState().update({ uiLanguage: 'ja' });
    await useSettingsStore.getState().load();
    expect(useSettingsStore.getState().settings?.playbackRate).toBe(1.5);
  });

  it('two quick changes whose answers cross keep both', async () => {
    useSettingsStore.setState({ settings: stored() });
    const answers: Array<ReturnType<typeof held<Settings>>> = [];
    let main = stored();
    installFakeApi({
      'settings:update': (patch) => {
        main = { ...main, ...patch, defaults: main.defaults };
        const answer = held<Settings>();
        answers.push(answer);
        const snapshot = main;
        return answer.promise.then(() => snapshot);
      },
    });
    const first = useSettingsStore.getState().update({ uiLanguage: 'ja' });
    const second = useSettingsStore.getState().update({ playbackRate: 2 });
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    answers[1]!.release(stored());
    await second;
    answers[0]!.release(stored());
    await first;
    expect(useSettingsStore.getState().settings).toMatchObject({ uiLanguage: 'ja', playbackRate: 2 });
  });
});
