// Deleted means gone from disk (issue 22, item 6): a transcription with a reviewed text is deleted over HTTP,
// and then no file under the server's data dir (the SQLite database, its -wal and -shm, stored audio and
// transcripts, work and upload dirs) holds a word of that text. Before, the WAL kept the reviewed text in the
// frames of earlier page versions, and freed pages kept their bytes (secure_delete was off).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startTestServer, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

// A word nothing else on the server contains, in a review of 1.6 MB: three versions of it are more than the
// 1,000 pages after which SQLite checkpoints the WAL into the database file, so both files hold it.
const WORD = 'Quokkamarmaladevortex';
const REVIEW = `Please send the ${WORD} report to the team by Friday. ${'The budget meeting moved to next week. '.repeat(41_000)}`;

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ storage: 'files' });
  key = await server.key('acme', 'alice', ['DELETE']);
});
afterAll(() => server.close());

/** Every file under `dir` that holds `word` (as UTF-8 bytes), however deep. */
function filesContaining(dir: string, word: string): string[] {
  const needle = Buffer.from(word, 'utf8');
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((entry) => path.join(dir, entry))
    .filter((file) => fs.statSync(file).isFile() && fs.readFileSync(file).includes(needle))
    .map((file) => path.relative(dir, file));
}

describe('deleting a transcription', () => {
  it('leaves no word of its review in any file of the data dir', async () => {
    const speech = await synthesizeSpeech('please send the report to the marketing team by friday');
    const { transcription_id: id } = await uploadFile(server, key, speech, { language: 'en' });
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`)).status).toBe(200);
    expect((await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json.status).toBe('COMPLETED');
    // Saved three times, as a reviewer does: the earlier versions' pages are freed or old by the time of the delete.
    for (const text of [REVIEW, `${REVIEW} Checked.`, `${REVIEW} Checked twice.`]) {
      expect(
        (await server.api(key, 'POST', `/api/v1/transcriptions/${id}/review`, { reviewed_text: text })).status,
      ).toBe(200);
    }
    // The scan finds it while it is there, in the database file too.
    expect(filesContaining(server.dataDir, WORD)).toContain('kikitori.sqlite');

    expect((await server.api(key, 'DELETE', `/api/v1/transcriptions/${id}`)).status).toBe(200);

    expect(filesContaining(server.dataDir, WORD)).toEqual([]);
  });
});
