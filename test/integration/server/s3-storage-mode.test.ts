// A server in S3 mode (KIKITORI_STORAGE_URL + KIKITORI_S3_ENDPOINT, s3rver on loopback) over real HTTP:
// uploads go to presigned S3 URLs, /transcribe commits them once, audio_path is served by the store.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { postTranscription } from '../../support/openai-test-server.js';
import { startS3, type S3Server } from '../../support/s3.js';
import { startTestServer, tempDir, waitForStatus, type TestServer } from '../../support/test-server.js';

const BUCKET = 'kikitori';
const MAX_UPLOAD = 2_000_000;
let s3: S3Server;
let server: TestServer;
let key: string;
let speechWav: string;

beforeAll(async () => {
  s3 = await startS3({ buckets: [BUCKET] });
  server = await startTestServer({
    env: {
      ...s3.env(BUCKET, 'site/a'),
      KIKITORI_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
      KIKITORI_TEAM_QUOTA_BYTES: '3000000',
    },
  });
  key = await server.key('acme', 'alice', ['DELETE']);
  speechWav = path.join(tempDir(), 'meeting.wav');
  fs.copyFileSync(await synthesizeSpeech('please send the report to the marketing team by friday'), speechWav);
});
afterAll(async () => {
  await server?.close();
  await s3?.stop();
});

const ticketFor = async (k: string, filename: string) => {
  const ticket = await server.api(k, 'POST', '/api/v1/transcriptions/upload', { filename, language: 'en' });
  expect(ticket.status).toBe(200);
  return ticket.json as { transcription_id: string; audio_upload_url: string };
};
const put = (url: string, body: Buffer) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'audio/wav' } });
const transcribe = (k: string, id: string) => server.api(k, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
const storage = () => server.runtime.ctx.storage;
const noise = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919) % 256));

describe('S3 mode', () => {
  let id: string;
  let uploadUrl: string;
  let audio: Buffer;

  it('hands out a presigned S3 PUT that leaves the upload pending until /transcribe commits it', async () => {
    const ticket = await ticketFor(key, 'meeting.wav');
    ({ transcription_id: id, audio_upload_url: uploadUrl } = ticket);
    expect(uploadUrl.startsWith(`${s3.endpoint}/${BUCKET}/site/a/uploads/${id}?`)).toBe(true);
    expect(new URL(uploadUrl).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    audio = fs.readFileSync(speechWav);
    expect((await put(uploadUrl, audio)).status).toBe(200);
    const pending = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
    expect(pending.json).toMatchObject({ upload_status: 'PENDING', audio_path: null });
  });

  it('transcribes the committed object to COMPLETED, from real speech', async () => {
    const started = await transcribe(key, id);
    expect(started.status).toBe(200);
    expect(started.json.upload_status).toBe('COMPLETED');
    const completed = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(completed.failure_reason).toBeNull();
    expect(completed.status).toBe('COMPLETED');
    const document = await (await fetch(completed.transcription_path)).json();
    expect(document.text).toMatch(/report|marketing|friday/i);
    // The upload object is gone, the audio lives under the transcription's own key.
    const record = await server.runtime.ctx.transcriptions.getById(id);
    expect(record?.audioKey).toMatch(new RegExp(`^audio/${id}/`));
    expect(await storage().stat(`uploads/${id}`)).toBeNull();
    expect((await storage().stat(record!.audioKey!))?.size).toBe(audio.length);
    // The private local copy ffmpeg read is gone too.
    const work = path.join(server.dataDir, 'work');
    const leftovers = fs
      .readdirSync(work)
      .filter((d) => d.startsWith('s3-'))
      .flatMap((d) => fs.readdirSync(path.join(work, d)));
    expect(leftovers).toEqual([]);
  });

  it('serves audio_path from S3 by redirect, Range requests included', async () => {
    const { json } = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
    const manual = await fetch(json.audio_path, { redirect: 'manual' });
    expect(manual.status).toBe(307);
    expect(manual.headers.get('location')!.startsWith(`${s3.endpoint}/${BUCKET}/site/a/audio/${id}/`)).toBe(true);
    const ranged = await fetch(json.audio_path, { headers: { range: 'bytes=100-1123' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1123/${audio.length}`);
    expect(ranged.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(audio.subarray(100, 1124));
    const whole = await fetch(json.audio_path);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(audio);
  });

  it('ignores a second PUT to the same URL after /transcribe', async () => {
    await put(uploadUrl, noise(5000));
    const again = await transcribe(key, id);
    expect(again.status).toBe(409);
    expect(again.json.error_code).toBe(ErrorCode.TRANSCRIPTION_ALREADY_ENDED);
    const { json } = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
    expect(Buffer.from(await (await fetch(json.audio_path)).arrayBuffer())).toEqual(audio);
    expect((await server.runtime.ctx.transcriptions.getById(id))?.audioSize).toBe(audio.length);
  });

  it('refuses an oversized object at /transcribe and keeps the ticket open for a smaller one', async () => {
    const ticket = await ticketFor(key, 'huge.wav');
    expect((await put(ticket.audio_upload_url, noise(MAX_UPLOAD + 1))).status).toBe(200);
    const refused = await transcribe(key, ticket.transcription_id);
    expect(refused.status).toBe(413);
    expect(refused.json.error_code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    expect(await storage().stat(`uploads/${ticket.transcription_id}`)).toBeNull();
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${ticket.transcription_id}`);
    expect(record.json).toMatchObject({ status: 'IN_PROGRESS', upload_status: 'PENDING' });

    expect((await put(ticket.audio_upload_url, audio)).status).toBe(200);
    expect((await transcribe(key, ticket.transcription_id)).status).toBe(200);
    expect((await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED'])).json.status).toBe(
      'COMPLETED',
    );
  });

  it('refuses an object past the team quota, and an empty one, at /transcribe', async () => {
    const other = await server.key('quota-team');
    const first = await ticketFor(other, 'one.wav');
    await put(first.audio_upload_url, noise(1_900_000));
    expect((await transcribe(other, first.transcription_id)).status).toBe(200);
    const second = await ticketFor(other, 'two.wav');
    await put(second.audio_upload_url, noise(1_900_000));
    const refused = await transcribe(other, second.transcription_id);
    expect(refused.status).toBe(403);
    expect(refused.json.error_code).toBe(ErrorCode.QUOTA_EXCEEDED);

    const empty = await ticketFor(other, 'empty.wav');
    await put(empty.audio_upload_url, Buffer.alloc(0));
    const answer = await transcribe(other, empty.transcription_id);
    expect(answer.status).toBe(400);
    expect(answer.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
  });

  it('answers UPLOAD_NOT_COMPLETE when nothing was PUT', async () => {
    const ticket = await ticketFor(key, 'never.wav');
    const response = await transcribe(key, ticket.transcription_id);
    expect(response.status).toBe(409);
    expect(response.json.error_code).toBe(ErrorCode.UPLOAD_NOT_COMPLETE);
  });

  it('removes every object of a deleted transcription, a late upload included', async () => {
    const record = await server.runtime.ctx.transcriptions.getById(id);
    await put(uploadUrl, noise(100));
    expect(await storage().stat(`uploads/${id}`)).not.toBeNull();
    const deleted = await server.api(key, 'DELETE', `/api/v1/transcriptions/${id}`);
    expect(deleted.status).toBeLessThan(300);
    for (const k of [record!.audioKey!, record!.transcriptKey!, `uploads/${id}`])
      expect(await storage().stat(k)).toBeNull();
  });

  it('logs no credentials and no presigned URL', () => {
    const logs = server.logLines.join('\n');
    expect(logs).not.toMatch(/S3RVER|X-Amz-Signature|X-Amz-Credential/i);
  });
});

describe('S3 mode on the OpenAI route', () => {
  it('streams the multipart file through S3 with the limit, transcribes it and leaves nothing behind', async () => {
    const openaiDir = path.join(s3.directory, BUCKET, 'site', 'a', 'openai');
    await storage().put('openai/probe', Readable.from([Buffer.from('x')]));
    expect(fs.existsSync(openaiDir)).toBe(true);
    await storage().delete('openai/probe');
    const answer = await postTranscription(server, key, speechWav, { model: 'whisper-1', response_format: 'json' });
    expect(answer.status).toBe(200);
    expect(answer.json.text).toMatch(/report|marketing|friday/i);
    const big = await fetch(`${server.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: (() => {
        const form = new FormData();
        form.append('model', 'whisper-1');
        form.append('file', new Blob([new Uint8Array(MAX_UPLOAD + 1000)]), 'big.wav');
        return form;
      })(),
    });
    expect(big.status).toBe(413);
    // s3rver keeps objects as files under <bucket>/<key> and removes emptied directories: the route's
    // uploads under openai/ are gone.
    expect(fs.existsSync(openaiDir)).toBe(false);
  });
});

describe('S3 mode upload expiry', () => {
  it('cancels a ticket never committed and deletes what was PUT to it', async () => {
    const short = await startTestServer({ env: { ...s3.env(BUCKET, 'site/b'), KIKITORI_UPLOAD_URL_TTL: '5' } });
    try {
      const k = await short.key('acme');
      const ticket = await short.api(k, 'POST', '/api/v1/transcriptions/upload', {
        filename: 'late.wav',
        language: 'en',
      });
      expect((await put(ticket.json.audio_upload_url, noise(1000))).status).toBe(200);
      expect(await short.runtime.ctx.storage.stat(`uploads/${ticket.json.transcription_id}`)).not.toBeNull();
      await waitForStatus(short, k, ticket.json.transcription_id, ['CANCELLED']);
      for (;;) {
        if ((await short.runtime.ctx.storage.stat(`uploads/${ticket.json.transcription_id}`)) === null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await short.close();
    }
  });
});
