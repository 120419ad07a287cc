// A long import goes in requests of at most LIMITS.bulkItems lines: when one fails after others went
// through, main says exactly which lines the server has and which it has not (decision 0103). Against a
// real server; a pass-through proxy drops the connection of the second bulk request, as a lost network does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheStore } from '../../../src-main/cache/cache-store.js';
import { DictionaryService } from '../../../src-main/dictionaries/dictionary-service.js';
import { LIMITS } from '../../../src-shared/limits.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { clientOf } from '../../unit/main/main-test-support.js';

/** Forwards every request to `target`, but drops the connection of bulk request number `dropBulk`. */
async function proxyTo(target: string, dropBulk: number) {
  let bulk = 0;
  const server = http.createServer((request, response) => {
    if (request.method === 'POST' && request.url?.endsWith('/bulk') && ++bulk === dropBulk) {
      request.resume();
      return request.on('end', () => request.socket.destroy());
    }
    const upstream = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('a bulk import over several requests', () => {
  let remote: TestServer;
  let key: string;
  beforeAll(async () => {
    remote = await startTestServer();
    key = await remote.key('team');
  });
  afterAll(async () => remote?.close());

  it('says which lines the server has when the connection is lost after the first request', async () => {
    const proxy = await proxyTo(remote.url, 2);
    try {
      const client = clientOf(proxy, key, { retry: { retries: 0 } });
      const service = new DictionaryService(openCacheStore(':memory:'), client);
      const { dictionary_id: id } = await client.createDictionary({ name: 'Long' });
      // A header, a bad line (left out at the user's word) and 1,500 good ones: lines 3-1002 go first.
      const words = Array.from({ length: 1500 }, (_, i) => `Word${i + 1}`);
      const text = ['word,reading', 'Bad,123', ...words].join('\n');

      expect(await service.import(id, text, 'words')).toMatchObject({
        outcome: 'checked',
        badLines: 1,
        goodLines: 1500,
      });
      expect((await clientOf(remote, key).getDictionary(id)).words).toEqual([]);

      const result = await service.import(id, text, 'words', true);
      expect(result).toMatchObject({
        outcome: 'partly-imported',
        importedLines: LIMITS.bulkItems,
        lastImportedLine: 1002,
        firstNotImportedLine: 1003,
        error: { code: 'offline' },
      });
      // What it says is what the server holds: exactly the first 1,000 words, in the shown dictionary too.
      const held = (await clientOf(remote, key).getDictionary(id)).words.map((w) => w.word).sort();
      expect(held).toEqual(words.slice(0, LIMITS.bulkItems).sort());
      if (result.outcome !== 'partly-imported') throw new Error('not partly imported');
      expect(result.detail?.words.map((w) => w.word).sort()).toEqual(held);
    } finally {
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  it('says the same when the server refuses a later request (the replacement rules cap)', async () => {
    const client = clientOf(remote, key, { retry: { retries: 0 } });
    const service = new DictionaryService(openCacheStore(':memory:'), client);
    const { dictionary_id: id } = await client.createDictionary({ name: 'Rules' });
    const room = LIMITS.replacementRulesPerDictionary - 1500;
    for (let i = 0; i < room; i += LIMITS.bulkItems)
      await client.addReplacementRules(
        id,
        Array.from({ length: Math.min(LIMITS.bulkItems, room - i) }, (_, j) => ({
          pattern: `old${i + j}`,
          replacement: 'x',
        })),
      );
    // 2,000 rules: the first 1,000 fit, the next 1,000 would pass the cap and are refused whole.
    const text = Array.from({ length: 2000 }, (_, i) => `said${i} => written${i}`).join('\n');
    const result = await service.import(id, text, 'replacement-rules');
    expect(result).toMatchObject({
      outcome: 'partly-imported',
      importedLines: 1000,
      lastImportedLine: 1000,
      firstNotImportedLine: 1001,
      error: { code: 'conflict' },
    });
    const held = (await client.getDictionary(id)).blacklist_words ?? [];
    expect(held.filter((r) => r.pattern.startsWith('said'))).toHaveLength(1000);
  });

  it('fails whole, with nothing sent, when the first request fails', async () => {
    const proxy = await proxyTo(remote.url, 1);
    try {
      const client = clientOf(proxy, key, { retry: { retries: 0 } });
      const service = new DictionaryService(openCacheStore(':memory:'), client);
      const { dictionary_id: id } = await client.createDictionary({ name: 'Short' });
      await expect(service.import(id, 'Alpha\nBeta', 'words')).rejects.toMatchObject({
        error: { code: 'offline', reason: 'app.dictionary-offline' },
      });
      expect((await clientOf(remote, key).getDictionary(id)).words).toEqual([]);
    } finally {
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });
});
