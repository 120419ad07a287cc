import type { RouteModule } from '../../api-app.js';
import { applyReplacements } from './apply-replacements.js';
import { deleteTranscription } from './delete-transcription.js';
import { getTranscription } from './get-transcription.js';
import { listTranscriptions } from './list-transcriptions.js';
import { getReview, saveReview } from './review.js';
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
];
