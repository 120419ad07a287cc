// Recording from the microphone (decision 0027): the panel's state, the open microphone, and the
// chunks on their way to main, which appends each one to the recording's file as it arrives. A
// finished recording is queued like a dropped file, with the upload form's options. Recordings kept
// on this computer (an upload that failed, or one cut short) are listed, to transcribe or discard.
import { create } from 'zustand';
import type { IpcError, LiveText, Recording } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';
import {
  audioInputs,
  Microphone,
  MicrophoneError,
  PcmTap,
  Recorder,
  recordingFormat,
  toBase64,
  type AudioInput,
  type MicrophoneProblem,
  type SoundSource,
} from '../lib/microphone';
import { useUploadsStore } from './uploads-store';

export type RecorderPhase = 'closed' | 'opening' | 'ready' | 'recording' | 'paused' | 'saving' | 'unavailable';

interface RecorderState {
  phase: RecorderPhase;
  /** Why the microphone cannot be used (phase 'unavailable'). */
  problem: MicrophoneProblem | null;
  /** Main refused to keep or queue the recording. */
  error: IpcError | null;
  devices: AudioInput[];
  deviceId: string | null;
  /** What is recorded: the microphone, the computer's sound, or both (decision 0082). */
  source: SoundSource;
  /** Recorded time before the current stretch (pauses excluded), and when the current stretch began. */
  elapsedMs: number;
  runningSince: number | null;
  kept: Recording[];
  /** Live text of the recording being made (decision 0073); null before the first word or state arrives. */
  live: LiveText | null;
  /** Opens the panel and the microphone; the level meter runs before recording starts. */
  open: () => Promise<void>;
  /** Closes the microphone and the panel; refused while recording (stop or discard first). */
  close: () => void;
  chooseDevice: (deviceId: string) => Promise<void>;
  /** Opens the inputs of another source (before recording only). */
  chooseSource: (source: SoundSource) => Promise<void>;
  record: () => Promise<void>;
  pause: () => void;
  resume: () => void;
  /** Stops, waits for every chunk to be kept, then queues the upload and closes the panel. */
  stop: () => Promise<void>;
  /** Stops and deletes the recording; the panel stays open for another take. */
  discard: () => Promise<void>;
  loadKept: () => Promise<void>;
  transcribeKept: (id: string) => Promise<void>;
  discardKept: (id: string) => Promise<void>;
}

/** What lives outside the state: browser objects, and the chunks on their way. */
interface Take {
  id: string;
  recorder: Recorder;
  /** 16 kHz PCM for live text, sent beside the recording. */
  tap: PcmTap | null;
  offset: number;
  chain: Promise<void>;
  failure: IpcError | null;
}

let microphone: Microphone | null = null;
let take: Take | null = null;
let offLive: (() => void) | null = null;

/** The current input level, 0..1 (0 when the microphone is closed). */
export function currentLevel(): number {
  return microphone?.level() ?? 0;
}

/** Recorded time so far, in ms. */
export function recordedMs(state: Pick<RecorderState, 'elapsedMs' | 'runningSince'>, now = Date.now()): number {
  return state.elapsedMs + (state.runningSince === null ? 0 : now - state.runningSince);
}

export const useRecorderStore = create<RecorderState>()((set, get) => {
  async function openMicrophone(deviceId: string | null) {
    microphone?.close();
    microphone = null;
    set({ phase: 'opening', problem: null });
    try {
      microphone = await Microphone.open(deviceId, get().source);
    } catch (error) {
      set({ phase: 'unavailable', problem: error instanceof MicrophoneError ? error.problem : 'busy' });
      return;
    }
    if (get().phase === 'closed') {
      microphone.close();
      microphone = null;
      return;
    }
    // Names are given only once the microphone is allowed.
    const devices = await audioInputs().catch(() => []);
    set({ phase: 'ready', devices, deviceId: microphone.deviceId ?? deviceId });
  }

  /** Waits for the recorder's last chunk and every append; answers the take, or null when none. */
  async function endTake(): Promise<Take | null> {
    const current = take;
    if (!current) return null;
    current.tap?.close();
    await current.recorder.stop();
    await current.chain;
    take = null;
    set({ elapsedMs: 0, runningSince: null });
    return current;
  }

  return {
    phase: 'closed',
    problem: null,
    error: null,
    devices: [],
    deviceId: null,
    source: 'microphone',
    elapsedMs: 0,
    runningSince: null,
    kept: [],
    live: null,
    async open() {
      if (get().phase !== 'closed') return;
      set({ phase: 'opening', error: null, elapsedMs: 0, runningSince: null });
      void get().loadKept();
      await openMicrophone(get().deviceId);
    },
    close() {
      const { phase } = get();
      if (phase === 'recording' || phase === 'paused' || phase === 'saving') return;
      microphone?.close();
      microphone = null;
      offLive?.();
      offLive = null;
      set({ phase: 'closed', problem: null, error: null, live: null });
    },
    async chooseDevice(deviceId) {
      if (get().phase !== 'ready' && get().phase !== 'unavailable') return;
      set({ deviceId });
      await openMicrophone(deviceId);
    },
    async chooseSource(source) {
      if (get().phase !== 'ready' && get().phase !== 'unavailable') return;
      set({ source });
      await openMicrophone(get().deviceId);
    },
    async record() {
      const format = recordingFormat();
      if (!microphone || get().phase !== 'ready' || !format) return;
      const { language, dictionaryId } = useUploadsStore.getState().options;
      const [recording, error] = split(
        await api().recordings.start({ mimeType: format, live: { language, dictionaryId } }),
      );
      if (error) return set({ error });
      offLive?.();
      offLive = api().on('recordings:live', (live) => {
        if (live.id === take?.id) set({ live });
      });
      const current: Take = {
        id: recording.id,
        recorder: null as unknown as Recorder,
        tap: null,
        offset: 0,
        chain: Promise.resolve(),
        failure: null,
      };
      current.recorder = new Recorder(microphone.stream, format, (chunk) => {
        current.chain = current.chain.then(async () => {
          if (current.failure) return;
          const data = toBase64(new Uint8Array(await chunk.arrayBuffer()));
          const [kept, failure] = split(
            await api().recordings.append({ id: current.id, offset: current.offset, data }),
          );
          if (kept) current.offset = kept.size;
          else {
            // What was kept so far stays on this computer; the recording goes on no further.
            current.failure = failure;
            set({ error: failure });
            void get().stop();
          }
        });
      });
      // Live text is a preview: a chunk main could not take is simply not shown live.
      current.tap = new PcmTap(microphone.stream, (pcm) => {
        void api().recordings.liveAudio({ id: current.id, data: toBase64(pcm) });
      });
      take = current;
      current.recorder.start();
      set({ phase: 'recording', error: null, elapsedMs: 0, runningSince: Date.now(), live: null });
    },
    pause() {
      if (!take || get().phase !== 'recording') return;
      take.recorder.pause();
      take.tap?.pause();
      set({ phase: 'paused', elapsedMs: recordedMs(get()), runningSince: null });
    },
    resume() {
      if (!take || get().phase !== 'paused') return;
      take.recorder.resume();
      take.tap?.resume();
      set({ phase: 'recording', runningSince: Date.now() });
    },
    async stop() {
      if (get().phase !== 'recording' && get().phase !== 'paused') return;
      set({ phase: 'saving' });
      const ended = await endTake();
      if (!ended) return set({ phase: 'ready' });
      if (ended.failure) {
        set({ phase: 'ready' });
        return get().loadKept();
      }
      const [job, error] = split(
        await api().recordings.finish({ id: ended.id, options: useUploadsStore.getState().options }),
      );
      if (error) {
        set({ phase: 'ready', error });
        return get().loadKept();
      }
      useUploadsStore.getState().upsert(job);
      set({ phase: 'ready' });
      get().close();
    },
    async discard() {
      if (get().phase !== 'recording' && get().phase !== 'paused') return;
      set({ phase: 'saving' });
      const ended = await endTake();
      if (ended) {
        const [, error] = split(await api().recordings.discard({ id: ended.id }));
        if (error) set({ error });
      }
      set({ phase: microphone ? 'ready' : 'closed', live: null });
    },
    async loadKept() {
      const [recordings, error] = split(await api().recordings.list());
      if (error) return set({ error });
      // Those on their way show in the uploads panel; here: what still needs the user. A done one is
      // still here only when its audio could not be kept with the transcription: it can be discarded.
      set({
        kept: recordings.filter(
          (recording) =>
            recording.id !== take?.id && !['queued', 'uploading', 'starting'].includes(recording.upload?.state ?? ''),
        ),
      });
    },
    async transcribeKept(id) {
      const recording = get().kept.find((kept) => kept.id === id);
      if (!recording) return;
      const [job, error] = recording.upload
        ? split(await api().uploads.retry({ id: recording.upload.id }))
        : split(await api().recordings.finish({ id, options: useUploadsStore.getState().options }));
      if (error) return set({ error });
      useUploadsStore.getState().upsert(job);
      await get().loadKept();
    },
    async discardKept(id) {
      const recording = get().kept.find((kept) => kept.id === id);
      const [, error] = split(await api().recordings.discard({ id }));
      if (error) return set({ error });
      if (recording?.upload) useUploadsStore.getState().forget(recording.upload.id);
      await get().loadKept();
    },
  };
});
