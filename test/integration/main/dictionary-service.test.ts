// The dictionary service's refusals before anything is sent (decision 0102): a word already in the dictionary
// with the same reading, and a reading nothing can pronounce. Against a real kikitori-server, which itself
// accepts duplicates, so a duplicate the service let through would show in the dictionary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../src-main/app-failure.js';
import { openCacheStore } from '../../../src-main/cache/cache-store.js';
import { DictionaryService } from '../../../src-main/dictionaries/dictionary-service.js';
import type { ApiWordCreate } from '../../../src-shared/api-types.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { clientOf } from '../../unit/main/main-test-support.js';

let remote: TestServer;
let key: string;
beforeAll(async () => {
  remote = await startTestServer();
  key = await remote.key('team');
});
afterAll(async () => remote?.close());

/** A new dictionary holding `words`, the service over it, and what the server holds in it. */
async function dictionaryWith(words: ApiWordCreate[]) {
  const client = clientOf(remote, key);
  const { dictionary_id: id } = await client.createDictionary({ name: 'Names', words });
  const service = new DictionaryService(openCacheStore(':memory:'), client);
  const held = async () => (await client.getDictionary(id)).words.map((w) => [w.word, w.reading ?? null]);
  return { id, client, service, held };
}

async function refusal(run: Promise<unknown>): Promise<AppFailure> {
  const failure = await run.then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(AppFailure);
  return failure as AppFailure;
}

describe('DictionaryService.addWords', () => {
  it('refuses a word already in the dictionary with the same reading, whatever its case, width or spaces', async () => {
    const { id, service, held } = await dictionaryWith([
      { word: 'Kikitori', reading: 'key key tory' },
      { word: 'ＡＢＣ' },
    ]);

    const same = await refusal(service.addWords(id, [{ word: '  kikitori ', reading: 'Key Key Tory' }]));
    expect(same.error).toEqual({
      code: 'conflict',
      reason: 'app.word-already-in-dictionary',
      params: { word: 'Kikitori' },
      field: 'words.0.word',
    });
    // NFKC: full-width ＡＢＣ is abc; no reading on either side.
    const wide = await refusal(service.addWords(id, [{ word: 'Zintrix' }, { word: 'abc' }]));
    expect(wide.error).toMatchObject({ params: { word: 'ＡＢＣ' }, field: 'words.1.word' });

    // Nothing was sent: the server, which takes duplicates, still holds only the two.
    expect(await held()).toEqual([
      ['Kikitori', 'key key tory'],
      ['ＡＢＣ', null],
    ]);
  });

  it('adds the same word with another reading, or with none: another pronunciation', async () => {
    const { id, service } = await dictionaryWith([{ word: 'Kikitori', reading: 'key key tory' }]);
    const detail = await service.addWords(id, [{ word: 'Kikitori', reading: 'kiki tori' }, { word: 'Kikitori' }]);
    expect(detail.words.map((w) => [w.word, w.reading ?? null])).toEqual([
      ['Kikitori', 'key key tory'],
      ['Kikitori', 'kiki tori'],
      ['Kikitori', null],
    ]);
  });

  it('refuses a reading nothing can sound out under its field, in its own words, and sends nothing', async () => {
    const { id, service, held } = await dictionaryWith([]);
    const refused = await refusal(service.addWords(id, [{ word: 'Zintrix', reading: 'ｘｘ@@##' }]));
    // The app's own reason, not the server's validation error: main refused it before sending.
    expect(refused.error).toEqual({
      code: 'validation',
      reason: 'app.reading-unpronounceable',
      field: 'words.0.reading',
    });
    expect(await held()).toEqual([]);
  });

  it('refuses a word twice in one request, naming the second', async () => {
    const { id, service, held } = await dictionaryWith([]);
    const twice = await refusal(service.addWords(id, [{ word: 'Zintrix' }, { word: 'ZINTRIX ' }]));
    expect(twice.error).toMatchObject({ reason: 'app.word-already-in-dictionary', field: 'words.1.word' });
    expect(await held()).toEqual([]);
  });

  it('checks against the server’s words, not the copy on this computer', async () => {
    const { id, client, service } = await dictionaryWith([]);
    await service.get(id);
    // Another client adds the word meanwhile.
    await client.addWords(id, [{ word: 'Zintrix' }]);
    const refused = await refusal(service.addWords(id, [{ word: 'zintrix' }]));
    expect(refused.error.reason).toBe('app.word-already-in-dictionary');
  });
});
