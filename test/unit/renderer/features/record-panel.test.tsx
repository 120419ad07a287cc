// @vitest-environment happy-dom
// What the record panel says when the microphone cannot be used, and the kept recordings it offers.
// The microphone is the boundary replaced here (happy-dom has none); recording itself is covered
// end to end with Chromium's fake device (test/e2e/record.spec.ts).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Recording, Settings } from '../../../../src-shared/ipc-contract';
import { LiveTextView, RecordButton, RecordPanel } from '../../../../src-renderer/features/library/record-panel';
import { useRecorderStore } from '../../../../src-renderer/stores/recorder-store';
import { useSettingsStore } from '../../../../src-renderer/stores/settings-store';
import { useUploadsStore } from '../../../../src-renderer/stores/uploads-store';
import { installFakeApi, setUiLanguage, type FakeApi } from '../fake-api';

const kept: Recording = {
  id: 'r1',
  fileName: 'Recording 2026-11-24 14.05.09.webm',
  size: 48_000,
  createdAt: '2026-11-24T05:05:09Z',
  upload: null,
};

let fake: FakeApi;

function microphoneFails(name: string) {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: () => Promise.reject(new DOMException('refused', name)),
      enumerateDevices: () => Promise.resolve([]),
    },
  });
  (globalThis as { MediaRecorder?: unknown }).MediaRecorder = { isTypeSupported: () => true };
}

async function openPanel() {
  render(
    <>
      <RecordButton />
      <RecordPanel />
    </>,
  );
  await act(async () => {
    fireEvent.click(screen.getByTestId('record-button'));
  });
}

beforeEach(() => {
  fake = installFakeApi({
    'recordings:list': () => [kept],
    'recordings:finish': ({ id }) => ({
      id: 'u1',
      filePath: `/rec/${id}.webm`,
      fileName: kept.fileName,
      size: kept.size,
      sentBytes: 0,
      state: 'queued',
      transcriptionId: null,
      error: null,
      createdAt: kept.createdAt,
      startedAt: null,
    }),
  });
  useRecorderStore.setState(useRecorderStore.getInitialState(), true);
  useUploadsStore.setState(useUploadsStore.getInitialState(), true);
  useSettingsStore.setState({ settings: null });
});
afterEach(() => {
  cleanup();
  delete (globalThis as { MediaRecorder?: unknown }).MediaRecorder;
});

/** A microphone that is refused, and a screen share that brings no sound (as on a platform without loopback). */
function screenShareWithoutSound() {
  const stopped: string[] = [];
  const track = (kind: string) => ({ kind, stop: () => stopped.push(kind) });
  const video = track('video');
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: () => Promise.reject(new DOMException('refused', 'NotAllowedError')),
      getDisplayMedia: () =>
        Promise.resolve({
          getVideoTracks: () => [video],
          getAudioTracks: () => [],
          getTracks: () => [video],
          removeTrack: () => {},
        }),
      enumerateDevices: () => Promise.resolve([]),
    },
  });
  (globalThis as { MediaRecorder?: unknown }).MediaRecorder = { isTypeSupported: () => true };
  return stopped;
}

describe('RecordPanel', () => {
  it("offers this computer's sound, and says so when the platform gives none, stopping the screen's video at once", async () => {
    const stopped = screenShareWithoutSound();
    await openPanel();
    expect((await screen.findByTestId('record-problem')).dataset.problem).toBe('denied');
    const source = screen.getByTestId<HTMLSelectElement>('record-source');
    expect([...source.options].map((o) => o.textContent)).toEqual([
      'The microphone',
      "This computer's sound (an online meeting)",
      "The microphone and this computer's sound",
    ]);
    await act(async () => {
      fireEvent.change(source, { target: { value: 'system' } });
    });
    const problem = screen.getByTestId('record-problem');
    expect(problem.dataset.problem).toBe('system-unavailable');
    expect(problem.textContent).toContain(
      "This computer's sound cannot be recorded here. Choose the microphone instead",
    );
    expect(stopped).toEqual(['video']);
    act(() => useSettingsStore.setState({ settings: { uiLanguage: 'ja' } as Settings }));
    expect(screen.getByTestId('record-problem').textContent).toContain(
      'このコンピューターの音はここでは録音できません。',
    );
    expect(screen.getByTestId<HTMLSelectElement>('record-source').selectedOptions[0]!.textContent).toBe(
      'このコンピューターの音（オンライン会議）',
    );
  });

  it('says how to allow a refused microphone, in English and Japanese', async () => {
    microphoneFails('NotAllowedError');
    await openPanel();
    const problem = await screen.findByTestId('record-problem');
    expect(problem.dataset.problem).toBe('denied');
    expect(problem.textContent).toContain('Kikitori may not use the microphone. Allow it in your system settings');
    act(() => useSettingsStore.setState({ settings: { uiLanguage: 'ja' } as Settings }));
    expect(screen.getByTestId('record-problem').textContent).toContain('Kikitori にマイクの使用が許可されていません。');
  });

  it('says to connect a microphone when there is none', async () => {
    microphoneFails('NotFoundError');
    await openPanel();
    const problem = await screen.findByTestId('record-problem');
    expect(problem.dataset.problem).toBe('no-device');
    expect(problem.textContent).toContain('No microphone was found. Connect one, then try again.');
  });

  it('says a microphone in use by another app is busy', async () => {
    microphoneFails('NotReadableError');
    await openPanel();
    expect((await screen.findByTestId('record-problem')).dataset.problem).toBe('busy');
  });

  it('says recording is unavailable where the platform cannot record, without offering to try again', async () => {
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined });
    await openPanel();
    const problem = await screen.findByTestId('record-problem');
    expect(problem.dataset.problem).toBe('unsupported');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('lists a recording kept on this computer and transcribes it with the upload options', async () => {
    microphoneFails('NotFoundError');
    useUploadsStore.setState({ options: { ...useUploadsStore.getState().options, language: 'ja' } });
    await openPanel();
    expect((await screen.findByTestId('kept-recording')).textContent).toContain('Recording 2026-11-24 14.05.09.webm');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: `Transcribe ${kept.fileName}` }));
    });
    expect(fake.calls.find((call) => call.channel === 'recordings:finish')?.request).toMatchObject({
      id: 'r1',
      options: { language: 'ja' },
    });
    expect(useUploadsStore.getState().jobs.map((job) => job.id)).toEqual(['u1']);
  });
});

describe('live text', () => {
  const live = {
    id: 'r1',
    state: 'live' as const,
    finals: [
      { text: 'the budget meeting moved', speaker: 'Alice' },
      { text: 'to next week', speaker: 'Alice' },
      { text: 'fine by me', speaker: null },
      { text: 'then it is settled', speaker: 'Alice' },
    ],
    partial: 'and the',
  };

  it('names a known voice where the speaker changes, not on every turn, in English and Japanese', () => {
    useRecorderStore.setState({ live });
    const { unmount } = render(<LiveTextView />);
    const names = () => screen.queryAllByTestId('live-speaker').map((el) => el.textContent?.trim());
    expect(names()).toEqual(['Alice:', 'Alice:']);
    const turns = screen.getAllByTestId('live-final').map((el) => el.textContent?.trim());
    expect(turns).toEqual([
      'Alice: the budget meeting moved',
      'to next week',
      'fine by me',
      'Alice: then it is settled',
    ]);
    unmount();
    setUiLanguage('ja');
    render(<LiveTextView />);
    expect(names()).toEqual(['Alice：', 'Alice：']);
    // No space after a full-width colon.
    expect(screen.getAllByTestId('live-final')[0]!.textContent).toBe('Alice：the budget meeting moved ');
  });
});
