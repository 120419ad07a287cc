import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../src-server/config.js';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { LIMITS } from '../../../src-shared/limits.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme');
});
afterAll(() => server.close());

const create = (body: unknown) => server.api(key, 'POST', '/api/v1/dictionaries', body);

describe('dictionaries', () => {
  it('creates with words, defaults is_temporary to false, and gets it back', async () => {
    const created = await create({
      name: 'Product names',
      words: [{ word: 'Zintrix', reading: 'zin tricks' }, { word: 'Kikitori' }],
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ name: 'Product names', is_temporary: false, team_id: 'acme' });
    expect(created.json.words.map((w: any) => [w.word, w.reading])).toEqual([
      ['Zintrix', 'zin tricks'],
      ['Kikitori', null],
    ]);
    const fetched = await server.api(key, 'GET', `/api/v1/dictionaries/${created.json.dictionary_id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.json).toEqual(created.json);
  });

  it('lists items with only the five fields, newest first', async () => {
    const first = await create({ name: 'first' });
    const second = await create({ name: 'second' });
    const list = await server.api(key, 'GET', '/api/v1/dictionaries');
    expect(list.status).toBe(200);
    for (const item of list.json) {
      expect(Object.keys(item).sort()).toEqual(['created_at', 'dictionary_id', 'name', 'team_id', 'updated_at']);
    }
    const ids = list.json.map((d: any) => d.dictionary_id);
    expect(ids.indexOf(second.json.dictionary_id)).toBeLessThan(ids.indexOf(first.json.dictionary_id));
  });

  it('patches name and is_temporary', async () => {
    const created = await create({ name: 'old' });
    const patched = await server.api(key, 'PATCH', `/api/v1/dictionaries/${created.json.dictionary_id}`, {
      name: 'new',
      is_temporary: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ name: 'new', is_temporary: true });
    const bad = await server.api(key, 'PATCH', `/api/v1/dictionaries/${created.json.dictionary_id}`, { name: 42 });
    expect(bad.status).toBe(400);
    expect(bad.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(bad.json.error_message).toContain('name');
    expect(bad.json.field).toBe('name');
  });

  it('rejects a missing name, a blank name and unknown fields with 400, naming the field', async () => {
    const cases: Array<[unknown, string | undefined]> = [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x', colour: 'red' }, 'colour'],
      [{ name: 'x', is_temporary: 'yes' }, 'is_temporary'],
      [{ name: 'x', words: [{ word: 'ok' }, { word: 'fine', reading: ['no'] }] }, 'words.1.reading'],
      [[1, 2], undefined],
    ];
    for (const [body, field] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json).toEqual({
        error_id: expect.any(String),
        error_code: ErrorCode.VALIDATION_FAILED,
        error_message: expect.any(String),
        ...(field ? { field } : {}),
      });
    }
  });

  it('deletes with an empty body, and takes its words and blacklist words along', async () => {
    const created = await create({ name: 'doomed', words: [{ word: 'a' }] });
    const id = created.json.dictionary_id;
    const word = created.json.words[0].word_id;
    const rule = await server.api(key, 'POST', `/api/v1/dictionaries/${id}/blacklist_words`, {
      pattern: 'x',
      replacement: 'y',
    });
    const deleted = await server.api(key, 'DELETE', `/api/v1/dictionaries/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    expect((await server.api(key, 'GET', `/api/v1/dictionaries/${id}`)).status).toBe(404);
    expect((await server.api(key, 'DELETE', `/api/v1/dictionaries/${id}`)).status).toBe(404);
    const db = server.runtime.db.kysely;
    expect(await db.selectFrom('words').select('word_id').where('word_id', '=', word).execute()).toEqual([]);
    expect(
      await db
        .selectFrom('blacklist_words')
        .select('blacklist_word_id')
        .where('blacklist_word_id', '=', rule.json.blacklist_word_id)
        .execute(),
    ).toEqual([]);
  });
});

describe('words', () => {
  it('adds, gets and deletes a word', async () => {
    const dictionary = await create({ name: 'w' });
    const base = `/api/v1/dictionaries/${dictionary.json.dictionary_id}/words`;
    const added = await server.api(key, 'POST', base, { word: 'Zintrix', reading: 'zin tricks' });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({
      word: 'Zintrix',
      reading: 'zin tricks',
      dictionary_id: dictionary.json.dictionary_id,
    });
    const fetched = await server.api(key, 'GET', `${base}/${added.json.word_id}`);
    expect(fetched.json).toEqual(added.json);
    const deleted = await server.api(key, 'DELETE', `${base}/${added.json.word_id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    const gone = await server.api(key, 'GET', `${base}/${added.json.word_id}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error_code).toBe(ErrorCode.WORD_NOT_FOUND);
  });

  it('adds in bulk, all or nothing', async () => {
    const dictionary = await create({ name: 'bulk' });
    const base = `/api/v1/dictionaries/${dictionary.json.dictionary_id}/words/bulk`;
    const bad = await server.api(key, 'POST', base, [{ word: 'ok' }, { word: '' }, { word: 'fine' }]);
    expect(bad.status).toBe(400);
    expect(bad.json.error_message).toContain('1');
    expect(bad.json.field).toBe('1.word');
    const after = await server.api(key, 'GET', `/api/v1/dictionaries/${dictionary.json.dictionary_id}`);
    expect(after.json.words).toEqual([]);
    const good = await server.api(key, 'POST', base, [{ word: 'one' }, { word: 'two', reading: 'too' }]);
    expect(good.status).toBe(200);
    expect(good.json.map((w: any) => w.word)).toEqual(['one', 'two']);
  });
});

describe('readings', () => {
  const unpronounceable = (field: string) => ({
    error_id: expect.any(String),
    error_code: ErrorCode.VALIDATION_FAILED,
    error_message: expect.stringMatching(/cannot be pronounced\. Write how the word sounds in letters or kana/),
    field,
  });

  it('refuses a reading that cannot be pronounced, on every route that adds words, and stores nothing', async () => {
    const before = (await server.api(key, 'GET', '/api/v1/dictionaries')).json.length;
    const created = await create({
      name: 'x',
      words: [{ word: 'ok' }, { word: 'Ōsaka-株式会社!!', reading: 'ｘｘ@@##' }],
    });
    expect(created.status).toBe(400);
    expect(created.json).toEqual(unpronounceable('words.1.reading'));
    expect(created.json.error_message).toContain('"ｘｘ@@##" of "Ōsaka-株式会社!!"');
    expect((await server.api(key, 'GET', '/api/v1/dictionaries')).json.length).toBe(before);

    const dictionary = await create({ name: 'readings' });
    const base = `/api/v1/dictionaries/${dictionary.json.dictionary_id}/words`;
    const hostile = [
      'ｘｘ@@##',
      '@@##',
      '1234',
      '--',
      "'",
      '[[k ih]]',
      'zin\ntricks',
      'zin\ttricks',
      'zin\u0000tricks',
      'zin\u202etricks',
      'zin 🙂 tricks',
      'zin <script>',
      'zin; rm -rf /',
    ];
    for (const reading of hostile) {
      const one = await server.api(key, 'POST', base, { word: 'Zintrix', reading });
      expect(one.status, JSON.stringify(reading)).toBe(400);
      expect(one.json).toEqual(unpronounceable('reading'));
    }
    const bulk = await server.api(key, 'POST', `${base}/bulk`, [{ word: 'one' }, { word: 'two', reading: '#2' }]);
    expect(bulk.status).toBe(400);
    expect(bulk.json).toEqual(unpronounceable('1.reading'));
    // Another team's dictionary answers as unknown before the reading is looked at.
    const other = await server.key('other-team', 'bob');
    const foreign = await server.api(other, 'POST', base, { word: 'Zintrix', reading: '@@' });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error_code).toBe(ErrorCode.DICTIONARY_NOT_FOUND);
    expect((await server.api(key, 'GET', `/api/v1/dictionaries/${dictionary.json.dictionary_id}`)).json.words).toEqual(
      [],
    );
  });

  it('accepts respellings and kana, with spaces, hyphens and apostrophes, full-width included', async () => {
    const dictionary = await create({ name: 'fine readings' });
    const base = `/api/v1/dictionaries/${dictionary.json.dictionary_id}/words/bulk`;
    const readings = [
      'zin tricks',
      'key-key tory',
      "o'brien",
      'o\u2019brien',
      'ききとり',
      'キキトリ',
      'タカハシ・ケン',
      'ｋｉｋｉ　ｔｏｒｉ',
      'café',
    ];
    const added = await server.api(
      key,
      'POST',
      base,
      readings.map((reading) => ({ word: 'Kikitori', reading })),
    );
    expect(added.status).toBe(200);
    expect(added.json.map((w: any) => w.reading)).toEqual(readings);
  });
});

describe('blacklist words', () => {
  it('adds, bulk-adds (all or nothing), gets and deletes', async () => {
    const dictionary = await create({ name: 'b' });
    const base = `/api/v1/dictionaries/${dictionary.json.dictionary_id}/blacklist_words`;
    const added = await server.api(key, 'POST', base, { pattern: 'kiki tory', replacement: 'Kikitori' });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ pattern: 'kiki tory', replacement: 'Kikitori' });
    const bad = await server.api(key, 'POST', `${base}/bulk`, [{ pattern: 'a', replacement: 'b' }, { pattern: 'c' }]);
    expect(bad.status).toBe(400);
    const bulk = await server.api(key, 'POST', `${base}/bulk`, [
      { pattern: 'a', replacement: 'b' },
      { pattern: 'c', replacement: 'd' },
    ]);
    expect(bulk.json).toHaveLength(2);
    const full = await server.api(key, 'GET', `/api/v1/dictionaries/${dictionary.json.dictionary_id}`);
    expect(full.json.blacklist_words.map((b: any) => b.pattern)).toEqual(['kiki tory', 'a', 'c']);
    expect((await server.api(key, 'GET', `${base}/${added.json.blacklist_word_id}`)).json).toEqual(added.json);
    expect((await server.api(key, 'DELETE', `${base}/${added.json.blacklist_word_id}`)).text).toBe('');
    const gone = await server.api(key, 'GET', `${base}/${added.json.blacklist_word_id}`);
    expect(gone.json.error_code).toBe(ErrorCode.BLACKLIST_WORD_NOT_FOUND);
  });

  it(`holds at most ${LIMITS.replacementRulesPerDictionary} per dictionary, refusing with 409 and adding nothing`, async () => {
    const max = LIMITS.replacementRulesPerDictionary;
    const dictionary = await create({ name: 'full' });
    const id = dictionary.json.dictionary_id as string;
    const base = `/api/v1/dictionaries/${id}/blacklist_words`;
    const rules = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ pattern: `p${from + i}`, replacement: `r${from + i}` }));
    for (let from = 0; from < max - 1; from += LIMITS.bulkItems) {
      const bulk = await server.api(
        key,
        'POST',
        `${base}/bulk`,
        rules(from, Math.min(LIMITS.bulkItems, max - 1 - from)),
      );
      expect(bulk.status).toBe(200);
    }
    const count = async () =>
      (await server.api(key, 'GET', `/api/v1/dictionaries/${id}`)).json.blacklist_words.length as number;
    expect(await count()).toBe(max - 1);

    const over = await server.api(key, 'POST', `${base}/bulk`, rules(max, 2));
    expect(over.status).toBe(409);
    expect(over.json).toMatchObject({ error_code: ErrorCode.TOO_MANY_BLACKLIST_WORDS, error_id: expect.any(String) });
    expect(over.json.error_message).toContain(String(max));
    expect(await count()).toBe(max - 1);

    const last = await server.api(key, 'POST', base, { pattern: 'last', replacement: 'one' });
    expect(last.status).toBe(200);
    const refused = await server.api(key, 'POST', base, { pattern: 'one', replacement: 'more' });
    expect(refused.status).toBe(409);
    expect(refused.json.error_code).toBe(ErrorCode.TOO_MANY_BLACKLIST_WORDS);
    expect(await count()).toBe(max);

    // Room again once a rule is deleted; other dictionaries are not affected.
    expect((await server.api(key, 'DELETE', `${base}/${last.json.blacklist_word_id}`)).status).toBe(200);
    expect((await server.api(key, 'POST', base, { pattern: 'one', replacement: 'more' })).status).toBe(200);
    const other = await create({ name: 'other' });
    expect(
      (
        await server.api(key, 'POST', `/api/v1/dictionaries/${other.json.dictionary_id}/blacklist_words`, {
          pattern: 'x',
          replacement: 'y',
        })
      ).status,
    ).toBe(200);

    // The contract says so.
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: object }>>;
    };
    for (const route of [
      '/api/v1/dictionaries/{dictionary_id}/blacklist_words',
      '/api/v1/dictionaries/{dictionary_id}/blacklist_words/bulk',
    ]) {
      expect(doc.paths[route]!.post!.responses).toHaveProperty('409');
    }
  });
});

describe('pagination', () => {
  it(`pages by ${PAGE_SIZE}, newest first; a page past the end is []`, async () => {
    const team = await server.key('paging');
    const names = Array.from({ length: PAGE_SIZE + 3 }, (_, i) => `d${i}`);
    for (const name of names) await server.api(team, 'POST', '/api/v1/dictionaries', { name });
    const page1 = await server.api(team, 'GET', '/api/v1/dictionaries');
    const explicit1 = await server.api(team, 'GET', '/api/v1/dictionaries?page=1');
    const page2 = await server.api(team, 'GET', '/api/v1/dictionaries?page=2');
    const page3 = await server.api(team, 'GET', '/api/v1/dictionaries?page=3');
    expect(page1.json).toHaveLength(PAGE_SIZE);
    expect(explicit1.json).toEqual(page1.json);
    expect(page1.json[0].name).toBe(names.at(-1));
    expect(page2.json.map((d: any) => d.name)).toEqual(['d2', 'd1', 'd0']);
    expect(page3.status).toBe(200);
    expect(page3.json).toEqual([]);
  });

  it('answers 400 for a page that is not a whole number of 1 or more', async () => {
    for (const page of ['0', '-1', 'abc', '1.5', '']) {
      for (const path of ['/api/v1/dictionaries', '/api/v1/transcriptions']) {
        const response = await server.api(key, 'GET', `${path}?page=${page}`);
        expect(response.status, `${path} page=${page}`).toBe(400);
        expect(response.json.error_code).toBe(ErrorCode.INVALID_PAGE);
        expect(response.json.field).toBe('page');
      }
    }
  });
});
