// One line per file in the uploads queue, from the upload's own state and, once it has been handed to
// the server, its transcription's: waiting → uploading n% → transcribing n% → done, or failed with the
// reason. The transcription is looked up in the library's rows; when it is not there (a filter hides
// it, or the list has not caught up yet) the line says only what is certain: uploaded. A running row
// older than the start is the list not having caught up too: read while the audio was still on its way, its
// IN_PROGRESS meant "waiting for the audio" (decision 0001), and shown as transcribing it would go back
// to queued once the list caught up.
import { assertNever } from '../../../src-shared/assert-never';
import type { IpcError, TranscriptionSummary, UploadJob } from '../../../src-shared/ipc-contract';
import type { FailureCode } from '../../../src-shared/api/vocabulary';

export type QueueState =
  | { kind: 'waiting' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'starting' }
  | { kind: 'uploaded' }
  /** Started on the server, waiting for a free worker there. */
  | { kind: 'queued' }
  /** Its transcription's row, worded as the library words it (progress-line.tsx). */
  | { kind: 'transcribing'; percent: number | null; transcription: TranscriptionSummary }
  | { kind: 'done' }
  | { kind: 'failed'; error: IpcError | null; reason: string | null; code: FailureCode | null }
  | { kind: 'cancelled' };

export function queueStateOf(job: UploadJob, transcription: TranscriptionSummary | undefined): QueueState {
  switch (job.state) {
    case 'queued':
      return { kind: 'waiting' };
    case 'uploading':
      return {
        kind: 'uploading',
        percent: job.size > 0 ? Math.min(100, Math.floor((job.sentBytes / job.size) * 100)) : 0,
      };
    case 'starting':
      return { kind: 'starting' };
    case 'failed':
      return { kind: 'failed', error: job.error, reason: null, code: null };
    case 'cancelled':
      return { kind: 'cancelled' };
    case 'done':
      break;
    default:
      return assertNever(job.state, 'upload state');
  }
  if (!transcription || transcription.id !== job.transcriptionId) return { kind: 'uploaded' };
  // Only a running row can be one read before the start; an ended one (a file the server could not
  // convert fails at once) is final, and reading it as "uploaded" would contradict its row.
  const ended = transcription.status === 'COMPLETED' || transcription.status === 'FAILED';
  if (!ended && readBeforeStart(job, transcription)) return { kind: 'uploaded' };
  switch (transcription.status) {
    case 'COMPLETED':
      return { kind: 'done' };
    case 'FAILED':
      return { kind: 'failed', error: null, reason: transcription.failureReason, code: transcription.failureCode };
    case 'CONVERTING':
    case 'IN_PROGRESS':
      if (transcription.stage === 'queued') return { kind: 'queued' };
      return {
        kind: 'transcribing',
        percent: transcription.progress === null ? null : Math.floor(transcription.progress * 100),
        transcription,
      };
    case 'CANCELLED':
      return { kind: 'cancelled' };
    default:
      return assertNever(transcription.status, 'transcription status');
  }
}

/** Both times are the server's: the row's updated_at, and the one its answer to the start had. */
const readBeforeStart = (job: UploadJob, transcription: TranscriptionSummary) =>
  job.startedAt !== null && Date.parse(transcription.updatedAt) < Date.parse(job.startedAt);

/** Still on its way: counts as "in progress" in the queue's summary line. */
export const isInProgress = (state: QueueState) =>
  state.kind === 'waiting' ||
  state.kind === 'queued' ||
  state.kind === 'uploading' ||
  state.kind === 'starting' ||
  state.kind === 'transcribing';
