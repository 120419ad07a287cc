// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionIndicator } from '../../../../src-renderer/features/shell/app-header';
import { useConnectionStore } from '../../../../src-renderer/stores/connection-store';
import { installFakeApi, setUiLanguage } from '../fake-api';

afterEach(cleanup);

describe('ConnectionIndicator', () => {
  it('follows connection:changed and says when the app is offline, in the chosen language', async () => {
    const fake = installFakeApi({
      'connection:status': () => ({ activeProfileId: 'p', online: true, detail: null, pending: 2 }),
    });
    await act(async () => void (await useConnectionStore.getState().init()));
    render(<ConnectionIndicator />);
    expect(screen.getByText('Connected')).toBeTruthy();
    expect(screen.getByText('2 processing')).toBeTruthy();
    act(() =>
      fake.emit('connection:changed', {
        activeProfileId: 'p',
        online: false,
        detail: { code: 'offline', reason: 'app.offline', detail: 'connection refused' },
        pending: 0,
      }),
    );
    expect(screen.getByTestId('connection-indicator').dataset.online).toBe('false');
    expect(screen.getByText(/Offline/)).toBeTruthy();
    act(() => setUiLanguage('ja'));
    expect(screen.getByText(/オフライン/)).toBeTruthy();
  });
});
