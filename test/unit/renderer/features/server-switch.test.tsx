// @vitest-environment happy-dom
// Switching servers waits for the user's answer in main's own dialog (decision 0046): the page says
// where to look while it waits, and says in the UI's language when the switch was not confirmed.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionStatus, IpcResult, ServerProfile, Settings } from '../../../../src-shared/ipc-contract';
import { SettingsView } from '../../../../src-renderer/features/settings/settings-view';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { freshSettings, installFakeApi, type FakeApi } from '../fake-api';
import { speechModels } from '../speech-fixtures';

const settings = (uiLanguage: Settings['uiLanguage']): Settings => freshSettings({ uiLanguage });
const PROFILES: ServerProfile[] = [
  { id: 'embedded', name: 'This computer', kind: 'embedded', baseUrl: 'http://127.0.0.1:1' },
  { id: 'p2', name: 'Shared server', kind: 'remote', baseUrl: 'https://kikitori.example.com' },
];
const NOT_CONFIRMED = {
  ok: false,
  error: { code: 'cancelled', message: 'Kikitori did not switch to “Shared server”.' },
} as const;

let fake: FakeApi;
let answer: (result: IpcResult<ConnectionStatus>) => void;
function showSettings(uiLanguage: Settings['uiLanguage']) {
  useSettingsStore.setState({ settings: settings(uiLanguage), profiles: PROFILES });
  fake = installFakeApi({
    'settings:get': () => settings(uiLanguage),
    'profiles:list': () => PROFILES,
    'models:list': () => speechModels(),
    'profiles:activate': () => new Promise<IpcResult<ConnectionStatus>>((resolve) => (answer = resolve)),
  });
  render(<SettingsView />);
}
afterEach(cleanup);
beforeEach(() => useSettingsStore.setState(useSettingsStore.getInitialState(), true));

describe('switching to a server', () => {
  it('says to answer main’s dialog while it is open, then that nothing was sent when the user said no', async () => {
    showSettings('en');
    // A name in the sentence is quoted, as in Japanese: not "Use This computer".
    expect(
      screen.getAllByRole('button', { name: /^Use / }).map((b) => b.getAttribute('aria-label') ?? b.textContent),
    ).toContain('Use “Shared server”');
    expect(screen.getByTestId('profile-add-hint').textContent).toContain('Nothing is sent to the server until you do.');
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Use “Shared server”' })));
    expect(screen.getByTestId('profile-confirming').textContent).toBe(
      'Confirm the server’s address in the window Kikitori opened.',
    );
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Use “Shared server”' }).disabled).toBe(true);
    expect(fake.calls.filter((call) => call.channel === 'profiles:activate').map((call) => call.request)).toEqual([
      { id: 'p2' },
    ]);
    await act(async () => answer(NOT_CONFIRMED));
    expect(screen.queryByTestId('profile-confirming')).toBeNull();
    expect(
      await screen.findByText(
        'Still using the current server: switching to “Shared server” was not confirmed, and nothing was sent to it.',
      ),
    ).toBeTruthy();
  });

  it('says the same in Japanese, and names the built-in server in Japanese too', async () => {
    showSettings('ja');
    const names = screen.getAllByTestId('profile').map((row) => row.querySelector('strong')?.textContent);
    expect(names).toEqual(['このコンピューター', 'Shared server']);
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: '「Shared server」を使う' })));
    expect(screen.getByTestId('profile-confirming').textContent).toBe(
      'Kikitori が開いたウィンドウでサーバーのアドレスを確認してください。',
    );
    await act(async () => answer(NOT_CONFIRMED));
    expect(
      await screen.findByText(
        '切り替えが確認されなかったため、今のサーバーを使い続けます。「Shared server」には何も送っていません。',
      ),
    ).toBeTruthy();
  });
});
