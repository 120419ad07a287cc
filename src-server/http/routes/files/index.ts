import type { RouteModule } from '../../api-app.js';
import { downloadAudio } from './download-audio.js';
import { downloadTranscript } from './download-transcript.js';
import { fileResponseHeaders } from './response-headers.js';
import { tusUploadRoutes } from './tus-upload.js';
import { uploadAudio } from './upload-audio.js';

/** Signed-URL routes: no API key; the URL's signature is the credential. */
export const fileRoutes: RouteModule[] = [
  fileResponseHeaders,
  uploadAudio,
  tusUploadRoutes,
  downloadAudio,
  downloadTranscript,
];
