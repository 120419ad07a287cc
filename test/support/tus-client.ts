// A whole upload through the official tus client (tus-js-client), as the server's users send one.
import * as tus from 'tus-js-client';

/** A tus upload of `bytes` to `endpoint` in 16 KiB chunks, no retries; resolves once the server took the last byte. */
export function tusUpload(
  endpoint: string,
  bytes: Buffer,
  options: Partial<tus.UploadOptions> = {},
): Promise<tus.Upload> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(bytes, {
      endpoint,
      retryDelays: [],
      chunkSize: 16 * 1024,
      metadata: { filename: 'meeting.wav', filetype: 'audio/wav' },
      onError: reject,
      onSuccess: () => resolve(upload),
      ...options,
    });
    upload.start();
  });
}
