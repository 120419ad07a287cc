// Transcribing again: on a server that can, in place from the server's audio (decision 0062), so the
// transcript keeps its history; otherwise (docs/decisions/0020-reruns.md) a new upload of the audio kept on
// this computer, with the original options or new ones, through the ordinary upload queue. There a FAILED
// transcription is replaced: deleted on the server and forgotten here once the new one has started and its
// audio has been copied for it, never earlier, so a re-upload that fails never loses the recording.
import {
  TRANSCRIPTION_MODELS,
  type RerunPlan,
  type TranscriptionModel,
  type UploadJob,
  type UploadOptions,
} from '../../src-shared/ipc-contract.js';
import { LIMITS } from '../../src-shared/limits.js';
import { isProcessing } from '../../src-shared/api/vocabulary.js';
import type { ApiTranscribeAgainRequest } from '../../src-shared/api-types.js';
import { ErrorCode } from '../../src-shared/error-codes.js';
import type { ApiClient } from '../api-client/api-client.js';
import { ApiError } from '../api-client/api-errors.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { CachedTranscription } from '../cache/transcription-repository.js';
import { AppFailure } from '../app-failure.js';
import type { UploadManager } from '../uploads/upload-manager.js';
import type { TranscriptService } from './transcript-service.js';

export interface RerunServiceOptions {
  store: CacheStore;
  transcripts: TranscriptService;
  uploads: UploadManager;
  client: ApiClient;
  /** Asks the sync to look at the server now: a run started in place is followed like an upload's. */
  kick: () => void;
}

const isModel = (model: string): model is TranscriptionModel =>
  (TRANSCRIPTION_MODELS as readonly string[]).includes(model);
const isCount = (n: number | null): n is number =>
  n !== null && Number.isInteger(n) && n >= LIMITS.speakers.min && n <= LIMITS.speakers.max;

/** The options a transcription's server record still tells: language, model, speakers, its (lasting) dictionary. */
export function optionsOfRecord(
  record: CachedTranscription,
  requestedModel: string | null,
  lastingDictionary: boolean,
): UploadOptions {
  const languages = record.languages;
  // Once the engine ran, the record's model is the engine's; the server keeps what was asked for apart.
  const model = [requestedModel, record.model].find((m): m is TranscriptionModel => m !== null && isModel(m));
  return {
    language: languages.length === 0 ? null : languages.length === 1 ? languages[0]! : languages.slice(0, 10),
    model: model ?? 'default',
    numSpeakers: isCount(record.numSpeakers) ? record.numSpeakers : null,
    minSpeakers: null,
    maxSpeakers: null,
    dictionaryId: lastingDictionary ? record.dictionaryId : null,
    words: [],
  };
}

const NOT_IN_PLACE: ReadonlySet<number> = new Set([
  ErrorCode.TRANSCRIPTION_ALREADY_ENDED,
  ErrorCode.AUDIO_GONE,
  ErrorCode.UPLOAD_NOT_COMPLETE,
]);

export class RerunService {
  /** Re-runs being queued, by transcription: a second press while the first is checking the file gets the same job. */
  private readonly queuing = new Map<string, Promise<UploadJob | null>>();

  constructor(private readonly options: RerunServiceOptions) {}

  async plan(id: string): Promise<RerunPlan> {
    const record = await this.options.transcripts.ensureRecord(id);
    const uploaded = this.options.store.uploads.byTranscription(id);
    return {
      options: uploaded?.options ?? (await this.recordOptions(record)),
      optionsKnown: uploaded !== null,
      audioCached: this.options.transcripts.localAudio(id) !== null,
    };
  }

  /** Queues the new upload; `path` is a file chosen again when the audio is not on this computer. */
  rerun(id: string, request: { options?: UploadOptions; path?: string }): Promise<UploadJob | null> {
    let queuing = this.queuing.get(id);
    if (!queuing) {
      queuing = this.queue(id, request).finally(() => this.queuing.delete(id));
      this.queuing.set(id, queuing);
    }
    return queuing;
  }

  private async queue(id: string, request: { options?: UploadOptions; path?: string }): Promise<UploadJob | null> {
    const { store, transcripts, uploads } = this.options;
    const record = await transcripts.ensureRecord(id);
    if (isProcessing(record.status)) {
      throw new AppFailure({
        code: 'conflict',
        reason: 'rerun-running',
        params: { name: record.name },
      });
    }
    // Pressed twice, or again before the first re-run started: the one already queued answers.
    const pending = store.uploads.unfinishedReplacing(id);
    if (pending) return uploads.list().find((job) => job.id === pending.id)!;
    const chosen = request.options ?? null;
    // A file chosen again is uploaded; ad-hoc words exist only in an upload (the server keeps them as a
    // temporary dictionary), so they go that way too.
    if (request.path === undefined && (chosen === null || chosen.words.length === 0)) {
      const options = chosen ?? (await this.plan(id)).options;
      if (options.words.length === 0 && (await this.inPlace(id, options))) return null;
    }
    const file = request.path ?? transcripts.localAudio(id);
    if (!file) {
      throw new AppFailure({
        code: 'not-found',
        field: 'audio',
        reason: 'rerun-needs-file',
        params: { name: record.name },
      });
    }
    const options = request.options ?? (await this.plan(id)).options;
    // Only a failed transcription is replaced: a finished one is the user's work and stays beside the new one.
    return uploads.addRerun(file, record.name, options, record.status === 'FAILED' ? id : null);
  }

  /**
   * Asks the server to transcribe it again in place (decision 0062). False when the server has no such
   * extension (it answers 409 TRANSCRIPTION_ALREADY_ENDED to a body, as before): the caller uploads again.
   */
  private async inPlace(id: string, options: UploadOptions): Promise<boolean> {
    const { client, transcripts } = this.options;
    const body: ApiTranscribeAgainRequest = {
      language: options.language ?? undefined,
      transcription_model: options.model,
      dictionary_id: options.dictionaryId,
      ...(options.numSpeakers !== null ? { num_speakers: options.numSpeakers } : {}),
      ...(options.minSpeakers !== null ? { min_speakers: options.minSpeakers } : {}),
      ...(options.maxSpeakers !== null ? { max_speakers: options.maxSpeakers } : {}),
    };
    if (body.language === undefined) delete body.language;
    try {
      transcripts.record(await client.transcribeAgain(id, body));
      this.options.store.uploads.setOptionsOf(id, options);
      this.options.kick();
      return true;
    } catch (error) {
      // An older server (no in-place runs), or one without the recording (it was lost, or never arrived):
      // the recording on this computer, or one chosen again, is uploaded instead.
      if (error instanceof ApiError && error.errorCode !== null && NOT_IN_PLACE.has(error.errorCode)) return false;
      throw error;
    }
  }

  /**
   * The new transcription has started: the failed one goes, but while it holds the only copy of the
   * recording on this computer, only once the new one has its own (keepAudio can fail, e.g. a full disk).
   */
  async replaced(replaced: string, newId: string): Promise<void> {
    const { transcripts } = this.options;
    if (transcripts.localAudio(replaced) !== null && transcripts.localAudio(newId) === null) return;
    // When this fails (offline, or a key without the DELETE role) the failed row stays, audio and all,
    // and can be deleted by hand: nothing is lost.
    await transcripts.delete(replaced);
  }

  private async recordOptions(record: CachedTranscription): Promise<UploadOptions> {
    const dictionary = record.dictionaryId ? this.options.store.dictionaries.get(record.dictionaryId) : null;
    // The model asked for is only on the server (an extension older servers lack); offline, the cached record serves.
    const requested = await this.options.client.getTranscription(record.id).then(
      (t) => t.requested_model ?? null,
      () => null,
    );
    return optionsOfRecord(record, requested, dictionary !== null && !dictionary.isTemporary);
  }
}
