// A dictionary word's English "sounds like" reading (the style the app's placeholder suggests: "zin
// tricks") over real HTTP, real festival speech and pocketsphinx: the reading must help the name, or at
// least not hurt it, compared with the same dictionary without readings (the server sounding the words
// out itself). The spelling's pronunciation stays beside the reading's (decision 0096).
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

async function transcribe(wav: string, words: { word: string; reading?: string }[]): Promise<string> {
  const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', { name: `Names ${Math.random()}`, words });
  expect(dictionary.status).toBe(200);
  const ticket = await uploadFile(server, key, wav, { dictionary_id: dictionary.json.dictionary_id, language: 'en' });
  expect((await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`)).status).toBe(
    200,
  );
  const completed = (await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED'])).json;
  expect(completed.failure_reason).toBeNull();
  return ((await (await fetch(completed.transcription_path)).json()) as TranscriptDocument).text;
}

describe('dictionary readings', () => {
  it('an English "sounds like" reading keeps the name found without one', async () => {
    const wav = await synthesizeSpeech('Please ask Kikitori about the new office in Osaka.');
    const plain = await transcribe(wav, [{ word: 'Kikitori' }, { word: 'Takahashi' }]);
    const withReadings = await transcribe(wav, [
      { word: 'Kikitori', reading: 'key key tory' },
      { word: 'Takahashi', reading: 'taka hashi' },
    ]);
    expect(plain).toMatch(/^please ask Kikitori about the new office in osaka$/i);
    // Before decision 0096 the reading replaced the spelling's pronunciation: "please ask get cut your abe
    // out the new office in osaka".
    expect(withReadings).toMatch(/^please ask Kikitori about the new office in osaka$/i);
  });
});
