// Phase 5: the attacks of the second hardening round (issue 22), against the built server as users run it.
// Each row counts the attempts and says what held:
//   tus-host       a signed tus URL of one team, sent with a Host or X-Forwarded-Host that names another team's
//                  upload: the victim's transcription is untouched, its own upload still works, nothing lands
//                  outside tus-uploads/<id>_<random>
//   served-types   uploader-chosen content types (PUT Content-Type, tus filetype): every download of the audio
//                  answers an audio/video type or application/octet-stream, with nosniff, a sandbox CSP and an
//                  attachment-safe Content-Disposition, and never a 5xx
//   tus-quota      many tickets of a team near its quota each create a tus upload: the reservations together
//                  stay within what is left, and finishing them never takes the team past its quota
//   openai-quota   /v1/audio/transcriptions past the team's quota: refused in OpenAI's error body, nothing stored
//   openai-400     unreadable audio on /v1/audio/transcriptions: 400 invalid_request_error
//   models-role    a team's ADMIN key downloads, cancels and deletes server-wide speech models: 403
//   deleted-words  a reviewed word of a deleted transcription is in no file of the data dir
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { makeCorruptFile, synthesizeSpeech } from '../../test/support/audio-fixtures.js';
import { launcherOf, startServer, stopServer } from '../../test/e2e/host/server-process.js';
import {
  api,
  filesUnder,
  jsonOf,
  need,
  pathOf,
  ROOT,
  send,
  sleep,
  tempDir,
  UNLIMITED,
  type CheckResult,
  type RawResponse,
} from './support.js';

const run = promisify(execFile);

async function cliKey(dataDir: string, team: string, roles: readonly string[] = ['DELETE']): Promise<string> {
  const { stdout } = await run(process.execPath, [
    launcherOf(ROOT),
    'keys',
    'create',
    '--data-dir',
    dataDir,
    '--team',
    team,
    '--user',
    `${team}-user`,
    ...roles.flatMap((role) => ['--role', role]),
  ]);
  return stdout.trim().split('\n').at(-1)!.trim();
}

async function setQuota(dataDir: string, team: string, bytes: number): Promise<void> {
  await run(process.execPath, [
    launcherOf(ROOT),
    'teams',
    'quota',
    '--data-dir',
    dataDir,
    '--team',
    team,
    '--bytes',
    String(bytes),
  ]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

interface Ticket {
  id: string;
  uploadPath: string;
}

async function ticket(base: string, key: string, filename = 'attack.wav'): Promise<Ticket> {
  const response = await api(base, key, 'POST', '/api/v1/transcriptions/upload', { filename, language: 'en' });
  if (response.status !== 200)
    throw new Error(`upload ticket answered ${response.status}: ${JSON.stringify(response.json)}`);
  return {
    id: need(response.json.transcription_id, 'transcription_id'),
    uploadPath: pathOf(response.json.audio_upload_url),
  };
}

/** A tus creation on `uploadPath`; resolves with the answer and the upload's path when it was created. */
async function tusCreate(
  base: string,
  uploadPath: string,
  length: number,
  headers: Record<string, string> = {},
  metadata = '',
): Promise<{ response: RawResponse; location?: string }> {
  const response = await send(base, {
    method: 'POST',
    path: uploadPath,
    headers: {
      ...TUS,
      'upload-length': String(length),
      ...(metadata ? { 'upload-metadata': metadata } : {}),
      ...headers,
    },
  });
  const location = typeof response.headers.location === 'string' ? new URL(response.headers.location, base) : undefined;
  return { response, location: location ? location.pathname + location.search : undefined };
}

function tusPatch(
  base: string,
  uploadPath: string,
  offset: number,
  bytes: Buffer,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return send(base, {
    method: 'PATCH',
    path: uploadPath,
    headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...headers },
    body: bytes,
  });
}

/** Every entry under the tus directory that is not a `<id>_<32 hex>` upload (or its .json) at the top level. */
function strayTusEntries(dataDir: string): string[] {
  const directory = path.join(dataDir, 'tus-uploads');
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .filter((entry) => !entry.isFile() || !/^[^/]+_[0-9a-f]{32}(\.json)?$/.test(entry.name))
    .map((entry) => entry.name);
}

const ok = (count: number, failures: string[], check: string, what: string, figure: string): CheckResult => ({
  check,
  runs: String(count),
  result: failures.length === 0 ? what : `${failures.length} broke: ${failures[0]}`,
  figure,
  pass: failures.length === 0,
  notes: failures.slice(0, 5).map((failure) => `${check}: ${failure}`),
});

/** A Host that smuggles another upload's path into the URL a tus library builds from it. */
function hostileHosts(port: number, victim: string): string[] {
  const at = `127.0.0.1:${port}`;
  return [
    `${at}/files/upload/${victim}?`,
    `${at}/files/upload/${victim}#`,
    `${at}/files/upload/${victim}/tus/x?`,
    `${at}/files/upload/${encodeURIComponent(victim)}%2F..?`,
    `${at}%2Ffiles%2Fupload%2F${victim}%3F`,
    `${at}/files/upload/${victim}/`,
    `evil.example/files/upload/${victim}?`,
    `${at}/files/upload/${victim}\\`,
  ];
}

async function tusHostAttacks(
  base: string,
  dataDir: string,
  port: number,
  viaForwarded: boolean,
  speech: Buffer,
): Promise<{ attempts: number; failures: string[] }> {
  const attacker = await cliKey(dataDir, viaForwarded ? 'fwd-attacker' : 'attacker');
  const victimKey = await cliKey(dataDir, viaForwarded ? 'fwd-victim' : 'victim');
  const failures: string[] = [];
  let attempts = 0;
  const victims: Ticket[] = [];
  for (const host of hostileHosts(port, 'VICTIM')) {
    const victim = await ticket(base, victimKey, 'victim.wav');
    victims.push(victim);
    const own = await ticket(base, attacker, 'attacker.wav');
    const header = (
      viaForwarded
        ? { 'x-forwarded-host': host.replace('VICTIM', victim.id) }
        : { host: host.replace('VICTIM', victim.id) }
    ) as Record<string, string>;
    attempts += 1;
    let created: Awaited<ReturnType<typeof tusCreate>>;
    try {
      created = await tusCreate(
        base,
        own.uploadPath,
        speech.length,
        header,
        `filename ${b64('x.wav')},filetype ${b64('audio/wav')}`,
      );
    } catch (error) {
      failures.push(`create with ${JSON.stringify(header)}: no answer (${(error as Error).message})`);
      continue;
    }
    if (created.response.status >= 500)
      failures.push(`create with ${JSON.stringify(header)}: ${created.response.status}`);
    if (created.location) {
      if (!created.location.includes(own.id) || created.location.includes(victim.id))
        failures.push(`create with ${JSON.stringify(header)} answered Location ${created.location}`);
      attempts += 1;
      const patched = await tusPatch(base, created.location, 0, speech, header).catch((error: Error) => error);
      if (patched instanceof Error)
        failures.push(`append with ${JSON.stringify(header)}: no answer (${patched.message})`);
      else if (patched.status >= 500) failures.push(`append with ${JSON.stringify(header)}: ${patched.status}`);
    }
  }
  for (const victim of victims) {
    const record = await api(base, victimKey, 'GET', `/api/v1/transcriptions/${victim.id}`);
    if (record.json.upload_status !== 'PENDING')
      failures.push(`victim ${victim.id} shows upload ${String(record.json.upload_status)} before its own upload`);
    const put = await send(base, { method: 'PUT', path: victim.uploadPath, body: speech }).catch(
      (error: Error) => error,
    );
    if (put instanceof Error) failures.push(`victim's own PUT: no answer (${put.message})`);
    else if (put.status !== 200)
      failures.push(`victim's own PUT answered ${put.status}: ${put.body.toString().slice(0, 200)}`);
  }
  const stray = strayTusEntries(dataDir);
  if (stray.length > 0) failures.push(`tus-uploads/ holds ${stray.join(', ')}`);
  return { attempts, failures };
}

const SERVED_TYPE = /^(audio|video)\/[a-z0-9.+-]{1,64}$|^application\/octet-stream$/;
const HOSTILE_TYPES = [
  'audio/x,text/html',
  'text/html',
  'text/html; charset=utf-8',
  'application/javascript',
  'image/svg+xml',
  'audio/wav\r\nX-Injected: 1',
  'audio/wav\nSet-Cookie: a=b',
  'AUDIO/WAV',
  `audio/${'a'.repeat(200)}`,
  'audio/',
  'audio/wav;<script>',
  '',
  'video/mp4',
  'audio/wav',
];

async function servedTypeAttacks(
  base: string,
  key: string,
  speech: Buffer,
): Promise<{ attempts: number; failures: string[] }> {
  const failures: string[] = [];
  let attempts = 0;
  for (const type of HOSTILE_TYPES) {
    // A header value cannot carry CR or LF on the wire; tus metadata is base64 and can.
    for (const via of /[\r\n]/.test(type) ? (['tus'] as const) : (['put', 'tus'] as const)) {
      attempts += 1;
      const label = `${via} ${JSON.stringify(type)}`;
      const t = await ticket(base, key, 'song "a"\r\n名前.wav');
      let stored: RawResponse;
      if (via === 'put') {
        stored = await send(base, {
          method: 'PUT',
          path: t.uploadPath,
          headers: type === '' ? {} : { 'content-type': type },
          body: speech,
        });
      } else {
        const created = await tusCreate(
          base,
          t.uploadPath,
          speech.length,
          {},
          `filename ${b64('x.wav')},filetype ${b64(type)}`,
        );
        if (!created.location) {
          if (created.response.status >= 500) failures.push(`${label}: create answered ${created.response.status}`);
          continue;
        }
        stored = await tusPatch(base, created.location, 0, speech);
      }
      if (stored.status >= 500) failures.push(`${label}: upload answered ${stored.status}`);
      if (stored.status >= 300) continue;
      const record = await api(base, key, 'GET', `/api/v1/transcriptions/${t.id}`);
      const audio = typeof record.json.audio_path === 'string' ? new URL(record.json.audio_path, base) : null;
      if (!audio) {
        failures.push(`${label}: no audio_path after the upload`);
        continue;
      }
      const download = await send(base, { method: 'GET', path: audio.pathname + audio.search });
      const served = String(download.headers['content-type'] ?? '');
      if (download.status !== 200) failures.push(`${label}: download answered ${download.status}`);
      if (!SERVED_TYPE.test(served)) failures.push(`${label}: served as ${JSON.stringify(served)}`);
      if (download.headers['x-content-type-options'] !== 'nosniff') failures.push(`${label}: no nosniff`);
      if (!/\bsandbox\b/.test(String(download.headers['content-security-policy'] ?? '')))
        failures.push(`${label}: no sandbox CSP`);
      const disposition = String(download.headers['content-disposition'] ?? '');
      if (!/^(attachment|inline); filename="[\x20-\x7e]*"/.test(disposition) || /[\r\n]/.test(disposition))
        failures.push(`${label}: Content-Disposition ${JSON.stringify(disposition)}`);
      if (download.headers['x-injected'] !== undefined || download.headers['set-cookie'] !== undefined)
        failures.push(`${label}: an injected header came back`);
    }
  }
  return { attempts, failures };
}

async function tusQuotaAttack(
  base: string,
  dataDir: string,
  speech: Buffer,
): Promise<{ attempts: number; failures: string[]; figure: string }> {
  const team = 'quota-team';
  const key = await cliKey(dataDir, team);
  // What is left is a little over one file: eight partials of one file each must not all be reserved.
  const quota = Math.floor(speech.length * 1.2);
  await setQuota(dataDir, team, quota);
  const failures: string[] = [];
  const created: string[] = [];
  let attempts = 0;
  for (let i = 0; i < 8; i++) {
    attempts += 1;
    const t = await ticket(base, key, `partial-${i}.wav`);
    const result = await tusCreate(
      base,
      t.uploadPath,
      speech.length,
      {},
      `filename ${b64('p.wav')},filetype ${b64('audio/wav')}`,
    );
    if (result.response.status >= 500) failures.push(`creation ${i}: ${result.response.status}`);
    if (!result.location) continue;
    created.push(result.location);
    // Half a file each: the partials themselves take disk and must count.
    await tusPatch(base, result.location, 0, speech.subarray(0, speech.length >> 1));
  }
  if (created.length * speech.length > quota)
    failures.push(`${created.length} uploads of ${speech.length} bytes reserved against ${quota} bytes left`);
  let finished = 0;
  for (const location of created) {
    attempts += 1;
    const rest = await tusPatch(base, location, speech.length >> 1, speech.subarray(speech.length >> 1));
    if (rest.status >= 500) failures.push(`finishing answered ${rest.status}`);
    if (rest.status === 204) finished += 1;
  }
  const stored = finished * speech.length;
  if (stored > quota) failures.push(`${finished} uploads finished: ${stored} bytes against a quota of ${quota}`);
  return {
    attempts,
    failures,
    figure: `${created.length} of 8 creations accepted, ${finished} finished; ${stored} of ${quota} bytes`,
  };
}

async function openaiQuotaAttack(
  base: string,
  dataDir: string,
  speech: Buffer,
): Promise<{ attempts: number; failures: string[] }> {
  const team = 'openai-quota-team';
  const key = await cliKey(dataDir, team);
  await setQuota(dataDir, team, Math.floor(speech.length / 2));
  const failures: string[] = [];
  const before = filesUnder(path.join(dataDir, 'storage')).length;
  let attempts = 0;
  for (const chunked of [false, true]) {
    attempts += 1;
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array(speech)], { type: 'audio/wav' }), 'big.wav');
    // One encoding of the form: each one draws its own boundary.
    const encoded = new Response(form);
    const type = encoded.headers.get('content-type')!;
    const body = Buffer.from(await encoded.arrayBuffer());
    const response = await send(base, {
      method: 'POST',
      path: '/v1/audio/transcriptions',
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body,
      chunked,
    });
    const error = jsonOf(response).json.error;
    if (response.status < 400 || response.status >= 500 || typeof error?.message !== 'string')
      failures.push(
        `${chunked ? 'chunked' : 'sized'} body answered ${response.status} ${response.body.toString().slice(0, 160)}`,
      );
  }
  await sleep(500);
  const after = filesUnder(path.join(dataDir, 'storage')).length;
  if (after !== before) failures.push(`storage/ went from ${before} to ${after} files`);
  return { attempts, failures };
}

async function openaiUnreadable(base: string, key: string): Promise<{ attempts: number; failures: string[] }> {
  const failures: string[] = [];
  const corrupt = fs.readFileSync(await makeCorruptFile(path.join(tempDir('kikitori-drill-corrupt-'), 'broken.wav')));
  const samples: Array<[string, Buffer]> = [
    ['broken.wav', corrupt],
    ['notes.mp3', Buffer.from('this is not audio at all')],
    ['empty.wav', Buffer.alloc(0)],
  ];
  for (const [name, bytes] of samples) {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const response = await fetch(`${base}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    const body = (await response.json().catch(() => ({}))) as { error?: { type?: string } };
    if (response.status !== 400 || body.error?.type !== 'invalid_request_error')
      failures.push(`${name}: ${response.status} ${JSON.stringify(body).slice(0, 160)}`);
  }
  return { attempts: samples.length, failures };
}

async function modelRoleAttack(base: string, dataDir: string): Promise<{ attempts: number; failures: string[] }> {
  const admin = await cliKey(dataDir, 'model-admins', ['ADMIN', 'DELETE']);
  const failures: string[] = [];
  const list = await api(base, admin, 'GET', '/api/v1/models');
  const names = ((list.json.models as Array<{ name: string }> | undefined) ?? [])
    .map((model) => model.name)
    .slice(0, 3);
  if (names.length === 0) names.push('base.en');
  const forged = { 'x-kikitori-role': 'OPERATOR', 'x-role': 'OPERATOR', 'x-forwarded-user': 'operator' };
  let attempts = 0;
  for (const name of names) {
    for (const [method, route] of [
      ['POST', `/api/v1/models/${name}/download`],
      ['DELETE', `/api/v1/models/${name}/download`],
      ['DELETE', `/api/v1/models/${name}`],
    ] as const) {
      for (const headers of [{}, forged]) {
        attempts += 1;
        const response = await send(base, { method, path: route, headers: { 'x-api-key': admin, ...headers } });
        if (response.status !== 403)
          failures.push(
            `${method} ${route}${Object.keys(headers).length ? ' with forged role headers' : ''}: ${response.status}`,
          );
      }
    }
  }
  return { attempts, failures };
}

async function deletedWords(
  base: string,
  dataDir: string,
  key: string,
  speech: Buffer,
): Promise<{ attempts: number; failures: string[] }> {
  const marker = `Quillonberry${Date.now().toString(36)}`;
  const t = await ticket(base, key, 'secret.wav');
  const failures: string[] = [];
  const put = await send(base, {
    method: 'PUT',
    path: t.uploadPath,
    headers: { 'content-type': 'audio/wav' },
    body: speech,
  });
  if (put.status !== 200) return { attempts: 1, failures: [`upload answered ${put.status}`] };
  await api(base, key, 'POST', `/api/v1/transcriptions/${t.id}/transcribe`);
  for (let i = 0; i < 600; i++) {
    const record = await api(base, key, 'GET', `/api/v1/transcriptions/${t.id}`);
    if (record.json.status === 'COMPLETED' || record.json.status === 'FAILED') break;
    await sleep(200);
  }
  const review = await api(base, key, 'POST', `/api/v1/transcriptions/${t.id}/review`, {
    reviewed_text: `the secret word is ${marker} and nothing else`,
  });
  if (review.status !== 200) failures.push(`review answered ${review.status}`);
  const removed = await api(base, key, 'DELETE', `/api/v1/transcriptions/${t.id}`);
  if (removed.status >= 300) failures.push(`delete answered ${removed.status}`);
  const needles = [Buffer.from(marker, 'utf8'), Buffer.from(marker, 'utf16le')];
  for (const file of filesUnder(dataDir)) {
    const bytes = fs.readFileSync(path.join(dataDir, file));
    if (needles.some((needle) => bytes.includes(needle))) failures.push(`${file} still holds the reviewed word`);
  }
  return { attempts: 1, failures };
}

export async function attacksPhase(): Promise<CheckResult[]> {
  const speech = fs.readFileSync(await synthesizeSpeech('the budget meeting moves to thursday afternoon'));
  const rows: CheckResult[] = [];

  const dataDir = tempDir('kikitori-drill-attacks-');
  const port = await freePort();
  const server = await startServer(
    ROOT,
    dataDir,
    { ...UNLIMITED, KIKITORI_MODEL_BASE_URL: 'http://127.0.0.1:9/' },
    port,
  );
  const base = server.url;
  try {
    const host = await tusHostAttacks(base, dataDir, port, false, speech);
    rows.push(
      ok(
        host.attempts,
        host.failures,
        'attacks: tus with a hostile Host',
        'victims untouched, their own uploads 200, nothing stray',
        `${host.attempts} requests`,
      ),
    );
    const key = await cliKey(dataDir, 'uploader');
    const types = await servedTypeAttacks(base, key, speech);
    rows.push(
      ok(
        types.attempts,
        types.failures,
        'attacks: uploader-chosen types',
        'served as audio/video or octet-stream, nosniff, sandbox, safe name',
        `${HOSTILE_TYPES.length} types, by PUT and tus`,
      ),
    );
    const quota = await tusQuotaAttack(base, dataDir, speech);
    rows.push(
      ok(
        quota.attempts,
        quota.failures,
        'attacks: tus partials past the quota',
        'reservations and finished uploads within the quota',
        quota.figure,
      ),
    );
    const openaiQuota = await openaiQuotaAttack(base, dataDir, speech);
    rows.push(
      ok(
        openaiQuota.attempts,
        openaiQuota.failures,
        'attacks: /v1/audio past the quota',
        "refused in OpenAI's error body, nothing stored",
        'sized and chunked',
      ),
    );
    const unreadable = await openaiUnreadable(base, key);
    rows.push(
      ok(
        unreadable.attempts,
        unreadable.failures,
        'attacks: /v1 unreadable audio',
        '400 invalid_request_error',
        'corrupt, not audio, empty',
      ),
    );
    const models = await modelRoleAttack(base, dataDir);
    rows.push(
      ok(
        models.attempts,
        models.failures,
        "attacks: a team ADMIN on the server's models",
        '403 every time',
        'download, cancel, delete; forged role headers',
      ),
    );
    const deleted = await deletedWords(base, dataDir, key, speech);
    rows.push(
      ok(
        deleted.attempts,
        deleted.failures,
        'attacks: a deleted review on disk',
        'in no file of the data dir',
        'bytes of every file, UTF-8 and UTF-16',
      ),
    );
  } finally {
    await stopServer(server.child);
  }

  // Behind a proxy the forwarded host is trusted for URLs: it must never choose the upload either.
  const proxiedDir = tempDir('kikitori-drill-attacks-proxied-');
  const proxiedPort = await freePort();
  const proxied = await startServer(
    ROOT,
    proxiedDir,
    { ...UNLIMITED, KIKITORI_PUBLIC_URL: `http://127.0.0.1:${proxiedPort}` },
    proxiedPort,
  );
  try {
    const forwarded = await tusHostAttacks(proxied.url, proxiedDir, proxiedPort, true, speech);
    rows.push(
      ok(
        forwarded.attempts,
        forwarded.failures,
        'attacks: tus with a hostile X-Forwarded-Host',
        'victims untouched, their own uploads 200, nothing stray',
        `${forwarded.attempts} requests`,
      ),
    );
  } finally {
    await stopServer(proxied.child);
  }
  return rows;
}
