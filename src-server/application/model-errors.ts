// ModelErrors as the API's coded errors. Only what a request can meet synchronously is mapped here;
// a background download's failure is its status (FAILED, with `error`).
import { AppError } from './errors.js';
import { isModelError } from '../models/model-error.js';

export const modelErrors = {
  modelNotFound: (message: string) => new AppError(404, 'MODEL_NOT_FOUND', message),
  downloadNotFound: (name: string) =>
    new AppError(
      404,
      'MODEL_DOWNLOAD_NOT_FOUND',
      `No download of the speech model "${name}" is running. POST to /api/v1/models/${name}/download to start one.`,
    ),
  modelNotInstalled: (message: string) => new AppError(409, 'MODEL_NOT_INSTALLED', message),
  insufficientStorage: (message: string) => new AppError(507, 'INSUFFICIENT_STORAGE', message),
  fileMismatch: (message: string) => new AppError(422, 'MODEL_FILE_MISMATCH', message),
  fileUnusable: (message: string) => new AppError(422, 'MODEL_FILE_UNUSABLE', message),
  fileIncomplete: (message: string) => new AppError(400, 'MALFORMED_REQUEST', message),
};

/** Runs a manager call, turning its ModelErrors into coded errors; anything else is unexpected (500). */
export async function withModelErrors<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isModelError(error)) throw error;
    switch (error.kind) {
      case 'not-found':
        throw modelErrors.modelNotFound(error.message);
      case 'not-installed':
        throw modelErrors.modelNotInstalled(error.message);
      case 'insufficient-storage':
        throw modelErrors.insufficientStorage(error.message);
      case 'not-this-model':
        throw modelErrors.fileMismatch(error.message);
      case 'unusable':
        // A download reports it in its status; an install from a file answers it.
        throw modelErrors.fileUnusable(error.message);
      case 'interrupted':
        // Likewise: from a request, only an install's body that ended early.
        throw modelErrors.fileIncomplete(error.message);
      case 'unreachable':
      case 'source-failed':
      case 'corrupt':
      case 'cancelled':
      case 'internal':
        // Downloads report these in their status, never from a request.
        throw error;
    }
  }
}
