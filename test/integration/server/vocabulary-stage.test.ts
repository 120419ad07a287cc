// The vocabulary stage over real HTTP (decision 0058): real festival speech through ffmpeg and
// pocketsphinx, a team dictionary with a hard name spelt unlike it sounds ("Krawitzki", said "Kravitsky").
// pocketsphinx, even with the name in its vocabulary model (from its reading and, since decision 0096, its
// spelling too), hears it as "kravitz he"; the stage finds the name by its sound (its reading), and the
// document marks the rewritten word with what the engine heard. (With "Kravitsky" spelt as said, the
// spelling's pronunciation now lets the engine write the name itself.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startTestServer, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme', 'alice');
});
afterAll(() => server.close());

describe('vocabulary stage', () => {
  it('recovers a hard name the engine misheard and marks what it heard', async () => {
    const wav = await synthesizeSpeech('Kravitsky asked for a copy of the invoice.');
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', {
      name: 'Team names',
      words: [{ word: 'Krawitzki', reading: 'kruh vit ski' }],
    });
    expect(dictionary.status).toBe(200);
    const ticket = await uploadFile(server, key, wav, {
      dictionary_id: dictionary.json.dictionary_id,
      language: 'en',
    });
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`)).status).toBe(
      200,
    );
    const completed = (await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED'])).json;
    expect(completed.failure_reason).toBeNull();
    const document = (await (await fetch(completed.transcription_path)).json()) as TranscriptDocument;

    expect(document.text).toMatch(/^Krawitzki asked for a copy of the invoice$/i);
    const words = document.segments.flatMap((s) => s.words);
    const name = words.find((w) => w.word === 'Krawitzki')!;
    expect(name.replaced).toEqual({ pattern: 'Krawitzki', original: expect.any(String), source: 'vocabulary' });
    expect(name.replaced!.original).not.toMatch(/krawitzki/i);
    // The word keeps the time of what was heard: it starts the utterance and ends before "asked".
    const asked = words.find((w) => w.word === 'asked')!;
    expect(name.start).toBeLessThan(asked.start);
    expect(name.end).toBeLessThanOrEqual(asked.start + 0.05);
    expect(name.end).toBeGreaterThan(name.start + 0.2);
    // Nothing else was rewritten, and no forced replacement is claimed for it.
    expect(words.filter((w) => w.replaced)).toHaveLength(1);
    expect(document.replacements).toEqual([]);
  });
});
