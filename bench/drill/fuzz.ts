// Phase 1: a seeded fuzz of every route. The routes are the operations of the HTTP contract
// (src-shared/api/), plus what the running server documents beyond it (/v1/*, from /openapi.json), the
// signed upload and download URLs, /healthz, /docs and paths that match nothing. Each request mixes bad
// methods, paths, query values, headers and bodies. Pass: no 5xx, no request left without an answer,
// and every 4xx carries the error body: the spec's outside /v1/, OpenAI's under it.
import http from 'node:http';
import fs from 'node:fs';
import * as analyses from '../../src-shared/api/analyses.js';
import * as dictionaries from '../../src-shared/api/dictionaries.js';
import * as files from '../../src-shared/api/files.js';
import * as health from '../../src-shared/api/health.js';
import * as models from '../../src-shared/api/models.js';
import * as transcriptions from '../../src-shared/api/transcriptions.js';
import { synthesizeSpeech } from '../../test/support/audio-fixtures.js';
import {
  api,
  apiKey,
  jsonOf,
  pathOf,
  prng,
  send,
  sizeSetting,
  sleep,
  startDrillServer,
  tempDir,
  UNLIMITED,
  type CheckResult,
  type RawRequest,
  type RawResponse,
  type Random,
  need,
} from './support.js';

interface Route {
  method: string;
  path: string;
}

/** Every `{ method, path }` operation declared in the contract modules, nested ones included. */
export function contractRoutes(): Route[] {
  const found = new Map<string, Route>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 3 || value === null || typeof value !== 'object') return;
    const candidate = value as Partial<Route>;
    if (typeof candidate.method === 'string' && typeof candidate.path === 'string' && candidate.path.startsWith('/')) {
      found.set(`${candidate.method} ${candidate.path}`, { method: candidate.method, path: candidate.path });
      return;
    }
    for (const inner of Object.values(value)) visit(inner, depth + 1);
  };
  for (const module of [analyses, dictionaries, files, health, models, transcriptions]) visit(module, 0);
  return [...found.values()];
}

/** What the server documents beyond the contract modules (its OpenAI-compatible routes). */
async function documentedRoutes(base: string): Promise<Route[]> {
  const { paths } = jsonOf(await send(base, { method: 'GET', path: '/openapi.json' })).json;
  if (paths === null || typeof paths !== 'object') throw new Error('the server documents no paths at /openapi.json');
  const routes: Route[] = [];
  for (const [template, operations] of Object.entries(paths)) {
    for (const method of Object.keys(operations as object)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
        routes.push({ method: method.toUpperCase(), path: template.replace(/\{([^}]+)\}/g, ':$1') });
    }
  }
  return routes;
}

interface Fixtures {
  keys: { plain: string; deleter: string };
  ids: Record<string, string[]>;
  /** Signed URLs (path and query) the server handed out. */
  signed: { upload: string[]; audio: string[]; transcript: string[] };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO', 'get'];

const STRANGE = [
  '',
  ' ',
  '0',
  '-1',
  'NaN',
  '1e309',
  '-1e309',
  '9007199254740993',
  '99999999999999999999999999',
  '1.5',
  '0x10',
  'null',
  'undefined',
  '[]',
  '{}',
  'true',
  '..',
  '../../etc/passwd',
  '%2e%2e%2f%2e%2e',
  '%00',
  '%',
  '%zz',
  '%C0%AE',
  'ü',
  '日本語の文字列',
  '😀😀',
  '\u202e\u0000',
  "'; DROP TABLE transcriptions; --",
  '<script>alert(1)</script>',
  '$ne',
  'constructor',
  '__proto__',
];

function strange(random: Random): string {
  const roll = random.int(10);
  if (roll === 0) return 'x'.repeat(random.pick([300, 5000, 20_000]));
  if (roll === 1) return '日'.repeat(random.pick([100, 3000]));
  if (roll === 2) return String(random.int(2 ** 31) - 2 ** 30);
  return random.pick(STRANGE);
}

/** A path segment value: a real id of the right kind, another kind's id, or something strange. */
function segment(random: Random, name: string, fixtures: Fixtures): string {
  const real = fixtures.ids[name] ?? [];
  if (real.length > 0 && random.chance(0.5)) return random.pick(real);
  if (random.chance(0.2)) return random.pick(Object.values(fixtures.ids).flat().concat(['x']));
  const value = strange(random);
  return random.chance(0.5) ? encodeURIComponent(value) : value.replace(/[/?#]/g, '');
}

const PAGE_VALUES = [
  '1',
  '2',
  '0',
  '-1',
  'NaN',
  '1e309',
  '1e3',
  '9007199254740991',
  '9007199254740992',
  '1.5',
  'abc',
  '',
  ' 1',
  '1 ',
  '+1',
  '٣',
  'Infinity',
];

function query(random: Random, route: Route): string {
  const parts: string[] = [];
  const count = random.int(4);
  for (let i = 0; i < count; i++) {
    const name = random.pick(['page', 'page', 'format', 'language', 'expires', 'signature', 'model', strange(random)]);
    const value =
      name === 'page'
        ? random.chance(0.7)
          ? random.pick(PAGE_VALUES)
          : strange(random)
        : name === 'format'
          ? random.pick(['json', 'srt', 'vtt', 'txt', 'pdf', 'JSON', strange(random)])
          : strange(random);
    parts.push(
      random.chance(0.8)
        ? `${encodeURIComponent(name)}=${encodeURIComponent(value)}`
        : `${name}=${value.replace(/[#\s]/g, '')}`,
    );
  }
  if (random.chance(0.05)) parts.push('a[b][c]=1&a[b]=2&=&&&');
  void route;
  return parts.length ? `?${parts.join('&')}` : '';
}

function fillPath(random: Random, template: string, fixtures: Fixtures): string {
  let path = template.replace(/:([a-z_]+)/g, (_match, name: string) => segment(random, name, fixtures));
  const roll = random.int(20);
  if (roll === 0) path += '/';
  else if (roll === 1) path = path.replace(/\//g, '//');
  else if (roll === 2) path = path.toUpperCase();
  else if (roll === 3) path += '/extra/' + strange(random).replace(/[/?#]/g, '');
  else if (roll === 4) path = path.replace('/api/v1', '/api/v2');
  else if (roll === 5) path += ';jsessionid=1';
  return path || '/';
}

/** A signed URL as issued, or tampered with. */
function signedPath(random: Random, issued: string[], fallback: string): string {
  const original = issued.length ? random.pick(issued) : fallback;
  const url = new URL(original, 'http://x');
  switch (random.int(8)) {
    case 0:
      return original;
    case 1:
      url.searchParams.set('signature', strange(random));
      break;
    case 2:
      url.searchParams.set(
        'expires',
        random.pick(['0', '-1', '1e309', 'NaN', '99999999999999999999', strange(random)]),
      );
      break;
    case 3:
      url.searchParams.delete('signature');
      break;
    case 4:
      url.search = '';
      break;
    case 5:
      url.pathname = url.pathname.replace(/[^/]+$/, encodeURIComponent(strange(random)) || 'x');
      break;
    case 6:
      url.searchParams.append('signature', 'second');
      break;
    default:
      url.searchParams.set('format', strange(random));
  }
  return url.pathname + url.search;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'audio/wav',
  'a/b/c',
  ';;;',
  '日本/語',
  '',
];

function body(random: Random, contentType: string | undefined): { body?: Buffer | string; chunked?: boolean } {
  switch (random.int(14)) {
    case 0:
      return {};
    case 1:
      return { body: '{' };
    case 2:
      return { body: random.pick(['null', 'true', '1e309', '"text"', '[]', '[1,2,3]', '{}', '{"__proto__":{"x":1}}']) };
    case 3:
      return {
        body: JSON.stringify({
          filename: random.pick([1, null, [], {}, '', 'a'.repeat(5000), 'ok.wav']),
          languages: random.pick(['en', ['xx'], [1], null, ['en', 'ja']]),
          num_speakers: random.pick([-1, 0, 1e309, 'two', 2.5, 100]),
        }),
      };
    case 4:
      return {
        body: JSON.stringify({
          name: random.pick([1, '', ' ', '日本語', 'x'.repeat(1000)]),
          words: [{ surface: 5 }],
          reviewed_text: random.pick([1, 'ok', null]),
          language: random.pick(['en', 'zz', 5, '']),
        }),
      };
    case 5:
      return { body: '['.repeat(5000) + ']'.repeat(5000) };
    case 6:
      return { body: Buffer.alloc(random.pick([9 * 1024 * 1024, 1024 * 1024]), 0x41) };
    case 7: {
      const boundary = contentType?.match(/boundary=(\S+)/)?.[1] ?? 'xyz';
      return {
        body: random.pick([
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nnot audio\r\n--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--${boundary}--\r\n`,
          `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${strange(random)}\r\n--${boundary}--\r\n`,
          `--${boundary}\r\nContent-Disposition: form-data\r\n\r\n`,
          `--other\r\n\r\n--other--`,
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../x"\r\n\r\n${'A'.repeat(2000)}`,
        ]),
      };
    }
    case 8:
      return { body: Buffer.from(Array.from({ length: 2000 }, () => random.int(256))) };
    case 9:
      return { body: 'a=1&b=2&filename=x.wav' };
    case 10:
      return { body: JSON.stringify({ filename: 'drill.wav' }), chunked: true };
    case 11:
      return { body: '\uFEFF{"filename":"bom.wav"}' };
    case 12:
      return {
        body: JSON.stringify({
          dictionary_id: strange(random),
          reviewed_text: 'x'.repeat(random.pick([10, 2_000_000])),
        }),
      };
    default:
      return { body: JSON.stringify({ filename: 'ok.wav' }) };
  }
}

function headers(random: Random, fixtures: Fixtures, route: Route): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const auth = random.int(12);
  if (auth <= 4) out['x-api-key'] = fixtures.keys.plain;
  else if (auth === 5) out['x-api-key'] = fixtures.keys.deleter;
  else if (auth === 6) out.authorization = `Bearer ${fixtures.keys.plain}`;
  else if (auth === 7) out['x-api-key'] = strange(random);
  else if (auth === 8)
    out.authorization = random.pick([
      'Bearer',
      'Bearer ',
      'Basic Zm9vOmJhcg==',
      `Bearer ${'k'.repeat(9000)}`,
      'Bearer 日本',
    ]);
  else if (auth === 9) out['x-api-key'] = [fixtures.keys.plain, 'second'];
  // else: no key
  if (random.chance(0.6)) {
    const type = random.pick(CONTENT_TYPES);
    if (type !== '') out['content-type'] = type;
  }
  const extra = random.int(12);
  if (extra === 0) out['x-huge'] = 'h'.repeat(random.pick([9000, 40_000]));
  else if (extra === 1) for (let i = 0; i < 150; i++) out[`x-many-${i}`] = 'v';
  else if (extra === 2)
    out.range = random.pick([
      'bytes=0-10',
      'bytes=abc',
      'bytes=99999999999-',
      'bytes=5-2',
      'bytes=-0',
      'bytes=0-1,3-4,-5',
      'items=0-1',
    ]);
  else if (extra === 3) out.accept = random.pick(['text/html', '*/*', 'application/xml', '日本']);
  else if (extra === 4) out['accept-encoding'] = random.pick(['gzip', 'br', 'identity;q=0', 'x'.repeat(500)]);
  else if (extra === 5) out['x-forwarded-for'] = strange(random);
  else if (extra === 6) out['content-encoding'] = random.pick(['gzip', 'deflate', 'br', 'zzz']);
  else if (extra === 7) out['upload-checksum'] = random.pick(['sha256 abc', 'sha1 ' + 'x'.repeat(40), '']);
  else if (extra === 8) out['x-content-sha256'] = strange(random);
  else if (extra === 9) out.expect = '100-continue';
  void route;
  return out;
}

interface Generated {
  request: RawRequest;
  target: string;
}

function generate(random: Random, routes: Route[], fixtures: Fixtures): Generated {
  const pick = random.int(100);
  let route: Route;
  let path: string;
  if (pick < 8) {
    route = { method: 'PUT', path: '/files/upload/:id' };
    path = signedPath(random, fixtures.signed.upload, '/files/upload/x?expires=1&signature=x');
  } else if (pick < 13) {
    route = { method: 'GET', path: '/files/audio/:id' };
    path = signedPath(random, fixtures.signed.audio, '/files/audio/x?expires=1&signature=x');
  } else if (pick < 18) {
    route = { method: 'GET', path: '/files/transcript/:id' };
    path = signedPath(random, fixtures.signed.transcript, '/files/transcript/x?expires=1&signature=x');
  } else if (pick < 21) {
    route = {
      method: 'GET',
      path: random.pick([
        '/docs',
        '/docs/',
        '/docs/json',
        '/docs/static/index.html',
        '/docs/static/../../package.json',
        '/openapi.json',
      ]),
    };
    path = route.path;
  } else if (pick < 25) {
    route = {
      method: random.pick(METHODS),
      path: random.pick([
        '/',
        '/v1',
        '/v1/',
        '/v1/nothing',
        '/v1/audio',
        '/api',
        '/api/v1',
        '/files',
        '/nothing/' + strange(random).replace(/[/?#]/g, ''),
        '*',
        '/%',
        '/%00',
      ]),
    };
    path = route.path;
  } else {
    route = random.pick(routes);
    path = fillPath(random, route.path, fixtures) + query(random, route);
  }
  const method = random.chance(0.75) ? route.method : random.pick(METHODS);
  const h = headers(random, fixtures, route);
  const b =
    method === 'GET' || method === 'HEAD'
      ? random.chance(0.15)
        ? body(random, h['content-type'] as string | undefined)
        : {}
      : body(random, h['content-type'] as string | undefined);
  return { request: { method, path, headers: h, ...b }, target: `${route.method} ${route.path}` };
}

/** What is wrong with a response, or null. */
export function judge(request: RawRequest, response: RawResponse): string | null {
  if (response.status >= 500) return `answered ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`;
  if (response.status < 400 || request.method.toUpperCase() === 'HEAD') return null;
  const { json } = jsonOf(response);
  const bare = request.path.split('?')[0]!;
  const openAi = request.path.startsWith('/v1/') || bare === '/v1';
  if (openAi) {
    const error = json.error;
    const ok =
      error !== undefined &&
      typeof error.message === 'string' &&
      error.message !== '' &&
      typeof error.type === 'string' &&
      'param' in error &&
      'code' in error;
    return ok
      ? null
      : `${response.status} without OpenAI's error body: ${response.body.toString('utf8').slice(0, 200)}`;
  }
  const ok =
    typeof json.error_id === 'string' &&
    json.error_id !== '' &&
    typeof json.error_code === 'number' &&
    typeof json.error_message === 'string' &&
    json.error_message !== '';
  return ok ? null : `${response.status} without the error body: ${response.body.toString('utf8').slice(0, 200)}`;
}

function describe(request: RawRequest): string {
  const shortPath =
    request.path.length > 160 ? `${request.path.slice(0, 160)}…(${request.path.length} chars)` : request.path;
  const headerText = Object.entries(request.headers ?? {})
    .map(
      ([name, value]) =>
        `${name}: ${String(value).length > 40 ? `${String(value).slice(0, 40)}…(${String(value).length})` : String(value)}`,
    )
    .slice(0, 6)
    .join('; ');
  const bodyLength = request.body === undefined ? 0 : Buffer.byteLength(request.body);
  return `${request.method} ${shortPath} [${headerText}${Object.keys(request.headers ?? {}).length > 6 ? '; …' : ''}] body ${bodyLength} bytes${request.chunked ? ' chunked' : ''}`;
}

async function prepare(base: string, dataDir: string): Promise<Fixtures> {
  const plain = await apiKey(dataDir, []);
  const deleter = await apiKey(dataDir, ['DELETE']);
  const ids: Record<string, string[]> = {
    transcription_id: [],
    dictionary_id: [],
    word_id: [],
    blacklist_word_id: [],
    name: ['tiny', 'base.en', 'nope'],
    id: [],
  };
  const signed: Fixtures['signed'] = { upload: [], audio: [], transcript: [] };
  const dictionary = await api(base, plain, 'POST', '/api/v1/dictionaries', {
    name: 'drill',
    words: [{ word: 'Kikitori', reading: 'kikitori' }],
  });
  if (dictionary.status !== 200)
    throw new Error(`could not create a dictionary: ${dictionary.status} ${JSON.stringify(dictionary.json)}`);
  const dictionaryId = need(dictionary.json.dictionary_id, 'dictionary_id');
  ids.dictionary_id!.push(dictionaryId);
  for (const word of dictionary.json.words ?? []) if (word.word_id) ids.word_id!.push(word.word_id);
  const blacklisted = await api(base, plain, 'POST', `/api/v1/dictionaries/${dictionaryId}/blacklist_words`, {
    pattern: 'um',
    replacement: '',
  });
  if (blacklisted.json.blacklist_word_id) ids.blacklist_word_id!.push(blacklisted.json.blacklist_word_id);
  // A finished transcription, for the signed download URLs and the analysis routes.
  const speech = fs.readFileSync(await synthesizeSpeech('The drill checks every route of the server.'));
  const ticket = await api(base, plain, 'POST', '/api/v1/transcriptions/upload', {
    filename: 'drill.wav',
    dictionary_id: dictionaryId,
  });
  const id = need(ticket.json.transcription_id, 'transcription_id');
  ids.transcription_id!.push(id);
  const put = await send(base, { method: 'PUT', path: pathOf(ticket.json.audio_upload_url), body: speech });
  if (put.status !== 200) throw new Error(`fixture upload failed: ${put.status} ${put.body.toString()}`);
  await api(base, plain, 'POST', `/api/v1/transcriptions/${ticket.json.transcription_id}/transcribe`);
  for (let i = 0; i < 600; i++) {
    const record = await api(base, plain, 'GET', `/api/v1/transcriptions/${ticket.json.transcription_id}`);
    if (record.json?.status === 'COMPLETED') {
      signed.audio.push(pathOf(record.json.audio_path));
      signed.transcript.push(pathOf(record.json.transcription_path));
      break;
    }
    if (record.json?.status === 'FAILED')
      throw new Error(`fixture transcription failed: ${record.json.failure_reason}`);
    await sleep(200);
  }
  // Upload URLs not used yet (the fuzz may use them), and one already used.
  for (let i = 0; i < 5; i++) {
    const more = await api(base, plain, 'POST', '/api/v1/transcriptions/upload', { filename: `open-${i}.wav` });
    ids.transcription_id!.push(need(more.json.transcription_id, 'transcription_id'));
    signed.upload.push(pathOf(more.json.audio_upload_url));
  }
  signed.upload.push(pathOf(ticket.json.audio_upload_url));
  for (const [name, list] of Object.entries(ids)) if (list.length === 0) ids[name] = ['none'];
  ids.id = [...ids.transcription_id!];
  return { keys: { plain, deleter }, ids, signed };
}

export async function fuzzPhase(seed: number): Promise<CheckResult[]> {
  const total = sizeSetting('DRILL_FUZZ_REQUESTS', 5000, 600);
  const only = process.env.DRILL_FUZZ_ONLY === undefined ? null : Number(process.env.DRILL_FUZZ_ONLY);
  const dataDir = tempDir('kikitori-drill-fuzz-');
  const server = await startDrillServer(dataDir, UNLIMITED);
  try {
    const fixtures = await prepare(server.url, dataDir);
    const contract = contractRoutes();
    const known = new Set(contract.map((r) => `${r.method} ${r.path}`));
    const extra = (await documentedRoutes(server.url)).filter((r) => !known.has(`${r.method} ${r.path}`));
    const routes = [...contract, ...extra];
    // Every request is generated from its own seed, so one can be replayed alone (DRILL_FUZZ_ONLY).
    const requests = Array.from({ length: total }, (_, i) => generate(prng(seed * 1_000_003 + i), routes, fixtures));
    const indices = only === null ? requests.map((_, i) => i) : [only];
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let failed = 0;
    let next = 0;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const worker = async () => {
      while (next < indices.length) {
        const index = indices[next++]!;
        const { request } = requests[index]!;
        let problem: string | null;
        try {
          const response = await send(server.url, request, agent);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          problem = judge(request, response);
        } catch (error) {
          problem = `no response: ${(error as Error).message}`;
        }
        if (problem) {
          failed++;
          if (failures.length < 15)
            failures.push(
              `fuzz #${index}: ${problem}\n    request: ${describe(request)}\n    replay:  DRILL_SEED=${seed} DRILL_FUZZ_ONLY=${index} DRILL_PHASES=fuzz npm run drill`,
            );
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    agent.destroy();
    // The server is still there after all of it.
    const alive = await send(server.url, { method: 'GET', path: '/healthz' }).then(
      (r) => r.status === 200,
      () => false,
    );
    const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    const summary = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, c]) => `${s}×${c}`)
      .join(' ');
    return [
      {
        check: 'fuzz: every route, /v1/*, signed URLs',
        runs: `${indices.length} requests, ${routes.length} routes`,
        result: `${failed} bad answers, ${fiveXx} 5xx${alive ? '' : ', server down after'}`,
        figure: `seed ${seed}`,
        pass: failed === 0 && alive,
        notes: [
          `fuzz statuses: ${summary}`,
          ...failures,
          ...(failed > failures.length ? [`… and ${failed - failures.length} more`] : []),
        ],
      },
    ];
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
