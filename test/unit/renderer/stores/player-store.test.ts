// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { usePlayerStore, type PlayerController } from '../../../../src-renderer/stores/player-store';
import { locateTime } from '../../../../src-renderer/stores/transcript-store';
import { nextRate } from '../../../../src-renderer/features/transcript/use-transport-keys';
import { installFakeApi } from '../fake-api';

function controller() {
  return {
    play: vi.fn<() => void>(),
    pause: vi.fn<() => void>(),
    seek: vi.fn<(seconds: number) => void>(),
    setRate: vi.fn<(rate: number) => void>(),
  } satisfies PlayerController;
}

beforeEach(() => usePlayerStore.setState(usePlayerStore.getInitialState(), true));

describe('player store', () => {
  it('loads peaks and source, and applies a seek asked for before the waveform attached', async () => {
    installFakeApi({
      'audio:peaks': () => ({ peaks: [[0, 0.5, -0.5, 1]], duration: 120, resolution: 1 }),
      'audio:source': ({ id }) => ({ url: `kikitori-media://audio/${id}`, local: true }),
    });
    await usePlayerStore.getState().load('t1', 42);
    expect(usePlayerStore.getState()).toMatchObject({
      duration: 120,
      source: { local: true },
      pendingSeek: 42,
      currentTime: 42,
    });
    const c = controller();
    usePlayerStore.getState().attach(c);
    expect(c.seek).toHaveBeenCalledWith(42);
    expect(c.setRate).toHaveBeenCalledWith(1);
    expect(usePlayerStore.getState().pendingSeek).toBeNull();
  });

  it('plays from the moment when asked to listen: once the waveform attaches, or at once when already loaded', async () => {
    installFakeApi({
      'audio:peaks': () => ({ peaks: [[0, 0.5, -0.5, 1]], duration: 120, resolution: 1 }),
      'audio:source': ({ id }) => ({ url: `kikitori-media://audio/${id}`, local: true }),
    });
    await usePlayerStore.getState().load('t1', 42, true);
    const c = controller();
    usePlayerStore.getState().attach(c);
    expect(c.seek).toHaveBeenCalledWith(42);
    expect(c.play).toHaveBeenCalledTimes(1);
    expect(c.seek.mock.invocationCallOrder[0]).toBeLessThan(c.play.mock.invocationCallOrder[0]!);
    // The same transcript again, another part: seek there and play.
    await usePlayerStore.getState().load('t1', 75, true);
    expect(c.seek).toHaveBeenLastCalledWith(75);
    expect(c.play).toHaveBeenCalledTimes(2);
    // Opening without asking to listen never plays.
    await usePlayerStore.getState().load('t2', 5);
    const d = controller();
    usePlayerStore.getState().attach(d);
    expect(d.play).not.toHaveBeenCalled();
  });

  it('skips within the audio and toggles play through the controller', () => {
    const c = controller();
    usePlayerStore.setState({ duration: 10 });
    usePlayerStore.getState().attach(c);
    usePlayerStore.getState().skip(-5);
    expect(c.seek).toHaveBeenLastCalledWith(0);
    usePlayerStore.getState().skip(50);
    expect(c.seek).toHaveBeenLastCalledWith(10);
    usePlayerStore.getState().togglePlay();
    expect(c.play).toHaveBeenCalled();
    usePlayerStore.getState().reportPlaying(true);
    usePlayerStore.getState().togglePlay();
    expect(c.pause).toHaveBeenCalled();
  });

  it('steps the playback rate through the offered speeds', () => {
    expect(nextRate(1, 1)).toBe(1.25);
    expect(nextRate(1, -1)).toBe(0.75);
    expect(nextRate(2, 1)).toBe(2);
    expect(nextRate(0.5, -1)).toBe(0.5);
  });
});

describe('locateTime', () => {
  const word = (w: string, start: number, end: number) => ({ word: w, start, end, confidence: 0.9 });
  const segments = [
    { id: 0, start: 0, end: 2, speaker: null, text: 'a b', words: [word('a', 0, 0.8), word('b', 1, 2)] },
    { id: 1, start: 3, end: 5, speaker: null, text: 'c', words: [word('c', 3, 5)] },
  ];
  it('finds the segment and word playing at a time', () => {
    expect(locateTime(segments, 0.5)).toEqual([0, 0]);
    expect(locateTime(segments, 0.9)).toEqual([0, -1]);
    expect(locateTime(segments, 1.5)).toEqual([0, 1]);
    expect(locateTime(segments, 2.5)).toEqual([-1, -1]);
    expect(locateTime(segments, 4)).toEqual([1, 0]);
  });
});
