// The dictionary service's refusal of a word already in the dictionary (decision 0102), against a loopback
// server that speaks the dictionary routes and, like kikitori-server, accepts duplicates: the boundary
// this test is not about. The real server is driven end to end in test/e2e/dictionary-form.spec.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { openCacheStore } from '../../../../src-main/cache/cache-store.js';
import { DictionaryService, sameWordKey } from '../../../../src-main/dictionaries/dictionary-service.js';
import { clientOf } from '../main-test-support.js';

interface StoredWord {
  word_id: string;
  dictionary_id: string;
  word: string;
  reading: string | null;
  created_at: string;
  updated_at: string;
}

/** One dictionary `d1` holding `words`; records every request line. */
async function dictionaryServer(words: Array<{ word: string; reading?: string }>) {
  const at = '2026-01-01T00:00:00.000Z';
  const stored: StoredWord[] = [];
  const add = (entry: { word: string; reading?: string }) =>
    stored.push({
      word_id: `w${stored.length + 1}`,
      dictionary_id: 'd1',
      word: entry.word,
      reading: entry.reading ?? null,
      created_at: at,
      updated_at: at,
    });
  words.forEach(add);
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'GET' && req.url === '/api/v1/dictionaries/d1')
        return send(200, {
          dictionary_id: 'd1',
          team_id: 't1',
          name: 'Names',
          words: stored,
          blacklist_words: [],
          is_temporary: false,
          created_at: at,
          updated_at: at,
        });
      if (req.method === 'POST' && req.url === '/api/v1/dictionaries/d1/words/bulk') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{ word: string; reading?: string }>;
        const before = stored.length;
        body.forEach(add);
        return send(200, stored.slice(before));
      }
      send(404, { error_id: 'e1', error_code: 1004, error_message: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url, stored, requests };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

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
    const server = await dictionaryServer([{ word: 'Kikitori', reading: 'key key tory' }, { word: 'ＡＢＣ' }]);
    const service = new DictionaryService(openCacheStore(':memory:'), clientOf(server, 'key'));

    const same = await refusal(service.addWords('d1', [{ word: '  kikitori ', reading: 'Key Key Tory' }]));
    expect(same.error).toEqual({
      code: 'conflict',
      reason: 'app.word-already-in-dictionary',
      params: { word: 'Kikitori' },
      field: 'words.0.word',
    });
    // NFKC: full-width ＡＢＣ is abc; no reading on either side.
    const wide = await refusal(service.addWords('d1', [{ word: 'Zintrix' }, { word: 'abc' }]));
    expect(wide.error).toMatchObject({ params: { word: 'ＡＢＣ' }, field: 'words.1.word' });

    expect(server.requests.filter((line) => line.startsWith('POST'))).toEqual([]);
    expect(server.stored.map((w) => w.word)).toEqual(['Kikitori', 'ＡＢＣ']);
  });

  it('adds the same word with another reading, or with none: another pronunciation', async () => {
    const server = await dictionaryServer([{ word: 'Kikitori', reading: 'key key tory' }]);
    const service = new DictionaryService(openCacheStore(':memory:'), clientOf(server, 'key'));
    const detail = await service.addWords('d1', [{ word: 'Kikitori', reading: 'kiki tori' }, { word: 'Kikitori' }]);
    expect(detail.words.map((w) => [w.word, w.reading ?? null])).toEqual([
      ['Kikitori', 'key key tory'],
      ['Kikitori', 'kiki tori'],
      ['Kikitori', null],
    ]);
  });

  it('refuses a reading nothing can sound out under its field, in its own words, and sends nothing', async () => {
    const server = await dictionaryServer([]);
    const service = new DictionaryService(openCacheStore(':memory:'), clientOf(server, 'key'));
    const refused = await refusal(service.addWords('d1', [{ word: 'Zintrix', reading: 'ｘｘ@@##' }]));
    expect(refused.error).toEqual({
      code: 'validation',
      reason: 'app.reading-unpronounceable',
      field: 'words.0.reading',
    });
    expect(server.requests).toEqual([]);
  });

  it('refuses a word twice in one request, naming the second', async () => {
    const server = await dictionaryServer([]);
    const service = new DictionaryService(openCacheStore(':memory:'), clientOf(server, 'key'));
    const twice = await refusal(service.addWords('d1', [{ word: 'Zintrix' }, { word: 'ZINTRIX ' }]));
    expect(twice.error).toMatchObject({ reason: 'app.word-already-in-dictionary', field: 'words.1.word' });
    expect(server.stored).toEqual([]);
  });

  it('checks against the server’s words, not the copy on this computer', async () => {
    const server = await dictionaryServer([]);
    const service = new DictionaryService(openCacheStore(':memory:'), clientOf(server, 'key'));
    await service.get('d1');
    // Another client adds the word meanwhile.
    const at = '2026-01-02T00:00:00.000Z';
    server.stored.push({
      word_id: 'other',
      dictionary_id: 'd1',
      word: 'Zintrix',
      reading: null,
      created_at: at,
      updated_at: at,
    });
    const refused = await refusal(service.addWords('d1', [{ word: 'zintrix' }]));
    expect(refused.error.reason).toBe('app.word-already-in-dictionary');
  });
});

describe('sameWordKey', () => {
  it('folds case, width and surrounding spaces of word and reading; an absent reading is an empty one', () => {
    expect(sameWordKey({ word: ' Ｋｉｋｉｔｏｒｉ ', reading: 'ｷｷﾄﾘ' })).toBe(
      sameWordKey({ word: 'kikitori', reading: 'キキトリ' }),
    );
    expect(sameWordKey({ word: 'Kikitori', reading: null })).toBe(sameWordKey({ word: 'kikitori', reading: '  ' }));
    expect(sameWordKey({ word: 'Kikitori', reading: 'a' })).not.toBe(sameWordKey({ word: 'Kikitori', reading: 'b' }));
  });
});
