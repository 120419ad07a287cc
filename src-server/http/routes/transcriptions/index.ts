import type { RouteModule } from '../../api-app.js';
import { applyReplacements } from './apply-replacements.js';
import { deleteTranscription } from './delete-transcription.js';
import { getTranscription } from './get-transcription.js';
import { listTranscriptions } from './list-transcriptions.js';
import { getReview, saveReview } from './review.js';
import { createRevisionRoute } from './create-revision.js';
import { getRevisionRoute } from './get-revision.js';
import { listRevisionsRoute } from './list-revisions.js';
import { restoreRevisionRoute } from './restore-revision.js';
import { transcribeTranscription } from './transcribe-transcription.js';
import { uploadTranscription } from './upload-transcription.js';

export const transcriptionRoutes: RouteModule[] = [
  uploadTranscription,
  transcribeTranscription,
  listTranscriptions,
  getTranscription,
  deleteTranscription,
  getReview,
  saveReview,
  applyReplacements,
  listRevisionsRoute,
  getRevisionRoute,
  createRevisionRoute,
  restoreRevisionRoute,
];
