// The team voice library in the app (decision 0075): listed from the server into the cache (readable
// offline), changed only online, and "This is…": a voice enrolled or extended from one speaker's parts of a
// transcription, the speaker then named after it through the usual rename (a revision like any other).
import type { ApiSpeaker } from '../../src-shared/api-types.js';
import type {
  TranscriptDetail,
  VoiceDetail,
  VoiceIdentified,
  VoiceList,
  VoiceSummary,
} from '../../src-shared/ipc-contract.js';
import { LIMITS } from '../../src-shared/limits.js';
import type { TranscriptSegment } from '../../src-shared/transcript-document.js';
import { ApiError, changeOnline, isOfflineError } from '../api-client/api-errors.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { CacheStore } from '../cache/cache-store.js';
import { AppFailure } from '../app-failure.js';
import type { EditService } from '../edits/edit-service.js';
import type { TranscriptService } from '../transcripts/transcript-service.js';

/** Speech sent from one transcription: enough for a steady print, short enough to stay quick to decode. */
export const VOICE_SAMPLE_BUDGET_SECONDS = 60;
/** Turns of one speaker this close together are one sample: fewer, longer samples within the 20 allowed. */
const JOIN_GAP_SECONDS = 1;

export interface SampleRange {
  start: number;
  end: number;
}

/**
 * The parts of the audio where `speaker` talks, as sample ranges: consecutive turns joined (none of
 * another speaker between), longest first, up to `budget` seconds and `room` ranges.
 */
export function speakerSamples(
  segments: readonly TranscriptSegment[],
  speaker: string,
  room: number = LIMITS.voiceSamples,
  budget = VOICE_SAMPLE_BUDGET_SECONDS,
): SampleRange[] {
  const ranges: SampleRange[] = [];
  let open: SampleRange | null = null;
  for (const s of [...segments].sort((a, b) => a.start - b.start)) {
    if (s.end <= s.start) continue;
    if (s.speaker !== speaker) {
      // Another voice between two turns keeps them apart.
      if (open && s.end > open.end) open = null;
      continue;
    }
    if (open && s.start - open.end <= JOIN_GAP_SECONDS && s.end - open.start <= LIMITS.voiceSampleSeconds) {
      open.end = Math.max(open.end, s.end);
    } else {
      open = { start: s.start, end: Math.min(s.end, s.start + LIMITS.voiceSampleSeconds) };
      ranges.push(open);
    }
  }
  const chosen: SampleRange[] = [];
  let total = 0;
  for (const r of ranges.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)) {
    if (chosen.length >= room || total >= budget) break;
    const end = Math.min(r.end, r.start + (budget - total));
    chosen.push({ start: round(r.start), end: round(end) });
    total += end - r.start;
  }
  return chosen.sort((a, b) => a.start - b.start);
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
const seconds = (ranges: readonly SampleRange[]) => ranges.reduce((sum, r) => sum + (r.end - r.start), 0);

const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

export interface VoiceServiceOptions {
  store: CacheStore;
  client: ApiClient;
  transcripts: TranscriptService;
  edits: EditService;
}

export class VoiceService {
  constructor(private readonly options: VoiceServiceOptions) {}

  async list(): Promise<VoiceList> {
    const { store, client } = this.options;
    let offline = false;
    try {
      store.voices.putList(await client.listAllSpeakers());
    } catch (error) {
      if (!isOfflineError(error)) throw error;
      offline = true;
    }
    return { voices: store.voices.list(), offline, listedAt: store.voices.listedAt() };
  }

  rename(id: string, name: string): Promise<VoiceSummary> {
    return this.change(id, async () =>
      this.options.store.voices.put(await this.options.client.updateSpeaker(id, { name })),
    );
  }

  delete(id: string): Promise<void> {
    return this.change(id, async () => {
      await this.options.client.deleteSpeaker(id);
      this.options.store.voices.delete(id);
    });
  }

  /** The parts of transcriptions the voice was learned from, oldest first, named from this library. */
  samples(id: string): Promise<VoiceDetail> {
    // detail() caches the voice; change() forgets one the server no longer has.
    return this.change(id, async () => this.detail(await this.options.client.getSpeaker(id)));
  }

  /**
   * Forgets one part of a voice: the server deletes its print. The server refuses to leave a voice with
   * less speech than a print needs; deleting the whole voice is the way to forget it all.
   */
  removeSample(id: string, sampleId: string): Promise<VoiceDetail> {
    return this.change(id, async () =>
      this.detail(await this.options.client.updateSpeaker(id, { remove_sample_ids: [sampleId] })),
    );
  }

  private detail(voice: ApiSpeaker): VoiceDetail {
    const { store } = this.options;
    return {
      voice: store.voices.put(voice),
      samples: [...voice.samples]
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.start - b.start)
        .map((s) => ({
          id: s.sample_id,
          transcriptionId: s.transcription_id,
          transcriptionName: store.transcriptions.get(s.transcription_id)?.name ?? null,
          start: s.start,
          end: s.end,
          speechSeconds: s.speech_seconds,
          createdAt: s.created_at,
        })),
    };
  }

  /**
   * "This is…": `voice` an existing voice (extended) or a new name (enrolled; a name the team already has
   * extends that voice instead of making a second one). Only the user's explicit choice calls this.
   */
  identify(
    transcriptionId: string,
    speaker: string,
    voice: { id: string } | { name: string },
  ): Promise<VoiceIdentified> {
    const { store, client, transcripts, edits } = this.options;
    return changeOnline('voice-offline', async () => {
      const { document } = await transcripts.shownDocument(transcriptionId);
      let existing: ApiSpeaker | null = null;
      if ('id' in voice) existing = await this.fetch(voice.id);
      else {
        const all = await client.listAllSpeakers();
        store.voices.putList(all);
        existing = all.find((v) => sameName(v.name, voice.name)) ?? null;
      }
      const fromHere = (existing?.samples ?? []).filter((s) => s.transcription_id === transcriptionId);
      const ranges = speakerSamples(document.segments, speaker).filter(
        (r) => !fromHere.some((s) => s.start < r.end && r.start < s.end),
      );
      if (!existing && seconds(ranges) < LIMITS.voiceMinSpeechSeconds) {
        throw new AppFailure({ code: 'validation', reason: 'voice-no-speech', field: 'speaker' });
      }
      const samples = ranges.map((r) => ({ transcription_id: transcriptionId, ...r }));
      let saved: ApiSpeaker;
      if (!existing) {
        saved = await client.createSpeaker({ name: 'name' in voice ? voice.name : speaker, samples });
      } else if (samples.length > 0) {
        // A full voice makes room by letting its oldest samples go, in the same request.
        const over = existing.samples.length + samples.length - LIMITS.voiceSamples;
        const oldest = [...existing.samples]
          .sort((a, b) => a.created_at.localeCompare(b.created_at))
          .slice(0, Math.max(0, over));
        saved = await client.updateSpeaker(existing.speaker_id, {
          add_samples: samples,
          ...(oldest.length ? { remove_sample_ids: oldest.map((s) => s.sample_id) } : {}),
        });
      } else saved = existing;
      const summary = store.voices.put(saved);
      const transcript: TranscriptDetail = await edits.apply(transcriptionId, [
        { kind: 'speaker-name', speaker, name: saved.name },
      ]);
      return { voice: summary, enrolled: !existing, sampleSeconds: round(seconds(ranges)), transcript };
    });
  }

  private async fetch(id: string): Promise<ApiSpeaker> {
    try {
      const voice = await this.options.client.getSpeaker(id);
      this.options.store.voices.put(voice);
      return voice;
    } catch (error) {
      this.forgetIfGone(id, error);
      throw error;
    }
  }

  /** A change made on the server; a voice the server no longer has leaves the cache too. */
  private change<T>(id: string, run: () => Promise<T>): Promise<T> {
    return changeOnline('voice-offline', async () => {
      try {
        return await run();
      } catch (error) {
        this.forgetIfGone(id, error);
        throw error;
      }
    });
  }

  private forgetIfGone(id: string, error: unknown): void {
    if (error instanceof ApiError && error.status === 404) this.options.store.voices.delete(id);
  }
}
