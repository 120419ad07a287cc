// Playback of the open transcription. The waveform component owns the wavesurfer instance and
// registers a controller here, so anything (a word, a search hit, a summary item) can seek.
import { create } from 'zustand';
import type { IpcError, WaveformPeaks } from '../../src-shared/ipc-contract';
import { api } from '../lib/api';
import { createRequestTracker, together } from '../lib/request-tracker';

export interface PlayerController {
  play(): void;
  pause(): void;
  seek(seconds: number): void;
  setRate(rate: number): void;
}

export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export const SKIP_SECONDS = 5;

interface PlayerState {
  transcriptionId: string | null;
  source: { url: string; local: boolean } | null;
  peaks: WaveformPeaks | null;
  loading: boolean;
  error: IpcError | null;
  currentTime: number;
  duration: number;
  playing: boolean;
  rate: number;
  controller: PlayerController | null;
  /** A seek asked for before the waveform was ready. */
  pendingSeek: number | null;
  /** Playback asked for with the load (a voice's part to listen to), started once the audio is there. */
  pendingPlay: boolean;
  /** How many seeks there have been: the transcript brings the place a seek went to into view. */
  seeks: number;

  /** `play`: start playing at `at` once the audio is ready (the user asked to listen). */
  load: (id: string, at?: number, play?: boolean) => Promise<void>;
  unload: () => void;
  attach: (controller: PlayerController) => void;
  detach: (controller: PlayerController) => void;
  /** From the media element. */
  reportTime: (seconds: number) => void;
  reportPlaying: (playing: boolean) => void;
  seek: (seconds: number) => void;
  togglePlay: () => void;
  skip: (delta: number) => void;
  setRate: (rate: number) => void;
}

export const usePlayerStore = create<PlayerState>()((set, get) => {
  const loads = createRequestTracker<PlayerState>(set, { busy: 'loading' });
  return {
    transcriptionId: null,
    source: null,
    peaks: null,
    loading: false,
    error: null,
    currentTime: 0,
    duration: 0,
    playing: false,
    rate: 1,
    controller: null,
    pendingSeek: null,
    pendingPlay: false,
    seeks: 0,

    async load(id, at, play = false) {
      if (get().transcriptionId === id) {
        if (at !== undefined) get().seek(at);
        if (play) {
          const controller = get().controller;
          if (controller) controller.play();
          else set({ pendingPlay: true });
        }
        return;
      }
      set({
        transcriptionId: id,
        source: null,
        peaks: null,
        loading: true,
        error: null,
        currentTime: at ?? 0,
        playing: false,
        pendingSeek: at ?? null,
        pendingPlay: play,
      });
      // Audio without a waveform still plays: each part lands on its own.
      await loads.run(
        () => together(api().audio.peaks({ id }), api().audio.source({ id })),
        ([peaks, source]) => ({
          peaks: peaks.ok ? peaks.value : null,
          source: source.ok ? source.value : null,
          duration: peaks.ok ? peaks.value.duration : 0,
          error: (peaks.ok ? null : peaks.error) ?? (source.ok ? null : source.error),
        }),
        { markBusy: false },
      );
    },
    unload() {
      loads.renew();
      get().controller?.pause();
      set({
        transcriptionId: null,
        source: null,
        peaks: null,
        currentTime: 0,
        duration: 0,
        playing: false,
        pendingSeek: null,
        pendingPlay: false,
        error: null,
      });
    },
    attach(controller) {
      set({ controller });
      controller.setRate(get().rate);
      const pending = get().pendingSeek;
      if (pending !== null) {
        controller.seek(pending);
        set({ pendingSeek: null });
      }
      if (get().pendingPlay) {
        set({ pendingPlay: false });
        controller.play();
      }
    },
    detach(controller) {
      if (get().controller === controller) set({ controller: null, playing: false });
    },
    reportTime(seconds) {
      set({ currentTime: seconds });
    },
    reportPlaying(playing) {
      set({ playing });
    },
    seek(seconds) {
      const duration = get().duration;
      const target = Math.max(0, duration > 0 ? Math.min(seconds, duration) : seconds);
      set({ currentTime: target, seeks: get().seeks + 1 });
      const controller = get().controller;
      if (controller) controller.seek(target);
      else set({ pendingSeek: target });
    },
    togglePlay() {
      const { controller, playing } = get();
      if (!controller) return;
      if (playing) controller.pause();
      else controller.play();
    },
    skip(delta) {
      get().seek(get().currentTime + delta);
    },
    setRate(rate) {
      set({ rate });
      get().controller?.setRate(rate);
    },
  };
});
