// Upload integrity and resumable uploads (issue 11 items 4 and 5, decision 0032), over real HTTP with real audio.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { loadSigningSecret, UrlSigner } from '../../../src-server/signing/url-signer.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { tusUpload } from '../../support/tus-client.js';
import {
  otherConnection,
  startTestServer,
  storedAudioPath,
  tempDir,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

let server: TestServer;
let key: string;
let speech: Buffer<ArrayBuffer>;
let speechFile: string;
const dir = tempDir('kikitori-upload-integrity-');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const base64Sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

beforeAll(async () => {
  // PUT integrity and tus are the server's own upload route (file storage, whatever the run's backend): in
  // S3 mode the ticket's URL is the store's presigned PUT, checked at /transcribe (s3-storage-mode.test.ts).
  server = await startTestServer({ storage: 'files' });
  key = await server.key('acme');
  speechFile = await synthesizeSpeech('please send the quarterly report to the finance team by friday');
  speech = fs.readFileSync(speechFile);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ticket(filename = 'meeting.wav') {
  const response = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename, language: 'en' });
  expect(response.status).toBe(200);
  return response.json as { transcription_id: string; audio_upload_url: string };
}

const record = async (id: string) => (await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json;
const storedRecord = async (id: string) => (await server.runtime.ctx.transcriptions.getById(id))!;
const audioObjects = (id: string) => {
  const folder = path.join(server.dataDir, 'storage', 'audio', id);
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
};

function expectErrorBody(body: any, code: number) {
  expect(body).toMatchObject({ error_code: code, error_id: expect.any(String), error_message: expect.any(String) });
}

describe('plain PUT integrity', () => {
  it('records the SHA-256 of the stored audio and answers it', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    const put = await fetch(url, { method: 'PUT', body: speech });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ size: speech.length, sha256: sha256(speech) });
    expect((await storedRecord(id)).audioSha256).toBe(sha256(speech));
    expect(fs.readFileSync(await storedAudioPath(server, id)).equals(speech)).toBe(true);
  });

  it('stores a PUT whose Content-Digest or x-amz-checksum-sha256 matches', async () => {
    for (const header of [
      { 'content-digest': `sha-256=:${base64Sha256(speech)}:` },
      { 'x-amz-checksum-sha256': base64Sha256(speech) },
    ] as Array<Record<string, string>>) {
      const { transcription_id: id, audio_upload_url: url } = await ticket();
      const put = await fetch(url, { method: 'PUT', body: speech, headers: header });
      expect(put.status).toBe(200);
      expect((await storedRecord(id)).audioSha256).toBe(sha256(speech));
    }
  });

  it('answers 400 CHECKSUM_MISMATCH for bytes that do not match the checksum, stores nothing, and the URL still works', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    const wrong = base64Sha256(Buffer.from('another file'));
    for (const header of [{ 'content-digest': `sha-256=:${wrong}:` }, { 'x-amz-checksum-sha256': wrong }] as Array<
      Record<string, string>
    >) {
      const put = await fetch(url, { method: 'PUT', body: speech, headers: header });
      expect(put.status).toBe(400);
      expectErrorBody(await put.json(), ErrorCode.CHECKSUM_MISMATCH);
      expect((await record(id)).upload_status).toBe('PENDING');
      expect(audioObjects(id)).toEqual([]);
    }
    const malformed = await fetch(url, {
      method: 'PUT',
      body: speech,
      headers: { 'content-digest': 'sha-256=:not-base64:' },
    });
    expect(malformed.status).toBe(400);
    expectErrorBody(await malformed.json(), ErrorCode.VALIDATION_FAILED);
    expect((await fetch(url, { method: 'PUT', body: speech })).status).toBe(200);
  });

  it('lets exactly one of two concurrent PUTs win: one 200, one 409, and the stored bytes are the winner’s', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    const other = Buffer.concat([speech, Buffer.from('a different tail')]);
    const [a, b] = await Promise.all([
      fetch(url, { method: 'PUT', body: speech }),
      fetch(url, { method: 'PUT', body: other }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expectErrorBody(await loser.json(), ErrorCode.UPLOAD_ALREADY_COMPLETED);
    const winnerBytes = a.status === 200 ? speech : other;
    expect(fs.readFileSync(await storedAudioPath(server, id)).equals(winnerBytes)).toBe(true);
    expect((await storedRecord(id)).audioSha256).toBe(sha256(winnerBytes));
    // The loser's object is gone: only the stored audio remains.
    expect(audioObjects(id)).toHaveLength(1);
  });

  it('a slow second PUT, started before the first finished and ending after it, changes nothing', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    // The slow PUT sends its first half, then waits until the fast one has completed before sending the rest.
    const slowBytes = Buffer.alloc(200_000, 7);
    const target = new URL(url);
    const slow = new Promise<{ status: number; body: any }>((resolve, reject) => {
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: 'PUT',
          headers: { 'content-length': slowBytes.length },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
        },
      );
      request.on('error', reject);
      request.write(slowBytes.subarray(0, 100_000));
      void fetch(url, { method: 'PUT', body: speech }).then(async (fast) => {
        expect(fast.status).toBe(200);
        request.end(slowBytes.subarray(100_000));
      }, reject);
    });
    const answer = await slow;
    expect(answer.status).toBe(409);
    expectErrorBody(answer.body, ErrorCode.UPLOAD_ALREADY_COMPLETED);
    expect(fs.readFileSync(await storedAudioPath(server, id)).equals(speech)).toBe(true);
    expect((await storedRecord(id)).audioSha256).toBe(sha256(speech));
    expect(audioObjects(id)).toHaveLength(1);
  });
});

describe('tus resumable uploads', () => {
  it('tus-js-client uploads to audio_upload_url, and the transcription runs to COMPLETED', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    const options = await fetch(url, { method: 'OPTIONS' });
    expect(options.headers.get('tus-version')).toContain('1.0.0');
    const upload = await tusUpload(url, speech);
    // The upload's own URL is signed like the ticket's and stays on this transcription.
    expect(upload.url).toContain(`/files/upload/${id}/tus/`);
    expect(upload.url).toContain('signature=');
    expect(fs.readFileSync(await storedAudioPath(server, id)).equals(speech)).toBe(true);
    expect((await storedRecord(id)).audioSha256).toBe(sha256(speech));
    expect((await record(id)).upload_status).toBe('COMPLETED');
    // The partial file is gone once committed.
    expect(fs.readdirSync(path.join(server.dataDir, 'tus-uploads')).filter((f) => f.startsWith(id))).toEqual([]);
    const started = await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
    expect(started.status).toBe(200);
    const done = await waitForStatus(server, key, id, ['COMPLETED', 'FAILED']);
    expect(done.json.status).toBe('COMPLETED');
  });

  it('resumes an interrupted upload from the server’s offset, and stores the same bytes', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    const bytes = Buffer.concat([speech, Buffer.alloc(300_000, 3)]);
    let uploadUrl: string | null = null;
    // First attempt: aborted once a third has been accepted by the server.
    await new Promise<void>((resolve, reject) => {
      const first = new tus.Upload(bytes, {
        endpoint: url,
        chunkSize: 32 * 1024,
        retryDelays: [],
        onError: reject,
        onSuccess: () => reject(new Error('the first attempt should have been aborted')),
        onChunkComplete: (_chunk, accepted) => {
          if (accepted > bytes.length / 3 && uploadUrl === null) {
            uploadUrl = first.url;
            void first.abort().then(resolve, reject);
          }
        },
      });
      first.start();
    });
    expect(uploadUrl).not.toBeNull();
    const head = await fetch(uploadUrl!, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(bytes.length);
    expect((await record(id)).upload_status).toBe('PENDING');

    // Second attempt: a new client resumes from the same upload URL, sending only what the server lacks.
    let firstChunkFrom = -1;
    await tusUpload(url, bytes, {
      uploadUrl: uploadUrl!,
      chunkSize: 32 * 1024,
      onProgress: (sent) => {
        if (firstChunkFrom < 0) firstChunkFrom = sent;
      },
    });
    expect(firstChunkFrom).toBeGreaterThanOrEqual(offset);
    const stored = fs.readFileSync(await storedAudioPath(server, id));
    expect(sha256(stored)).toBe(sha256(bytes));
    expect((await storedRecord(id)).audioSha256).toBe(sha256(bytes));
  });

  it('checks a whole-file checksum sent at creation: a mismatch answers 400 and stores nothing', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    const wrong = base64Sha256(Buffer.from('something else'));
    const failure = await tusUpload(url, speech, { headers: { 'content-digest': `sha-256=:${wrong}:` } }).then(
      () => null,
      (error: tus.DetailedError) => error,
    );
    expect(failure?.originalResponse?.getStatus()).toBe(400);
    expectErrorBody(JSON.parse(failure!.originalResponse!.getBody()), ErrorCode.CHECKSUM_MISMATCH);
    expect((await record(id)).upload_status).toBe('PENDING');
    expect(audioObjects(id)).toEqual([]);
    await tusUpload(url, speech, { headers: { 'x-amz-checksum-sha256': base64Sha256(speech) } });
    expect((await storedRecord(id)).audioSha256).toBe(sha256(speech));
  });

  it('answers the spec’s error body on a used URL, an expired or forged one, and an oversized Upload-Length', async () => {
    const { transcription_id: id, audio_upload_url: url } = await ticket();
    const upload = await tusUpload(url, speech);
    const create = (target: string, length = String(speech.length)) =>
      fetch(target, { method: 'POST', headers: { 'tus-resumable': '1.0.0', 'upload-length': length } });

    const used = await create(url);
    expect(used.status).toBe(409);
    expectErrorBody(await used.json(), ErrorCode.UPLOAD_ALREADY_COMPLETED);
    const patchUsed = await fetch(upload.url!, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: speech,
    });
    expect(patchUsed.status).toBe(409);
    expectErrorBody(await patchUsed.json(), ErrorCode.UPLOAD_ALREADY_COMPLETED);

    const fresh = await ticket();
    const past = new UrlSigner(loadSigningSecret(server.dataDir), () => Date.now() - 7200_000);
    const expired = await create(server.url + past.sign('upload', fresh.transcription_id, 60).path);
    expect(expired.status).toBe(403);
    expectErrorBody(await expired.json(), ErrorCode.EXPIRED_SIGNATURE);
    const forged = new URL(fresh.audio_upload_url);
    forged.searchParams.set('signature', 'A'.repeat(22));
    const invalid = await create(forged.toString());
    expect(invalid.status).toBe(403);
    expectErrorBody(await invalid.json(), ErrorCode.INVALID_SIGNATURE);
    // An upload URL of another transcription, under this one's signature, reaches nothing.
    const otherUpload = upload
      .url!.replace(`/files/upload/${id}/`, `/files/upload/${fresh.transcription_id}/`)
      .replace(/\?.*$/, new URL(fresh.audio_upload_url).search);
    const crossed = await fetch(otherUpload, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(crossed.status).toBe(404);

    const tooLarge = await create(fresh.audio_upload_url, String(server.runtime.ctx.config.uploads.maxBytes + 1));
    expect(tooLarge.status).toBe(413);
    expectErrorBody(await tooLarge.json(), ErrorCode.PAYLOAD_TOO_LARGE);
    const noLength = await fetch(fresh.audio_upload_url, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-defer-length': '1' },
    });
    expect(noLength.status).toBe(400);
    expectErrorBody(await noLength.json(), ErrorCode.TUS_REQUEST_INVALID);

    // @tus/server's own refusals carry the error body too: a PATCH at the wrong offset.
    const created = await create(fresh.audio_upload_url);
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, server.url).toString();
    const wrongOffset = await fetch(location, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '5', 'content-type': 'application/offset+octet-stream' },
      body: speech.subarray(5, 100),
    });
    expect(wrongOffset.status).toBe(409);
    expectErrorBody(await wrongOffset.json(), ErrorCode.UPLOAD_OFFSET_MISMATCH);
    // More bytes than the upload declared: 413 in the error body, and the upload keeps its offset.
    const overflow = await fetch(location, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.concat([speech, Buffer.alloc(10)]),
    });
    expect(overflow.status).toBe(413);
    expectErrorBody(await overflow.json(), ErrorCode.PAYLOAD_TOO_LARGE);
    const afterOverflow = await fetch(location, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } });
    expect(afterOverflow.headers.get('upload-offset')).toBe('0');
    // The signature never reaches the log.
    expect(server.logLines.join('\n')).not.toContain(new URL(fresh.audio_upload_url).searchParams.get('signature')!);
  });

  it('the expiry sweep removes partial uploads of tickets that expired', async () => {
    const expiring = await startTestServer({ storage: 'files' });
    try {
      const k = await expiring.key('acme');
      const response = await expiring.api(k, 'POST', '/api/v1/transcriptions/upload', { filename: 'x.wav' });
      const created = await fetch(response.json.audio_upload_url, {
        method: 'POST',
        headers: { 'tus-resumable': '1.0.0', 'upload-length': String(speech.length) },
      });
      expect(created.status).toBe(201);
      const partials = () => fs.readdirSync(path.join(expiring.dataDir, 'tus-uploads'));
      expect(partials().length).toBeGreaterThan(0);
      // The ticket expires: its expiry is moved into the past, as time would move it. (A 1-second URL
      // lifetime made this race the clock: a URL signed late in a second had milliseconds left.)
      const other = await otherConnection(expiring);
      try {
        await other.run('UPDATE transcriptions SET upload_expires_at = ? WHERE transcription_id = ?', [
          new Date(Date.now() - 1000).toISOString(),
          response.json.transcription_id,
        ]);
      } finally {
        await other.close();
      }
      await waitForStatus(expiring, k, response.json.transcription_id, ['CANCELLED']);
      for (;;) {
        if (partials().length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(partials()).toEqual([]);
    } finally {
      await expiring.close();
    }
  });
});
