// A remote server that answers a transcription whose id is "../../evil" (and whose file name climbs
// too) must not make main write, read or delete anything outside its cache folders (issue 11).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../src-main/app-failure.js';
import { ProfileSession } from '../../../src-main/profile-session.js';
import { tempDir } from '../../support/temp-dir.js';
import { eventRecorder, until } from './main-test-support.js';

const EVIL = '../../evil';

function hostileRecord(url: string) {
  const now = new Date().toISOString();
  return {
    transcription_id: EVIL,
    dictionary_id: null,
    team_id: 'team',
    name: '../../evil.wav',
    user: { user_id: 'u', name: 'Mallory' },
    transcription_path: null,
    audio_path: `${url}/audio/evil?expires=${Math.floor(Date.now() / 1000) + 3600}`,
    transcription_model: 'default',
    requested_model: 'default',
    status: 'FAILED',
    speaking_duration: null,
    created_at: now,
    updated_at: now,
    language: ['en'],
    upload_status: 'COMPLETED',
    upload_expires_at: now,
    progress: null,
    duration: 1,
    failure_reason: 'hostile',
    engine: null,
    num_speakers: null,
    min_speakers: null,
    max_speakers: null,
  };
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile());
}

describe('a hostile server', () => {
  const base = tempDir('kikitori-hostile-');
  // As services.ts lays it out: <userData>/profiles/<profile>/{cache.sqlite,audio,peaks}.
  const profileDir = path.join(base, 'user-data', 'profiles', 'remote');
  const audioDir = path.join(profileDir, 'audio');
  // Where "../../evil.wav" would land from the audio folder, and a file there main must leave alone.
  const victim = path.resolve(audioDir, `${EVIL}.wav`);
  const requests: string[] = [];
  let server: http.Server;
  let session: ProfileSession;

  beforeAll(async () => {
    fs.mkdirSync(path.dirname(victim), { recursive: true });
    fs.writeFileSync(victim, 'precious');
    server = http.createServer((request, response) => {
      requests.push(request.url ?? '');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const parsed = new URL(request.url ?? '/', url);
      const pathname = decodeURIComponent(parsed.pathname);
      const json = (body: unknown) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (pathname === '/api/v1/transcriptions')
        return json((parsed.searchParams.get('page') ?? '1') === '1' ? [hostileRecord(url)] : []);
      if (pathname === `/api/v1/transcriptions/${EVIL}`) return json(hostileRecord(url));
      if (pathname === '/audio/evil') {
        response.writeHead(200, { 'content-type': 'audio/wav' });
        return response.end(Buffer.alloc(4096, 1));
      }
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error_id: 'x', error_code: 4040, error_message: 'no such route' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fs.mkdirSync(profileDir, { recursive: true });
    session = new ProfileSession({
      profile: { id: 'remote', kind: 'remote', name: 'Hostile', baseUrl: url },
      dir: profileDir,
      connection: () => ({ baseUrl: url, apiKey: 'key' }),
      emit: eventRecorder().emit,
      notify: () => {},
      syncIntervals: { minMs: 50, maxMs: 200, offlineMaxMs: 200 },
      retry: { retries: 0, baseDelayMs: 10, maxDelayMs: 20 },
    });
    session.start();
  });
  afterAll(async () => {
    await session?.stop();
    await new Promise((resolve) => server?.close(resolve));
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('lists the transcription, but refuses to turn its id into a cache path', async () => {
    await until(() => session.transcripts.list({}).items.some((t) => t.id === EVIL));

    const download = session.transcripts.ensureLocalAudio(EVIL);
    await expect(download).rejects.toBeInstanceOf(AppFailure);
    await expect(download).rejects.toMatchObject({ code: 'server' });

    const source = path.join(base, 'mine.wav');
    fs.writeFileSync(source, 'RIFF');
    await expect(session.transcripts.keepUploadedAudio(EVIL, source)).rejects.toMatchObject({ code: 'server' });
    await expect(session.peaks.get(EVIL, source)).rejects.toMatchObject({ code: 'server' });

    expect(requests.some((r) => r.startsWith('/audio/'))).toBe(false);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    // Nothing outside the profile folder but the victim and the test's own file; nothing named evil inside it.
    expect(
      filesUnder(base)
        .filter((f) => !f.startsWith(profileDir + path.sep))
        .sort(),
    ).toEqual([source, victim].sort());
    expect(filesUnder(profileDir).filter((f) => /evil/.test(f))).toEqual([]);
  });

  it('neither serves nor deletes a cached file recorded outside the audio folder', async () => {
    // As an older version could have recorded it.
    session.store.audio.put({
      transcriptionId: EVIL,
      file: victim,
      size: 8,
      contentType: 'audio/wav',
      source: 'download',
    });
    expect(session.transcripts.localAudio(EVIL)).toBeNull();

    session.store.audio.put({
      transcriptionId: EVIL,
      file: victim,
      size: 8,
      contentType: 'audio/wav',
      source: 'download',
    });
    await session.transcripts.forget(EVIL);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
  });
});
