// A server told to drain while a live session saves (decision 0063): live sessions end first, so the
// session's audio is stored and its transcription queued while the queue still takes jobs; then the queue
// stops. On PostgreSQL the queue (pg-boss) takes no job once stopped, so the order is what keeps the
// recording from being left stored but never transcribed.
import fsp from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { pcmOf, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { realtimeClient } from '../../support/realtime-client.js';
import { startTestServer, tempDir, testDatabaseEnv, testStorageEnv, waitForStatus } from '../../support/test-server.js';

describe('a server that drains while a live session saves', () => {
  it('ends live sessions before it stops taking jobs: the saved session runs to COMPLETED after a restart', async () => {
    const speech = await fsp.readFile(await pcmOf(await synthesizeSpeech('the budget meeting moved to next week')));
    const dataDir = tempDir();
    // The restarted server opens the same database and bucket.
    const env = { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx', ...(await testDatabaseEnv()), ...(await testStorageEnv()) };
    const first = await startTestServer({ dataDir, env });
    const key = await first.key('acme');
    const { inbox, send } = realtimeClient(first.url, { 'x-api-key': key });
    const next = (type: string) => inbox.ofType(type);
    await next('session.created');
    send({
      type: 'session.update',
      session: { type: 'transcription', save: true, audio: { input: { format: { type: 'audio/pcm', rate: 16000 } } } },
    });
    const id = (await next('session.updated')).session.transcription_id as string;
    const silence = Buffer.alloc(16000 * 2);
    send({ type: 'input_audio_buffer.append', audio: Buffer.concat([speech, silence]).toString('base64') });
    await next('conversation.item.input_audio_transcription.completed');
    // No grace: the queue stops at once, so the transcription can only run later if it was queued before.
    await first.runtime.drain(0);
    expect((await next('error')).error).toMatchObject({ code: 'server_shutting_down' });
    const second = await startTestServer({ dataDir, env });
    try {
      const done = await waitForStatus(second, key, id, ['COMPLETED', 'FAILED']);
      expect(done.json.status).toBe('COMPLETED');
      const document = (await (await fetch(done.json.transcription_path as string)).json()) as { text: string };
      expect(document.text).toMatch(/budget/);
    } finally {
      await second.close();
    }
  });
});
