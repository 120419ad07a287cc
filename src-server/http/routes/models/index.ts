// Extension: speech-model management (src-shared/api/models.ts). Any key reads; OPERATOR (not a team's ADMIN) downloads, installs from a file, cancels and deletes.
import type { RouteModule } from '../../api-app.js';
import { cancelModelDownload } from './cancel-model-download.js';
import { deleteModel } from './delete-model.js';
import { downloadModel } from './download-model.js';
import { getModelDownload } from './get-model-download.js';
import { installModelFile } from './install-model-file.js';
import { listModels } from './list-models.js';

export const modelRoutes: RouteModule[] = [
  listModels,
  downloadModel,
  getModelDownload,
  cancelModelDownload,
  deleteModel,
  installModelFile,
];
