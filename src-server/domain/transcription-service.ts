// The life of a transcription: ticket, upload, start, end, deletion. Routes and jobs go through here
// so every rule (temporary dictionaries, expiry, cleanup) has one home.
import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { AppliedReplacement, TranscriptDocument } from '../../src-shared/transcript-document.js';
import { joinSegmentTexts } from '../../src-shared/word-text.js';
import { applyReplacements } from './replacements.js';
import { uploadKey } from './direct-upload.js';
import type { RevisionStore } from './revision-store.js';
import type { DictionaryRepository, NewWord } from '../db/dictionary-repository.js';
import type { AgainOptions, TranscriptionRepository } from '../db/transcription-repository.js';
import type { JobPayloads, JobQueue, JobResults } from '../jobs/job-queue.js';
import type { Storage } from '../storage/storage.js';
import {
  ENDED_STATUSES,
  newId,
  nowIso,
  type Caller,
  type TranscriptionModel,
  type TranscriptionRecord,
} from './records.js';

export interface TicketRequest {
  filename: string;
  dictionaryId: string | null;
  languages: string[];
  model: TranscriptionModel;
  numSpeakers: number | null;
  minSpeakers: number | null;
  maxSpeakers: number | null;
  multichannel: boolean;
  recognizeSpeakers: boolean;
  words: NewWord[];
}

/** What applying a dictionary to a finished transcript came to. */
export type ApplyOutcome =
  | { kind: 'applied'; replaced: number; revision: number }
  /** The If-Match revision is no longer the latest. */
  | { kind: 'moved-on'; current: number }
  | { kind: 'not-completed'; status: string }
  | { kind: 'no-dictionary' }
  | { kind: 'dictionary-not-found'; dictionaryId: string };

export type StartOutcome = 'started' | 'already-running' | 'upload-missing' | 'ended';
export type UploadOutcome =
  | { kind: 'stored'; size: number; sha256: string }
  | { kind: 'reused' }
  | { kind: 'closed'; status: string }
  | { kind: 'checksum-mismatch'; expected: string; actual: string };

/**
 * Every upload attempt streams to its own object under the transcription's audio folder; the one whose
 * commit wins (completeUpload) is the stored audio, the others are deleted. So a second upload of the same
 * URL, however slow, never touches the stored audio (decision 0032).
 */
export const audioKey = (id: string, attempt: string = randomUUID()) => `audio/${id}/upload-${attempt}`;
export const transcriptKey = (id: string) => `transcripts/${id}.json`;
const transcribeJobKey = (id: string) => `transcribe:${id}`;

export class TranscriptionService {
  constructor(
    private readonly transcriptions: TranscriptionRepository,
    private readonly dictionaries: DictionaryRepository,
    private readonly storage: Storage,
    private readonly queue: JobQueue,
    private readonly uploadTtlSeconds: number,
    private readonly revisions: RevisionStore,
  ) {}

  async createTicket(caller: Caller, request: TicketRequest): Promise<TranscriptionRecord> {
    let dictionaryId = request.dictionaryId;
    if (request.words.length > 0) {
      // Ad-hoc words live in a temporary dictionary, removed once the transcription ends.
      const temporary = await this.dictionaries.create(caller.teamId, {
        name: `Words for ${request.filename}`,
        isTemporary: true,
        words: request.words,
      });
      dictionaryId = temporary.dictionaryId;
    }
    const transcriptionId = newId();
    const createdAt = nowIso();
    await this.transcriptions.create({
      transcriptionId,
      teamId: caller.teamId,
      userId: caller.userId,
      dictionaryId,
      name: request.filename,
      languages: request.languages,
      transcriptionModel: request.model,
      numSpeakers: request.numSpeakers,
      minSpeakers: request.minSpeakers,
      maxSpeakers: request.maxSpeakers,
      multichannel: request.multichannel,
      recognizeSpeakers: request.recognizeSpeakers,
      uploadExpiresAt: new Date(Date.parse(createdAt) + this.uploadTtlSeconds * 1000).toISOString(),
      createdAt,
    });
    return (await this.transcriptions.getById(transcriptionId))!;
  }

  /**
   * Stores the audio behind a signed upload URL. Single use: a second upload is refused, and the loser of a
   * race never replaces the winner's audio. `expectedSha256` (hex) is the client's checksum: a mismatch
   * stores nothing.
   */
  async receiveUpload(
    record: TranscriptionRecord,
    body: Readable,
    contentType: string,
    maxBytes: number,
    expectedSha256?: string,
  ): Promise<UploadOutcome> {
    if (record.uploadStatus === 'COMPLETED') return { kind: 'reused' };
    if (record.status !== 'IN_PROGRESS') return { kind: 'closed', status: record.status };
    const key = audioKey(record.transcriptionId);
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // Not pipeline(): on a body over the limit it would destroy the HTTP request, and the rest of the body
    // could then not be discarded before the answer (decision 0048). A cut-off client's error reaches
    // storage.put through `hashing`; a body storage stops reading stays the route's to discard.
    body.once('error', (error) => hashing.destroy(error));
    const hashed = body.pipe(hashing);
    const { size } = await this.storage.put(key, hashed, { maxBytes });
    const sha256 = hash.digest('hex');
    if (expectedSha256 !== undefined && expectedSha256 !== sha256) {
      await this.storage.delete(key);
      return { kind: 'checksum-mismatch', expected: expectedSha256, actual: sha256 };
    }
    const accepted = await this.transcriptions
      .completeUpload(record.transcriptionId, {
        audioKey: key,
        audioSize: size,
        audioContentType: contentType,
        audioSha256: sha256,
      })
      .catch(async (error: unknown) => {
        await this.storage.delete(key);
        throw error;
      });
    if (accepted) return { kind: 'stored', size, sha256 };
    // A concurrent upload of the same URL won the race: its audio stays, ours goes.
    await this.storage.delete(key);
    const now = await this.transcriptions.getById(record.transcriptionId);
    return now && now.uploadStatus !== 'COMPLETED' && now.status !== 'IN_PROGRESS'
      ? { kind: 'closed', status: now.status }
      : { kind: 'reused' };
  }

  /** Queues the transcription job. Idempotent while queued or running. */
  async start(record: TranscriptionRecord): Promise<StartOutcome> {
    if (ENDED_STATUSES.includes(record.status)) return 'ended';
    if (record.uploadStatus !== 'COMPLETED') return 'upload-missing';
    const jobId = await this.queue.send(
      'transcribe',
      { transcriptionId: record.transcriptionId },
      {
        singletonKey: transcribeJobKey(record.transcriptionId),
      },
    );
    if (jobId === null) return 'already-running';
    await this.transcriptions.update(record.transcriptionId, { status: 'CONVERTING', progress: 0 });
    return 'started';
  }

  /**
   * Transcribes a finished (COMPLETED or FAILED) transcription again from its stored audio, in place, with
   * new options (decision 0062). 'busy': it was not finished any more (a second request won, or it runs).
   * A completed one keeps its revisions: revision 1 is made now if none exists, so that the recognized
   * document is kept before the job's result becomes the next revision.
   */
  async transcribeAgain(
    record: TranscriptionRecord,
    options: AgainOptions,
    author: { userId: string; name: string },
  ): Promise<'started' | 'busy'> {
    if (record.status === 'COMPLETED' && record.transcriptKey) await this.revisions.latest(record);
    if (!(await this.transcriptions.beginAgain(record.transcriptionId, options))) return 'busy';
    const jobId = await this.queue.send(
      'transcribe',
      { transcriptionId: record.transcriptionId, again: { author } },
      { singletonKey: transcribeJobKey(record.transcriptionId) },
    );
    // The row moved, so no job of this transcription is queued or running: a refused send is a fault.
    if (jobId === null) throw new Error(`the transcribe job of ${record.transcriptionId} was not queued`);
    return 'started';
  }

  /**
   * The result of transcribing again, as the next revision of a transcript that had one (decision 0062);
   * false when there was none yet (a failed transcription: the job stores the document as the first).
   */
  async commitTranscribedAgain(
    transcriptionId: string,
    document: TranscriptDocument,
    author: { userId: string; name: string },
  ): Promise<boolean> {
    const record = await this.transcriptions.getById(transcriptionId);
    // A transcript key means a transcript that was kept, its revision 1 made before this run (transcribeAgain).
    if (!record?.transcriptKey) return false;
    const commit = await this.revisions.commit<never>(
      record,
      { author, source: 'transcribed-again', always: true },
      () => ({
        document,
        summary: `Transcribed again by ${document.engine.name}/${document.engine.model}`,
      }),
    );
    if (commit.kind === 'refused' || commit.kind === 'moved-on') throw new Error('transcribed again: not written');
    return true;
  }

  /** Records the end of a transcription and removes what only lived for it. */
  async end(transcriptionId: string, patch: Parameters<TranscriptionRepository['update']>[1]): Promise<void> {
    await this.transcriptions.update(transcriptionId, patch);
    const record = await this.transcriptions.getById(transcriptionId);
    if (record) await this.dropTemporaryDictionary(record.teamId, record.dictionaryId);
  }

  async delete(caller: Caller, record: TranscriptionRecord): Promise<void> {
    await this.queue.cancel(transcribeJobKey(record.transcriptionId));
    await this.transcriptions.delete(caller.teamId, record.transcriptionId);
    await this.storage.delete(`audio/${record.transcriptionId}`);
    await this.storage.delete(uploadKey(record.transcriptionId));
    await this.storage.delete(transcriptKey(record.transcriptionId));
    await this.dropTemporaryDictionary(caller.teamId, record.dictionaryId);
  }

  /** The latest revision of the transcript of a COMPLETED transcription (decision 0052). */
  async readDocument(record: TranscriptionRecord): Promise<TranscriptDocument> {
    if (!record.transcriptKey) throw new Error(`transcription ${record.transcriptionId} has no transcript`);
    return (await this.revisions.latest(record)).document;
  }

  /**
   * Applies a dictionary's forced replacements (default: the transcription's own dictionary) to the latest
   * revision of the transcript, edits included, as a transcription would have: the same matching
   * (replacements.ts), the rewritten words marked, the document's `replacements` extended. What it rewrote
   * is a new revision (decision 0052); `ifMatch` is the revision the caller says is the latest.
   */
  async applyDictionary(
    caller: Caller,
    record: TranscriptionRecord,
    dictionaryId?: string,
    ifMatch?: number,
  ): Promise<ApplyOutcome> {
    if (record.status !== 'COMPLETED' || !record.transcriptKey) return { kind: 'not-completed', status: record.status };
    const id = dictionaryId ?? record.dictionaryId;
    if (!id) return { kind: 'no-dictionary' };
    if (!(await this.dictionaries.get(caller.teamId, id))) return { kind: 'dictionary-not-found', dictionaryId: id };
    // The matching runs in a worker, never on the HTTP event loop (issue 11; docs/deploy/README.md): a job
    // of its own, waited for, so the answer still comes with the rewritten transcript in place.
    const jobId = await this.queue.send(
      'apply-replacements',
      {
        transcriptionId: record.transcriptionId,
        dictionaryId: id,
        author: { userId: caller.userId, name: caller.userName },
        ...(ifMatch !== undefined ? { ifMatch } : {}),
      },
      { maxAttempts: 1 },
    );
    if (jobId === null) throw new Error('the apply-replacements job was not queued');
    const result = await this.queue.wait('apply-replacements', jobId);
    return 'movedOn' in result
      ? { kind: 'moved-on', current: result.movedOn }
      : { kind: 'applied', replaced: result.replaced, revision: result.revision };
  }

  /** The apply-replacements job: the latest revision rewritten by a dictionary's replacement rules. */
  async applyDictionaryNow(payload: JobPayloads['apply-replacements']): Promise<JobResults['apply-replacements']> {
    const record = await this.transcriptions.getById(payload.transcriptionId);
    if (!record || record.status !== 'COMPLETED' || !record.transcriptKey) return { replaced: 0, revision: 0 };
    const rules = await this.dictionaries.replacementRules(payload.dictionaryId);
    let replaced = 0;
    const commit = await this.revisions.commit<never>(
      record,
      // A job queued before revisions names no author: the transcription's owner stands in.
      {
        author: payload.author ?? { userId: record.userId, name: record.userName },
        source: 'dictionary',
        ifMatch: payload.ifMatch,
      },
      ({ document }) => {
        const { segments, applied } = applyReplacements(document.segments, rules, document.language);
        replaced = applied.reduce((sum, a) => sum + a.count, 0);
        return {
          document: {
            ...document,
            segments,
            text: joinSegmentTexts(segments, document.language),
            replacements: mergeApplied(document.replacements, applied),
          },
          summary: `Applied a dictionary: ${replaced} replacement${replaced === 1 ? '' : 's'}`,
        };
      },
    );
    switch (commit.kind) {
      case 'moved-on':
        return { movedOn: commit.current };
      case 'written':
        return { replaced, revision: commit.info.revision };
      case 'unchanged':
        return { replaced: 0, revision: commit.revision };
      case 'refused':
        return commit.refusal;
    }
  }

  /** Tickets never uploaded become CANCELLED once their upload URL expires. */
  async cancelExpiredUploads(): Promise<number> {
    // The repository drops their temporary dictionaries in the same transaction.
    const cancelled = await this.transcriptions.cancelExpiredUploads(nowIso());
    for (const { transcriptionId } of cancelled) {
      // A presigned PUT may still have landed (S3 mode): nothing will ever commit it now.
      await this.storage.delete(uploadKey(transcriptionId));
    }
    return cancelled.length;
  }

  private async dropTemporaryDictionary(teamId: string, dictionaryId: string | null) {
    if (!dictionaryId) return;
    const dictionary = await this.dictionaries.get(teamId, dictionaryId);
    if (dictionary?.isTemporary) await this.dictionaries.delete(teamId, dictionaryId);
  }
}

/** The replacements a document lists, with a later run's added: counts summed, segment ids merged. */
function mergeApplied(
  before: readonly AppliedReplacement[],
  added: readonly AppliedReplacement[],
): AppliedReplacement[] {
  const out = before.map((a) => ({ ...a, segment_ids: [...a.segment_ids] }));
  for (const a of added) {
    const same = out.find((b) => b.pattern === a.pattern && b.replacement === a.replacement);
    if (!same) out.push({ ...a, segment_ids: [...a.segment_ids] });
    else {
      same.count += a.count;
      same.segment_ids = [...new Set([...same.segment_ids, ...a.segment_ids])].sort((x, y) => x - y);
    }
  }
  return out;
}
