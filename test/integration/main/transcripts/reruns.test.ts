// Re-runs (decision 0020) over real HTTP, a real cache database and real speech: "diarization-high" is
// served by a remote speech service that refuses the audio, so transcriptions made with it FAIL on
// the server; "default" is the built-in recognizer, so the same audio transcribed again COMPLETES.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/error-codes.js';
import type { UploadJob, UploadOptions } from '../../../../src-shared/ipc-contract.js';
import { validateRequest } from '../../../../src-main/ipc/request-validator.js';
import { ProfileSession } from '../../../../src-main/profile-session.js';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../../support/test-server.js';
import { copyAs, eventRecorder, shortSpeech, until } from '../main-test-support.js';

const FAILING: UploadOptions = {
  language: 'en',
  model: 'diarization-high',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};
const WORKING: UploadOptions = { ...FAILING, model: 'default', numSpeakers: 1 };

/** An OpenAI-compatible speech service that refuses every request as a bad one (HTTP 400). */
async function startRefusingSpeechService() {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"Invalid file format."}}'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A server without decision 0062's extension, as older ones are: the real server behind a proxy that answers
 * `/transcribe` with a body as they do (409 TRANSCRIPTION_ALREADY_ENDED), so the app takes the upload path.
 */
async function startOlderServerProxy(target: string) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && /\/transcribe$/.test(req.url ?? '') && body.length > 0) {
        res.writeHead(409, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error_id: 'older-server',
            error_code: ErrorCode.TRANSCRIPTION_ALREADY_ENDED,
            error_message: 'Transcription has already ended; request a new upload to transcribe again.',
          }),
        );
        return;
      }
      const url = new URL(req.url ?? '/', target);
      const forward = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A server whose high-accuracy model always fails, a key, the test speech, and a session of the app on it. */
async function startTeam(dir: string, events: ReturnType<typeof eventRecorder>, olderServer: boolean) {
  const speechService = await startRefusingSpeechService();
  const server = await startTestServer({
    env: {
      KIKITORI_ENGINE_DEFAULT: 'pocketsphinx',
      KIKITORI_ENGINE_DIARIZATION_HIGH: 'remote',
      KIKITORI_REMOTE_ASR_BASE_URL: speechService.baseUrl,
      KIKITORI_REMOTE_ASR_API_KEY: 'sk-test',
    },
  });
  const older = olderServer ? await startOlderServerProxy(server.url) : null;
  const baseUrl = older?.url ?? server.url;
  const key = await server.key('team', 'alice', ['DELETE']);
  const speech = copyAs(await shortSpeech(), dir, 'weekly call.wav');
  const session = new ProfileSession({
    profile: { id: 'team', name: 'Team', kind: 'remote', baseUrl },
    dir: path.join(dir, 'profile'),
    connection: () => ({ baseUrl, apiKey: key }),
    emit: events.emit,
    notify: () => {},
    syncIntervals: { minMs: 50, maxMs: 200, offlineMaxMs: 200 },
    retry: { retries: 1, baseDelayMs: 20, maxDelayMs: 50 },
  });
  session.start();
  const close = async () => {
    await session.stop();
    await older?.close();
    await server.close();
    await speechService.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { server, key, speech, session, close };
}

describe('transcribing again on a server that cannot do it in place (decision 0020)', () => {
  const dir = tempDir('kikitori-reruns-');
  const events = eventRecorder();
  let server: TestServer;
  let key: string;
  let session: ProfileSession;
  let speech: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ server, key, speech, session, close } = await startTeam(dir, events, true));
  });
  afterAll(() => close?.());

  const status = (id: string) => session.store.transcriptions.get(id)?.status;
  const finished = (id: string) =>
    until(() => ['COMPLETED', 'FAILED'].includes(status(id) ?? '') && session.store.transcriptions.get(id)!);
  const uploaded = async (jobId: string) =>
    await events.next('uploads:changed', (j) => j.id === jobId && (j.state === 'done' || j.state === 'failed'));

  it('re-runs a FAILED transcription from its cached audio with other options: the new one COMPLETES, the failed one goes, the audio stays', async () => {
    const [job] = await session.uploads.add([speech], FAILING);
    const failedId = (await uploaded(job!.id)).transcriptionId!;
    const failed = await finished(failedId);
    expect(failed.status).toBe('FAILED');
    expect(failed.failureReason).toMatch(/remote speech service refused/);
    const cachedBytes = fs.statSync(session.transcripts.localAudio(failedId)!).size;
    expect(cachedBytes).toBe(fs.statSync(speech).size);

    // What "Transcribe again with other options…" starts from: the options chosen at upload.
    expect(await session.reruns.plan(failedId)).toEqual({ options: FAILING, optionsKnown: true, audioCached: true });

    // The file the user picked has moved away since: the cached copy is what is uploaded again.
    fs.renameSync(speech, `${speech}.moved`);
    try {
      // Pressed twice: one new upload.
      const [rerun, again] = (await Promise.all([
        session.reruns.rerun(failedId, { options: WORKING }),
        session.reruns.rerun(failedId, { options: WORKING }),
      ])) as [UploadJob, UploadJob];
      expect(again.id).toBe(rerun.id);
      expect(rerun).toMatchObject({ fileName: 'weekly call.wav', state: expect.stringMatching(/queued|uploading/) });
      const newId = (await uploaded(rerun.id)).transcriptionId!;
      expect(newId).not.toBe(failedId);

      const done = await finished(newId);
      expect(done).toMatchObject({ status: 'COMPLETED', name: 'weekly call.wav', numSpeakers: 1 });
      expect((await server.api(key, 'GET', `/api/v1/transcriptions/${newId}`)).json).toMatchObject({
        requested_model: 'default',
      });
      const document = await session.transcripts.ensureDocument(newId);
      expect(document!.segments.length).toBeGreaterThan(0);

      // The failed one is gone, here and on the server; the recording is kept for the new one.
      await until(() => session.store.transcriptions.get(failedId) === null);
      expect(session.transcripts.list({}).items.map((t) => t.id)).toEqual([newId]);
      expect((await server.api(key, 'GET', `/api/v1/transcriptions/${failedId}`)).status).toBe(404);
      expect(session.transcripts.localAudio(failedId)).toBeNull();
      const kept = session.transcripts.localAudio(newId)!;
      expect(fs.statSync(kept).size).toBe(cachedBytes);
      expect(session.transcripts.list({}).items[0]).toMatchObject({ id: newId, audioCached: true });
    } finally {
      fs.renameSync(`${speech}.moved`, speech);
    }
  });

  it('tries again with the same options when none are given, and a finished transcription is kept beside the new one', async () => {
    const [job] = await session.uploads.add([speech], { ...FAILING, model: 'default' });
    const id = (await uploaded(job!.id)).transcriptionId!;
    expect((await finished(id)).status).toBe('COMPLETED');
    const rerun = (await session.reruns.rerun(id, {}))!;
    const newId = (await uploaded(rerun.id)).transcriptionId!;
    expect(await finished(newId)).toMatchObject({ status: 'COMPLETED', numSpeakers: null });
    expect((await server.api(key, 'GET', `/api/v1/transcriptions/${newId}`)).json).toMatchObject({
      requested_model: 'default',
    });
    expect(session.store.transcriptions.get(id)?.status).toBe('COMPLETED');
    expect(session.transcripts.localAudio(id)).not.toBeNull();
  });

  it('says plainly when the recording is not on this computer, and transcribes a file chosen again in its place', async () => {
    // Uploaded from another computer: the server has it, this one never had its audio.
    const ticket = await uploadFile(server, key, speech, { transcription_model: 'diarization-high', language: 'en' });
    await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    await waitForStatus(server, key, ticket.transcription_id, ['FAILED']);
    const elsewhere = ticket.transcription_id;
    await session.sync.refreshNow();
    await until(() => status(elsewhere) === 'FAILED');

    const plan = await session.reruns.plan(elsewhere);
    expect(plan).toEqual({ options: { ...FAILING, language: 'en' }, optionsKnown: false, audioCached: false });
    const refusal = await session.reruns.rerun(elsewhere, { options: WORKING }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppFailure);
    expect((refusal as AppFailure).error).toEqual({
      code: 'not-found',
      field: 'audio',
      reason: 'app.rerun-needs-file',
      params: { name: path.basename(speech) },
    });
    expect(status(elsewhere)).toBe('FAILED');

    const chosen = copyAs(speech, dir, 'chosen again.wav');
    const rerun = (await session.reruns.rerun(elsewhere, { options: WORKING, path: chosen }))!;
    const newId = (await uploaded(rerun.id)).transcriptionId!;
    expect(await finished(newId)).toMatchObject({ status: 'COMPLETED', name: path.basename(speech) });
    await until(() => session.store.transcriptions.get(elsewhere) === null);
    expect(session.transcripts.localAudio(newId)).not.toBeNull();
  });

  it('refuses a file that is not a recording in the user’s terms, and keeps the failed transcription', async () => {
    const [job] = await session.uploads.add([speech], FAILING);
    const failedId = (await uploaded(job!.id)).transcriptionId!;
    expect((await finished(failedId)).status).toBe('FAILED');
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'meeting notes, not a recording\n');
    await expect(session.reruns.rerun(failedId, { options: WORKING, path: notes })).rejects.toMatchObject({
      code: 'validation',
      field: 'files',
      error: { reason: 'app.not-media-text' },
    });
    expect(status(failedId)).toBe('FAILED');
    expect(session.transcripts.localAudio(failedId)).not.toBeNull();

    // A new transcription that could not keep its copy of the audio (a full disk) replaces nothing.
    await session.reruns.replaced(failedId, 'new-without-audio');
    expect(status(failedId)).toBe('FAILED');
    expect((await server.api(key, 'GET', `/api/v1/transcriptions/${failedId}`)).json.status).toBe('FAILED');
    expect(fs.existsSync(session.transcripts.localAudio(failedId)!)).toBe(true);
  });

  it('validates the request like every other channel', () => {
    const refusal = (request: unknown) => {
      try {
        validateRequest('transcripts:rerun', request);
      } catch (error) {
        return (error as AppFailure).error;
      }
      return null;
    };
    expect(refusal({ id: 'x', options: { ...WORKING, minSpeakers: 3, maxSpeakers: 2 } })).toMatchObject({
      code: 'validation',
      field: 'options.minSpeakers',
    });
    expect(refusal({ id: 'x', extra: true })).toMatchObject({ code: 'validation', field: 'extra' });
    expect(refusal({ id: 'a/b' })).toMatchObject({ code: 'validation', field: 'id' });
    // The file chosen again is a handle main issued, never a path the page names.
    expect(refusal({ id: 'x', path: '/home/me/elsewhere.wav' })).toMatchObject({ code: 'validation', field: 'path' });
    expect(refusal({ id: 'x', file: '/home/me/elsewhere.wav' })).toMatchObject({ code: 'validation', field: 'file' });
    expect(refusal({ id: 'x', options: { ...WORKING, language: 'EN' } })).toBeNull();
    expect(
      validateRequest('transcripts:rerun', { id: 'x', options: { ...WORKING, language: 'EN' } }).options?.language,
    ).toBe('en');
  });
});

describe('transcribing again in place (decision 0062)', () => {
  const dir = tempDir('kikitori-reruns-in-place-');
  const events = eventRecorder();
  let server: TestServer;
  let key: string;
  let session: ProfileSession;
  let speech: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ server, key, speech, session, close } = await startTeam(dir, events, false));
  });
  afterAll(() => close?.());

  const status = (id: string) => session.store.transcriptions.get(id)?.status;
  const uploaded = async (jobId: string) =>
    await events.next('uploads:changed', (j) => j.id === jobId && (j.state === 'done' || j.state === 'failed'));
  const finished = (id: string) =>
    until(() => ['COMPLETED', 'FAILED'].includes(status(id) ?? '') && session.store.transcriptions.get(id)!);

  it('runs a FAILED transcription again on the server, with no new upload: the same row COMPLETES', async () => {
    const [job] = await session.uploads.add([speech], FAILING);
    const id = (await uploaded(job!.id)).transcriptionId!;
    expect((await finished(id)).status).toBe('FAILED');
    const uploadsBefore = session.uploads.list().length;

    expect(await session.reruns.rerun(id, { options: WORKING })).toBeNull();
    expect(session.uploads.list()).toHaveLength(uploadsBefore);
    await until(() => status(id) === 'COMPLETED' && session.store.transcriptions.get(id)!);
    expect(session.store.transcriptions.get(id)).toMatchObject({ status: 'COMPLETED', numSpeakers: 1 });
    expect(session.transcripts.list({}).items.map((t) => t.id)).toEqual([id]);
    const document = await session.transcripts.ensureDocument(id);
    expect(document!.segments.length).toBeGreaterThan(0);
    // The next "Transcribe again…" starts from the options it now runs with, not the upload's.
    expect((await session.reruns.plan(id)).options).toEqual(WORKING);
  });

  it('runs a FAILED transcription uploaded from another computer in place; asks for the file only once the server lost it', async () => {
    const ticket = await uploadFile(server, key, speech, { transcription_model: 'diarization-high', language: 'en' });
    const id = ticket.transcription_id;
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
    await waitForStatus(server, key, id, ['FAILED']);
    await session.sync.refreshNow();
    await until(() => status(id) === 'FAILED');
    expect((await session.reruns.plan(id)).audioCached).toBe(false);

    expect(await session.reruns.rerun(id, { options: WORKING })).toBeNull();
    await waitForStatus(server, key, id, ['COMPLETED']);

    // The server's copy is lost too (the storage boundary stands in for it): now the file is asked for.
    const record = await server.runtime.ctx.transcriptions.getById(id);
    await server.runtime.ctx.storage.delete(record!.audioKey!);
    await session.sync.refreshNow();
    await until(() => status(id) === 'COMPLETED');
    const refusal = await session.reruns.rerun(id, { options: WORKING }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppFailure);
    expect((refusal as AppFailure).error).toMatchObject({ code: 'not-found', field: 'audio' });
  });

  it('runs a finished transcription again in place, even with its audio not on this computer: a new revision', async () => {
    const ticket = await uploadFile(server, key, speech, { language: 'en' });
    const id = ticket.transcription_id;
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
    await waitForStatus(server, key, id, ['COMPLETED']);
    await session.sync.refreshNow();
    await until(() => status(id) === 'COMPLETED');
    expect(session.transcripts.localAudio(id)).toBeNull();

    expect(await session.reruns.rerun(id, { options: { ...WORKING, numSpeakers: 1 } })).toBeNull();
    await waitForStatus(server, key, id, ['COMPLETED']);
    const history = await server.api(key, 'GET', `/api/v1/transcriptions/${id}/revisions`);
    expect(history.json.revisions.map((r: { source: string }) => r.source)).toEqual([
      'recognized',
      'transcribed-again',
    ]);
    await session.sync.refreshNow();
    await until(() => session.store.transcriptions.get(id)?.numSpeakers === 1 && status(id) === 'COMPLETED');
  });
});
