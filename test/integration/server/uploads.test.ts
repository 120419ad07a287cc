import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { loadSigningSecret, UrlSigner } from '../../../src-server/signing/url-signer.js';
import {
  otherConnection,
  startTestServer,
  storedAudioPath,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

let server: TestServer;
let key: string;
const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));

beforeAll(async () => {
  // The server's own upload route (a signed URL on this server, PUT, audio_path served here): file storage,
  // whatever the run's backend. In S3 mode the URL is the store's presigned one: s3-storage-mode.test.ts.
  server = await startTestServer({ env: { KIKITORI_MAX_UPLOAD_BYTES: '100000' }, storage: 'files' });
  key = await server.key('acme');
});
afterAll(() => server.close());

const ticket = (body: Record<string, unknown>) => server.api(key, 'POST', '/api/v1/transcriptions/upload', body);

describe('upload request validation', () => {
  it.each([
    [{}, 'filename', 'filename'],
    [{ filename: '' }, 'filename', 'filename'],
    [{ filename: 'a.wav', language: 'english' }, 'language', 'language'],
    [{ filename: 'a.wav', language: 'qq' }, 'ISO 639-1', 'language'],
    [{ filename: 'a.wav', language: ['en', 'zz'] }, 'zz', 'language.1'],
    [{ filename: 'a.wav', language: ['en', 'english'] }, 'language', 'language.1'],
    [{ filename: 'a.wav', language: 5 }, 'language', 'language'],
    [{ filename: 'a.wav', transcription_model: 'turbo' }, 'transcription_model', 'transcription_model'],
    [{ filename: 'a.wav', num_speakers: '0' }, 'num_speakers', 'num_speakers'],
    [{ filename: 'a.wav', num_speakers: -2 }, 'num_speakers', 'num_speakers'],
    [{ filename: 'a.wav', num_speakers: 'two' }, 'num_speakers', 'num_speakers'],
    [{ filename: 'a.wav', num_speakers: 100 }, 'num_speakers', 'num_speakers'],
    [{ filename: 'a.wav', max_speakers: 1.5 }, 'max_speakers', 'max_speakers'],
    [{ filename: 'a.wav', min_speakers: '3', max_speakers: 2 }, 'min_speakers', 'min_speakers'],
    [{ filename: 'a.wav', num_speakers: 5, max_speakers: '3' }, 'num_speakers', 'num_speakers'],
    [{ filename: 'a.wav', words: [{ reading: 'no word' }] }, 'word', 'words.0.word'],
    [{ filename: 'a.wav', words: [{ word: 'a' }, { word: 'b', reading: 5 }] }, 'reading', 'words.1.reading'],
    [{ filename: 'a.wav', words: [{ word: 'a' }, { word: 'b', reading: 'b/c!' }] }, 'pronounced', 'words.1.reading'],
    [{ filename: 'a.wav', unknown_field: 1 }, 'unknown_field', 'unknown_field'],
  ])('answers 400 for %j, naming %s, with field %s', async (body, mention, field) => {
    const response = await ticket(body);
    expect(response.status).toBe(400);
    expect(response.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(response.json.error_message).toContain(mention);
    expect(response.json.field).toBe(field);
  });

  it('answers 404 for a dictionary_id not in the team', async () => {
    const response = await ticket({ filename: 'a.wav', dictionary_id: 'nope' });
    expect(response.status).toBe(404);
    expect(response.json.error_code).toBe(ErrorCode.DICTIONARY_NOT_FOUND);
  });

  it('refuses a language the configured engine cannot recognise, saying by name what to do', async () => {
    const response = await ticket({ filename: 'a.wav', language: 'ja' });
    expect(response.status).toBe(400);
    expect(response.json.error_code).toBe(ErrorCode.UNSUPPORTED_LANGUAGE);
    expect(response.json.error_message).toBe(
      'Japanese needs a speech model that knows Japanese: install one on the server (kikitori-server models download base), then try again.',
    );
    expect(response.json.error_message).not.toMatch(/pocketsphinx/);
    expect(response.json.field).toBe('language');
  });

  it('accepts speaker counts as strings or integers', async () => {
    const response = await ticket({
      filename: 'a.wav',
      num_speakers: '2',
      min_speakers: 1,
      max_speakers: '3',
      transcription_model: 'diarization-high',
    });
    expect(response.status).toBe(200);
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${response.json.transcription_id}`);
    expect(record.json).toMatchObject({
      num_speakers: 2,
      min_speakers: 1,
      max_speakers: 3,
      requested_model: 'diarization-high',
    });
  });

  it('refuses speaker separation when no speaker engine is configured', async () => {
    const plain = await startTestServer({ env: { KIKITORI_SPEAKER_ENGINE: 'none' } });
    try {
      const k = await plain.key('acme');
      const response = await plain.api(k, 'POST', '/api/v1/transcriptions/upload', {
        filename: 'a.wav',
        num_speakers: 2,
      });
      expect(response.status).toBe(400);
      expect(response.json.error_code).toBe(ErrorCode.UNSUPPORTED_OPTION);
      expect(response.json.error_message).toMatch(/KIKITORI_SPEAKER_ENGINE/);
      expect(response.json.field).toBe('num_speakers');
    } finally {
      await plain.close();
    }
  });
});

describe('upload ticket', () => {
  it('creates a transcription waiting for audio, with a signed upload URL on this server', async () => {
    const response = await ticket({ filename: 'meeting.wav', language: 'en' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ team_id: 'acme', transcription_model: 'default', dictionary_id: null });
    expect(
      response.json.audio_upload_url.startsWith(`${server.url}/files/upload/${response.json.transcription_id}?`),
    ).toBe(true);
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${response.json.transcription_id}`);
    expect(record.json).toMatchObject({
      status: 'IN_PROGRESS',
      upload_status: 'PENDING',
      name: 'meeting.wav',
      audio_path: null,
      transcription_path: null,
      user: { user_id: 'alice', name: 'alice name' },
      transcription_model: 'default',
    });
  });

  it('turns upload words into a temporary dictionary named by the ticket', async () => {
    const response = await ticket({ filename: 'w.wav', words: [{ word: 'Zintrix', reading: 'zin tricks' }] });
    expect(response.status).toBe(200);
    const dictionary = await server.api(key, 'GET', `/api/v1/dictionaries/${response.json.dictionary_id}`);
    expect(dictionary.json).toMatchObject({ is_temporary: true, words: [{ word: 'Zintrix', reading: 'zin tricks' }] });
  });

  it('lists transcriptions team-wide with user and transcription_model', async () => {
    const other = await server.key('acme', 'dave');
    const mine = await ticket({ filename: 'mine.wav' });
    const theirs = await server.api(other, 'POST', '/api/v1/transcriptions/upload', { filename: 'theirs.wav' });
    const list = await server.api(key, 'GET', '/api/v1/transcriptions');
    const byId = new Map(list.json.map((t: any) => [t.transcription_id, t]));
    expect(byId.get(mine.json.transcription_id)).toMatchObject({
      user: { user_id: 'alice' },
      transcription_model: 'default',
    });
    expect(byId.get(theirs.json.transcription_id)).toMatchObject({ user: { user_id: 'dave', name: 'dave name' } });
    expect(list.json[0].transcription_id).toBe(theirs.json.transcription_id);
  });
});

describe('list freshness', () => {
  it('shows every change at once, even when pages are served from cache', async () => {
    const before = await server.api(key, 'GET', '/api/v1/transcriptions');
    const again = await server.api(key, 'GET', '/api/v1/transcriptions');
    expect(again.text).toBe(before.text);
    const created = await ticket({ filename: 'fresh.wav' });
    const after = await server.api(key, 'GET', '/api/v1/transcriptions');
    expect(after.json[0]).toMatchObject({ transcription_id: created.json.transcription_id, upload_status: 'PENDING' });
    await fetch(created.json.audio_upload_url, { method: 'PUT', body: bytes });
    const uploaded = await server.api(key, 'GET', '/api/v1/transcriptions');
    expect(uploaded.json[0]).toMatchObject({
      transcription_id: created.json.transcription_id,
      upload_status: 'COMPLETED',
    });
    expect(uploaded.json[0].audio_path).toContain('/files/audio/');
  });

  it('shows a change that another process made (a worker, say), although the page was served from cache', async () => {
    const created = await ticket({ filename: 'before.wav' });
    const id = created.json.transcription_id;
    for (let i = 0; i < 2; i++)
      expect((await server.api(key, 'GET', '/api/v1/transcriptions')).json[0]).toMatchObject({
        transcription_id: id,
        name: 'before.wav',
      });
    const other = await otherConnection(server);
    try {
      await other.run('UPDATE transcriptions SET name = ? WHERE transcription_id = ?', ['after.wav', id]);
    } finally {
      await other.close();
    }
    const first = async () => (await server.api(key, 'GET', '/api/v1/transcriptions')).json[0];
    // Seen within milliseconds: SQLite rereads data_version every 5 ms, PostgreSQL's NOTIFY arrives (decision 0039).
    await expect.poll(first, { interval: 20 }).toMatchObject({ transcription_id: id, name: 'after.wav' });
  });
});

describe('signed upload URL', () => {
  it('stores the raw PUT body, then refuses reuse', async () => {
    const { json } = await ticket({ filename: 'clip.wav' });
    const put = await fetch(json.audio_upload_url, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'audio/wav' },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ size: bytes.length, upload_status: 'COMPLETED' });
    const stored = await storedAudioPath(server, json.transcription_id);
    expect(fs.readFileSync(stored).equals(bytes)).toBe(true);

    const again = await fetch(json.audio_upload_url, { method: 'PUT', body: Buffer.from('other') });
    expect(again.status).toBe(409);
    expect((await again.json()).error_code).toBe(ErrorCode.UPLOAD_ALREADY_COMPLETED);
    expect(fs.readFileSync(stored).equals(bytes)).toBe(true);
  });

  it('refuses forged URLs: a changed id, signature or expiry', async () => {
    const { json } = await ticket({ filename: 'f.wav' });
    const other = await ticket({ filename: 'g.wav' });
    const url = new URL(json.audio_upload_url);
    const forgedId = json.audio_upload_url.replace(json.transcription_id, other.json.transcription_id);
    const forgedSig = new URL(url);
    forgedSig.searchParams.set('signature', 'A'.repeat(22));
    const forgedExpiry = new URL(url);
    forgedExpiry.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const unsigned = `${url.origin}${url.pathname}`;
    for (const target of [forgedId, forgedSig.toString(), forgedExpiry.toString(), unsigned]) {
      const response = await fetch(target, { method: 'PUT', body: bytes });
      expect(response.status, target).toBe(403);
      expect((await response.json()).error_code).toBe(ErrorCode.INVALID_SIGNATURE);
    }
  });

  it('refuses an expired URL', async () => {
    const { json } = await ticket({ filename: 'late.wav' });
    const past = new UrlSigner(loadSigningSecret(server.dataDir), () => Date.now() - 7200_000);
    const expired = server.url + past.sign('upload', json.transcription_id, 60).path;
    const response = await fetch(expired, { method: 'PUT', body: bytes });
    expect(response.status).toBe(403);
    expect((await response.json()).error_code).toBe(ErrorCode.EXPIRED_SIGNATURE);
  });

  it('answers 413 for a file over the limit, declared or streamed, and stores nothing', async () => {
    const { json } = await ticket({ filename: 'big.wav' });
    const declared = await fetch(json.audio_upload_url, { method: 'PUT', body: Buffer.alloc(100_001) });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error_code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);

    const chunks = async function* () {
      for (let i = 0; i < 30; i++) yield Buffer.alloc(10_000, i);
    };
    const streamed = await fetch(json.audio_upload_url, {
      method: 'PUT',
      body: ReadableStreamFromIterable(chunks()),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${json.transcription_id}`);
    expect(record.json.upload_status).toBe('PENDING');
    // The URL still works for a file within the limit: nothing was lost, nothing half-stored.
    const retry = await fetch(json.audio_upload_url, { method: 'PUT', body: bytes });
    expect(retry.status).toBe(200);
  });
});

describe('audio_path', () => {
  it('serves the audio with Range support and the right Content-Type', async () => {
    const { json } = await ticket({ filename: 'song.mp3' });
    await fetch(json.audio_upload_url, { method: 'PUT', body: bytes });
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${json.transcription_id}`);
    const audioPath = record.json.audio_path as string;
    expect(audioPath).toContain('/files/audio/');

    const full = await fetch(audioPath);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('audio/mpeg');
    expect(full.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await fetch(audioPath, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);

    const suffix = await fetch(audioPath, { headers: { range: 'bytes=-5' } });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true);

    const outside = await fetch(audioPath, { headers: { range: 'bytes=999999-' } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect((await outside.json()).error_code).toBe(ErrorCode.RANGE_NOT_SATISFIABLE);

    const forged = await fetch(audioPath.replace(/signature=[^&]+/, 'signature=x'));
    expect(forged.status).toBe(403);
  });
});

describe('tickets never uploaded', () => {
  it('become CANCELLED once the upload URL expires, and their temporary dictionary goes', async () => {
    const shortLived = await startTestServer({ env: { KIKITORI_UPLOAD_URL_TTL: '1' } });
    try {
      const k = await shortLived.key('acme');
      const response = await shortLived.api(k, 'POST', '/api/v1/transcriptions/upload', {
        filename: 'x.wav',
        words: [{ word: 'temp' }],
      });
      const cancelled = await waitForStatus(shortLived, k, response.json.transcription_id, ['CANCELLED']);
      expect(cancelled.json.failure_reason).toMatch(/never uploaded/);
      expect(cancelled.json.failure_code).toBe('upload-expired');
      expect((await shortLived.api(k, 'GET', `/api/v1/dictionaries/${response.json.dictionary_id}`)).status).toBe(404);
      const transcribe = await shortLived.api(
        k,
        'POST',
        `/api/v1/transcriptions/${response.json.transcription_id}/transcribe`,
      );
      expect(transcribe.status).toBe(409);
    } finally {
      await shortLived.close();
    }
  });
});

function ReadableStreamFromIterable(iterable: AsyncIterable<Buffer>): ReadableStream<Uint8Array> {
  const iterator = iterable[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(new Uint8Array(value));
    },
  });
}
