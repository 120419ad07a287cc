// Resumable uploads (tus 1.0, decision 0032) with tus-js-client: the ticket's audio_upload_url is a tus
// endpoint on kikitori-server. The upload's own URL is handed back to be kept with the job, so after a
// dropped connection or an app restart the next attempt asks the server for its offset (HEAD) and sends
// only the rest. Servers whose upload URL is not a tus endpoint (S3's presigned URLs) get a plain PUT.
import fs from 'node:fs';
import * as tus from 'tus-js-client';
import { cancelledError, errorFromResponse, offlineError } from '../api-client/api-errors.js';

export interface ResumableUploadOptions {
  /** The ticket's signed audio_upload_url: where a new upload is created. */
  endpoint: string;
  filePath: string;
  fileName: string;
  contentType: string;
  /** The upload's URL from an earlier attempt, to resume; null to create one. */
  resumeUrl: string | null;
  signal: AbortSignal;
  /** Bytes the server has, counted from the start of the file (a resumed upload starts at its offset). */
  onProgress: (sent: number) => void;
  /** The upload's URL, as soon as the server created it: keep it to resume. */
  onResumeUrl: (url: string) => void;
}

/** Whether `uploadUrl` speaks tus 1.0: its OPTIONS answers Tus-Version. A server that cannot be reached is an offline error. */
export async function speaksTus(uploadUrl: string, signal: AbortSignal): Promise<boolean> {
  try {
    const response = await fetch(uploadUrl, { method: 'OPTIONS', signal });
    await response.body?.cancel();
    return response.ok && (response.headers.get('tus-version') ?? '').split(',').some((v) => v.trim() === '1.0.0');
  } catch (error) {
    if (signal.aborted) throw cancelledError();
    throw offlineError(uploadUrl, error);
  }
}

/**
 * Uploads the file with tus, resuming `resumeUrl` when given. Answers 'not-tus' when the server refused to
 * create an upload the way a server without tus would (no error body: 404, 405, 501): then PUT instead.
 * Failures are ApiErrors, as the plain PUT's are.
 */
export function uploadResumable(o: ResumableUploadOptions): Promise<'uploaded' | 'not-tus'> {
  if (o.signal.aborted) return Promise.reject(cancelledError());
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(fs.createReadStream(o.filePath), {
      endpoint: o.endpoint,
      uploadUrl: o.resumeUrl,
      // One PATCH streams the whole rest of the file from disk; an interruption resumes from the server's offset.
      chunkSize: Number.POSITIVE_INFINITY,
      // The upload manager waits and tries again (with backoff, or at once when back online).
      retryDelays: [],
      removeFingerprintOnSuccess: true,
      storeFingerprintForResuming: false,
      metadata: { filename: o.fileName, filetype: o.contentType },
      onUploadUrlAvailable: () => {
        if (upload.url) o.onResumeUrl(upload.url);
      },
      onProgress: (sent) => o.onProgress(sent),
      onSuccess: () => {
        o.signal.removeEventListener('abort', onAbort);
        resolve('uploaded');
      },
      onError: (error) => {
        o.signal.removeEventListener('abort', onAbort);
        if (o.signal.aborted) return reject(cancelledError());
        const response = (error as tus.DetailedError).originalResponse;
        if (!response) return reject(offlineError(o.endpoint, error));
        const status = response.getStatus();
        let body: unknown;
        try {
          body = JSON.parse(response.getBody());
        } catch {
          body = undefined;
        }
        const method = (error as tus.DetailedError).originalRequest?.getMethod();
        if (method === 'POST' && [404, 405, 501].includes(status) && !hasErrorCode(body)) return resolve('not-tus');
        reject(
          status === 0
            ? offlineError(o.endpoint, error)
            : errorFromResponse(status, body, 'upload', response.getHeader('Retry-After') ?? null),
        );
      },
    });
    const onAbort = () => {
      void upload.abort().catch(() => undefined);
      reject(cancelledError());
    };
    o.signal.addEventListener('abort', onAbort, { once: true });
    upload.start();
  });
}

const hasErrorCode = (body: unknown) => typeof (body as { error_code?: unknown } | undefined)?.error_code === 'number';
