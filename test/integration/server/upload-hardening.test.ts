// Issue 22 items 1-3 over real HTTP: tus takes its ids only from the verified signed URL (never from Host or
// X-Forwarded-Host), the types and names the file routes serve are the server's, and open tus uploads hold
// their size of the team's quota under a cap on how many may be open. Decision 0043.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse as parseContentDisposition } from 'content-disposition';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { sweepTusUploads } from '../../../src-server/application/resumable-uploads.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startS3, type S3Server } from '../../support/s3.js';
import { tusUpload } from '../../support/tus-client.js';
import {
  otherConnection,
  startTestServer,
  storedAudioPath,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

let speech: Buffer<ArrayBuffer>;
let otherSpeech: Buffer<ArrayBuffer>;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  speech = fs.readFileSync(await synthesizeSpeech('please send the quarterly report to the finance team by friday'));
  otherSpeech = fs.readFileSync(await synthesizeSpeech('the attacker would like to replace this recording'));
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with headers fetch() will not send (Host among them), straight to `url`'s server. */
function rawRequest(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function ticket(server: TestServer, key: string, filename = 'meeting.wav') {
  const response = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename, language: 'en' });
  expect(response.status).toBe(200);
  return response.json as { transcription_id: string; audio_upload_url: string };
}

const TUS = { 'tus-resumable': '1.0.0' };
const APPEND = { ...TUS, 'content-type': 'application/offset+octet-stream' };
const partials = (server: TestServer) =>
  fs.readdirSync(path.join(server.dataDir, 'tus-uploads'), { withFileTypes: true });

/**
 * The attack of issue 22: the attacker holds only their own signed URL and names the victim's transcription in
 * a header that once became the URL handed to @tus/server. Returns what each step answered.
 */
async function hostileUpload(
  server: TestServer,
  attackerUrl: string,
  victimId: string,
  header: 'host' | 'x-forwarded-host',
) {
  const attacker = new URL(attackerUrl);
  const attackerId = decodeURIComponent(attacker.pathname.split('/').pop()!);
  const hostile = (victimPath: string) => ({ [header]: `${new URL(server.url).host}${victimPath}?` });
  const created = await rawRequest(server.url + attacker.pathname + attacker.search, 'POST', {
    ...TUS,
    'upload-length': String(otherSpeech.length),
    ...hostile(`/files/upload/${victimId}`),
  });
  const location = created.headers.location ?? '';
  const createdId = decodeURIComponent(new URL(location, server.url).pathname.split('/').pop() ?? '');
  // The PATCH goes to an upload id of the attacker's own ticket, so that the signed URL's checks pass; the
  // header names the upload just created for the victim.
  const patched = await rawRequest(
    `${server.url}/files/upload/${attackerId}/tus/${attackerId}_${'0'.repeat(32)}${attacker.search}`,
    'PATCH',
    { ...APPEND, 'upload-offset': '0', ...hostile(`/files/upload/${victimId}/tus/${encodeURIComponent(createdId)}`) },
    otherSpeech,
  );
  return { created, createdId, patched };
}

describe('tus takes its ids only from the verified signed URL', () => {
  let server: TestServer;
  let victimKey: string;
  let attackerKey: string;
  beforeAll(async () => {
    server = await startTestServer({ storage: 'files' });
    victimKey = await server.key('victim-team');
    attackerKey = await server.key('attacker-team');
  });
  afterAll(() => server.close());

  it('a hostile Host naming another team’s transcription reaches only the attacker’s own ticket; the victim’s upload still succeeds', async () => {
    const victim = await ticket(server, victimKey);
    const attacker = await ticket(server, attackerKey);
    const { created, createdId, patched } = await hostileUpload(
      server,
      attacker.audio_upload_url,
      victim.transcription_id,
      'host',
    );
    // Whatever the attacker's requests did, they did it to their own ticket.
    expect(createdId.startsWith(`${attacker.transcription_id}_`)).toBe(true);
    expect(created.headers.location).toBe(
      `/files/upload/${attacker.transcription_id}/tus/${createdId}${new URL(attacker.audio_upload_url).search}`,
    );
    expect(patched.status).toBe(404);
    expect(JSON.parse(patched.body).error_code).toBe(ErrorCode.ROUTE_NOT_FOUND);
    expect(
      partials(server)
        .map((e) => e.name)
        .filter((name) => name.startsWith(victim.transcription_id)),
    ).toEqual([]);
    const untouched = await server.runtime.ctx.transcriptions.getById(victim.transcription_id);
    expect(untouched).toMatchObject({ uploadStatus: 'PENDING', audioKey: null });

    await tusUpload(victim.audio_upload_url, speech);
    expect(sha256(fs.readFileSync(await storedAudioPath(server, victim.transcription_id)))).toBe(sha256(speech));
  });

  it('other ways of naming the victim under the attacker’s signature reach nothing of the victim’s', async () => {
    const victim = await ticket(server, victimKey);
    const victimUpload = await fetch(victim.audio_upload_url, {
      method: 'POST',
      headers: { ...TUS, 'upload-length': String(speech.length) },
    });
    const victimUploadId = decodeURIComponent(
      new URL(victimUpload.headers.get('location')!, server.url).pathname.split('/').pop()!,
    );
    const attacker = await ticket(server, attackerKey);
    const signed = new URL(attacker.audio_upload_url).search;
    const origin = new URL(server.url).host;
    const victimPath = `/files/upload/${victim.transcription_id}/tus/${victimUploadId}`;
    const attempts: RawAnswer[] = [];
    // The victim's upload URL under the attacker's signature, with each method.
    for (const method of ['HEAD', 'PATCH', 'DELETE']) {
      attempts.push(
        await rawRequest(
          `${server.url}${victimPath}${signed}`,
          method,
          { ...APPEND, 'upload-offset': '0' },
          method === 'PATCH' ? otherSpeech : undefined,
        ),
      );
    }
    // An absolute-form request target naming the victim.
    attempts.push(
      await new Promise<RawAnswer>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port: new URL(server.url).port,
            method: 'PATCH',
            path: `http://${origin}${victimPath}${signed}`,
            headers: { ...APPEND, 'upload-offset': '0', 'content-length': '10' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: '' }));
          },
        );
        request.on('error', reject);
        request.end(Buffer.alloc(10));
      }),
    );
    // Forwarding and rewriting headers of every kind on the attacker's own URL.
    for (const headers of [
      { forwarded: `host="${origin}${victimPath}?"` },
      { 'x-forwarded-host': `${origin}${victimPath}?`, 'x-forwarded-proto': 'http' },
      { 'x-original-url': `${victimPath}${signed}` },
      { 'x-rewrite-url': `${victimPath}${signed}` },
    ] as Record<string, string>[]) {
      attempts.push(
        await rawRequest(
          `${server.url}/files/upload/${attacker.transcription_id}/tus/${attacker.transcription_id}_${'0'.repeat(32)}${signed}`,
          'PATCH',
          { ...APPEND, 'upload-offset': '0', ...headers },
          otherSpeech,
        ),
      );
    }
    // Path tricks in the upload id.
    for (const trick of [
      `${attacker.transcription_id}_${'0'.repeat(32)}%2F..%2F${victimUploadId}`,
      `..%2F..%2F${victimUploadId}`,
      `${attacker.transcription_id}_${'0'.repeat(32)}%00`,
    ]) {
      attempts.push(
        await rawRequest(
          `${server.url}/files/upload/${attacker.transcription_id}/tus/${trick}${signed}`,
          'PATCH',
          { ...APPEND, 'upload-offset': '0' },
          otherSpeech,
        ),
      );
    }
    expect(attempts.map((a) => a.status)).toEqual([403, 403, 403, 403, 404, 404, 404, 404, 414, 404, 404]);
    // The victim's upload is as it was (nothing appended, still there), and finishes.
    const head = await fetch(new URL(victimUpload.headers.get('location')!, server.url), {
      method: 'HEAD',
      headers: TUS,
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
    expect(await server.runtime.ctx.transcriptions.getById(victim.transcription_id)).toMatchObject({
      uploadStatus: 'PENDING',
      audioKey: null,
    });
    await tusUpload(victim.audio_upload_url, speech, {
      uploadUrl: new URL(victimUpload.headers.get('location')!, server.url).toString(),
    });
    expect(sha256(fs.readFileSync(await storedAudioPath(server, victim.transcription_id)))).toBe(sha256(speech));
  });

  it('a Host with %2F or ../ creates nothing nested in tus-uploads/ or outside it', async () => {
    const before = fs.readdirSync(server.dataDir).sort();
    const attacker = await ticket(server, attackerKey);
    const target = new URL(attacker.audio_upload_url);
    for (const trick of ['nested%2Fdir', '..%2F..%2Fescaped', '..%2Fescaped', '%2E%2E%2Fescaped']) {
      const answer = await rawRequest(server.url + target.pathname + target.search, 'POST', {
        ...TUS,
        'upload-length': '10',
        host: `${new URL(server.url).host}/files/upload/${trick}?`,
      });
      expect(answer.status).toBe(201);
      expect(decodeURIComponent(answer.headers.location!.split('?')[0]!.split('/').pop()!)).toMatch(
        new RegExp(`^${attacker.transcription_id}_[0-9a-f]{32}$`),
      );
    }
    expect(partials(server).filter((e) => !e.isFile())).toEqual([]);
    for (const entry of partials(server)) expect(entry.name).toMatch(/^[0-9a-f-]{36}_[0-9a-f]{32}(\.json)?$/);
    expect(fs.readdirSync(server.dataDir).sort()).toEqual(before);
    expect(fs.readdirSync(path.dirname(server.dataDir)).filter((name) => name.startsWith('escaped'))).toEqual([]);
  });

  it('the sweep removes whatever under tus-uploads/ holds no open upload, at any depth, and keeps open ones', async () => {
    const live = await ticket(server, attackerKey);
    const created = await fetch(live.audio_upload_url, { method: 'POST', headers: { ...TUS, 'upload-length': '100' } });
    expect(created.status).toBe(201);
    const liveId = decodeURIComponent(new URL(created.headers.get('location')!, server.url).pathname.split('/').pop()!);
    const directory = path.join(server.dataDir, 'tus-uploads');
    fs.mkdirSync(path.join(directory, 'nested', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(directory, 'nested', 'deeper', `${live.transcription_id}_${'a'.repeat(32)}`), 'stray');
    fs.writeFileSync(path.join(directory, 'stray.bin'), 'stray');
    // Named like an upload of a live ticket, but no upload holds it.
    fs.writeFileSync(path.join(directory, `${live.transcription_id}_${'b'.repeat(32)}`), 'stray');

    await sweepTusUploads(server.dataDir, server.runtime.ctx.storageUsage);
    const left = partials(server);
    expect(left.filter((e) => !e.isFile())).toEqual([]);
    expect(left.map((e) => e.name)).toEqual(expect.arrayContaining([liveId, `${liveId}.json`]));
    expect(left.map((e) => e.name)).not.toContain('stray.bin');
    expect(left.map((e) => e.name)).not.toContain(`${live.transcription_id}_${'b'.repeat(32)}`);
    // The upload kept is still one: it takes its bytes.
    const location = new URL(created.headers.get('location')!, server.url);
    expect(
      (
        await fetch(location, {
          method: 'PATCH',
          headers: { ...APPEND, 'upload-offset': '0' },
          body: speech.subarray(0, 100),
        })
      ).status,
    ).toBe(204);
  });
});

describe('behind a proxy (KIKITORI_PUBLIC_URL set, X-Forwarded-* trusted)', () => {
  let server: TestServer;
  let proxy: http.Server;
  let publicUrl: string;
  let victimKey: string;
  let attackerKey: string;
  beforeAll(async () => {
    // A plain reverse proxy in front of the server: the address clients use, which the server knows as its public URL.
    let upstream = '';
    proxy = http.createServer((request, response) => {
      const target = new URL(upstream);
      const forwarded = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: request.url,
          method: request.method,
          headers: { ...request.headers, 'x-forwarded-host': request.headers.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.destroy());
      request.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    server = await startTestServer({ storage: 'files', env: { KIKITORI_PUBLIC_URL: publicUrl } });
    upstream = server.url;
    victimKey = await server.key('victim-team');
    attackerKey = await server.key('attacker-team');
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('a hostile X-Forwarded-Host reaches only the attacker’s own ticket; the victim’s upload through the proxy still succeeds', async () => {
    const victim = await ticket(server, victimKey);
    const attacker = await ticket(server, attackerKey);
    expect(attacker.audio_upload_url.startsWith(`${publicUrl}/files/upload/`)).toBe(true);
    const { createdId, patched } = await hostileUpload(
      server,
      attacker.audio_upload_url,
      victim.transcription_id,
      'x-forwarded-host',
    );
    expect(createdId.startsWith(`${attacker.transcription_id}_`)).toBe(true);
    expect(patched.status).toBe(404);
    expect(await server.runtime.ctx.transcriptions.getById(victim.transcription_id)).toMatchObject({
      uploadStatus: 'PENDING',
      audioKey: null,
    });

    // The upload's URL is absolute at the public URL (which could carry a path), and tus-js-client follows it.
    const upload = await tusUpload(victim.audio_upload_url, speech);
    expect(
      upload.url!.startsWith(`${publicUrl}/files/upload/${victim.transcription_id}/tus/${victim.transcription_id}_`),
    ).toBe(true);
    expect(sha256(fs.readFileSync(await storedAudioPath(server, victim.transcription_id)))).toBe(sha256(speech));
  });
});

describe('the file routes serve types and names of their own', () => {
  let server: TestServer;
  let key: string;
  const html = Buffer.from('<!doctype html><script>document.title = "ran on the server origin"</script>');
  beforeAll(async () => {
    server = await startTestServer({ storage: 'files' });
    key = await server.key('acme');
  });
  afterAll(() => server.close());

  async function download(id: string) {
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
    expect(record.json.audio_path).toEqual(expect.any(String));
    return fetch(record.json.audio_path);
  }
  function expectFileHeaders(headers: Headers) {
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('content-security-policy')).toBe('sandbox');
  }

  it('stores a tus filetype such as audio/x,text/html or one with CR/LF as application/octet-stream, and serves it safely', async () => {
    for (const filetype of ['audio/x,text/html', 'audio/x\r\nX-Injected: yes', 'text/html', 'AUDIO/OGG; codecs=opus']) {
      // No extension in the name: the client's type is all there is.
      const t = await ticket(server, key, 'recording');
      await tusUpload(t.audio_upload_url, html, { metadata: { filename: 'recording', filetype } });
      const stored = await server.runtime.ctx.transcriptions.getById(t.transcription_id);
      const expected = filetype.startsWith('AUDIO/OGG') ? 'audio/ogg' : 'application/octet-stream';
      expect(stored?.audioContentType).toBe(expected);
      const answer = await download(t.transcription_id);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(expected);
      expectFileHeaders(answer.headers);
      expect(answer.headers.get('content-disposition')).toBe('attachment; filename=recording');
      expect(answer.headers.get('x-injected')).toBeNull();
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(html);
    }
  });

  it('stores a PUT Content-Type of another shape as application/octet-stream; one that is no media type at all is refused', async () => {
    const t = await ticket(server, key, 'recording');
    const malformed = await fetch(t.audio_upload_url, {
      method: 'PUT',
      body: html,
      headers: { 'content-type': 'audio/x,text/html' },
    });
    expect(malformed.status).toBe(415);
    expect(((await malformed.json()) as { error_code: number }).error_code).toBe(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    expectFileHeaders(malformed.headers);
    expect(
      (await fetch(t.audio_upload_url, { method: 'PUT', body: html, headers: { 'content-type': 'text/html' } })).status,
    ).toBe(200);
    const answer = await download(t.transcription_id);
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expectFileHeaders(answer.headers);
  });

  it('serves a type stored before the check as application/octet-stream, not as stored', async () => {
    const t = await ticket(server, key, 'recording');
    await tusUpload(t.audio_upload_url, html);
    const other = await otherConnection(server);
    try {
      await other.run('UPDATE transcriptions SET audio_content_type = ? WHERE transcription_id = ?', [
        'audio/x\r\nSet-Cookie: a=b',
        t.transcription_id,
      ]);
    } finally {
      await other.close();
    }
    const answer = await download(t.transcription_id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it('names the download after the transcription in a valid Content-Disposition, Japanese, quotes and control characters included', async () => {
    const name = '会議の"記録"\r\n第2回.wav';
    const t = await ticket(server, key, name);
    await tusUpload(t.audio_upload_url, speech);
    const answer = await download(t.transcription_id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/wav');
    const header = answer.headers.get('content-disposition')!;
    expect(header).toMatch(/^attachment; filename=[\x20-\x7e]+; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|-]+$/);
    const parsed = parseContentDisposition(header);
    expect(parsed.type).toBe('attachment');
    expect(parsed.parameters.filename).toBe('会議の"記録"_第2回.wav');
    // Ranged answers carry the same headers.
    const ranged = await fetch(
      (await server.api(key, 'GET', `/api/v1/transcriptions/${t.transcription_id}`)).json.audio_path,
      { headers: { range: 'bytes=0-99' } },
    );
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-disposition')).toBe(header);
    expectFileHeaders(ranged.headers);
  });

  it('carries nosniff and the sandbox on every /files/* answer, refusals and tus answers included', async () => {
    const t = await ticket(server, key);
    const forged = new URL(t.audio_upload_url);
    forged.searchParams.set('signature', 'A'.repeat(22));
    const answers = [
      await fetch(forged, { method: 'PUT', body: speech }),
      await fetch(forged.toString().replace('/files/upload/', '/files/audio/')),
      await fetch(forged.toString().replace('/files/upload/', '/files/transcript/')),
      await fetch(t.audio_upload_url, { method: 'OPTIONS' }),
      await fetch(t.audio_upload_url, { method: 'POST', headers: { ...TUS, 'upload-length': String(speech.length) } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 204, 201]);
    for (const answer of answers) expectFileHeaders(answer.headers);
  });
});

describe('S3 storage: the presigned audio GET names the same type and file', () => {
  let s3: S3Server;
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    s3 = await startS3({ buckets: ['hardening'] });
    server = await startTestServer({ env: s3.env('hardening', '') });
    key = await server.key('acme');
  });
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it('stores a client type of another shape as octet-stream and signs the download with it and a Content-Disposition', async () => {
    const t = await ticket(server, key, '会議"1".wav');
    const put = await fetch(t.audio_upload_url, {
      method: 'PUT',
      body: speech,
      headers: { 'content-type': 'audio/x,text/html' },
    });
    expect(put.status).toBe(200);
    // A name with an audio extension wins over what the client sent; without one, the client's claim would have counted.
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${t.transcription_id}/transcribe`)).status).toBe(200);
    const t2 = await ticket(server, key, 'recording');
    await fetch(t2.audio_upload_url, { method: 'PUT', body: speech, headers: { 'content-type': 'audio/x,text/html' } });
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${t2.transcription_id}/transcribe`)).status).toBe(
      200,
    );
    expect((await server.runtime.ctx.transcriptions.getById(t2.transcription_id))?.audioContentType).toBe(
      'application/octet-stream',
    );

    for (const [id, type, filename] of [
      [t.transcription_id, 'audio/wav', '会議"1".wav'],
      [t2.transcription_id, 'application/octet-stream', 'recording'],
    ] as const) {
      const audioPath = (await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json.audio_path as string;
      const redirect = await fetch(audioPath, { redirect: 'manual' });
      expect(redirect.status).toBe(307);
      expect(redirect.headers.get('x-content-type-options')).toBe('nosniff');
      const signed = new URL(redirect.headers.get('location')!);
      expect(signed.searchParams.get('response-content-type')).toBe(type);
      expect(
        parseContentDisposition(signed.searchParams.get('response-content-disposition')!).parameters.filename,
      ).toBe(filename);
      const served = await fetch(signed);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(type);
      expect(parseContentDisposition(served.headers.get('content-disposition')!).parameters.filename).toBe(filename);
    }
  });
});

describe('open tus uploads hold their size of the team quota', () => {
  const QUOTA = 400_000;
  let server: TestServer;
  let key: string;
  let otherKey: string;
  const noise = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + seed) % 256));
  const usage = () => server.runtime.ctx.storageUsage;
  beforeAll(async () => {
    server = await startTestServer({
      storage: 'files',
      env: { KIKITORI_TEAM_QUOTA_BYTES: String(QUOTA), KIKITORI_MAX_OPEN_UPLOADS_PER_TEAM: '20' },
    });
    key = await server.key('acme');
    otherKey = await server.key('globex');
  });
  afterAll(() => server.close());

  const create = (url: string, length: number) =>
    fetch(url, { method: 'POST', headers: { ...TUS, 'upload-length': String(length) } });
  const patch = (location: string, offset: number, bytes: Buffer<ArrayBuffer>) =>
    fetch(new URL(location, server.url), {
      method: 'PATCH',
      headers: { ...APPEND, 'upload-offset': String(offset) },
      body: bytes,
    });

  it('many tickets cannot hold more than what is left, and finishing them cannot pass the quota', async () => {
    const stored = await ticket(server, key);
    expect((await fetch(stored.audio_upload_url, { method: 'PUT', body: noise(219_000) })).status).toBe(200);
    // 181 kB left: eight tickets each try to open a 150 kB upload.
    const tickets = await Promise.all(Array.from({ length: 8 }, () => ticket(server, key)));
    const answers = await Promise.all(tickets.map((t) => create(t.audio_upload_url, 150_000)));
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(403);
      const body = (await refused.json()) as { error_code: number; error_message: string };
      expect(body.error_code).toBe(ErrorCode.QUOTA_EXCEEDED);
      expect(body.error_message).toMatch(
        /^This file \(150 kB\) would take your team past its storage quota of 400 kB \(219 kB already stored, 150 kB held by uploads in progress\)\./,
      );
    }
    expect(await usage().reservedBytes('acme')).toBe(150_000);
    // A PUT counts what the open upload holds; another team does not.
    const put = await ticket(server, key);
    expect((await fetch(put.audio_upload_url, { method: 'PUT', body: noise(40_000) })).status).toBe(403);
    expect((await create((await ticket(server, otherKey)).audio_upload_url, 150_000)).status).toBe(201);

    // Every upload that was created is finished, in two PATCHes each (the last PATCH is small).
    for (const [i, answer] of answers.entries()) {
      const location = answer.headers.get('location');
      if (!location) continue;
      const bytes = noise(150_000, i);
      expect((await patch(location, 0, bytes.subarray(0, 140_000))).status).toBe(204);
      expect((await patch(location, 140_000, bytes.subarray(140_000))).status).toBe(204);
    }
    expect(await usage().audioBytes('acme')).toBe(369_000);
    expect(await usage().audioBytes('acme')).toBeLessThanOrEqual(QUOTA);
    expect(await usage().reservedBytes('acme')).toBe(0);
    // What is left (31 kB) is all a new upload may hold.
    expect((await create((await ticket(server, key)).audio_upload_url, 31_001)).status).toBe(403);
    const fits = await create((await ticket(server, key)).audio_upload_url, 31_000);
    expect(fits.status).toBe(201);
    await fetch(new URL(fits.headers.get('location')!, server.url), { method: 'DELETE', headers: TUS });
  });

  it('checks the whole file against the quota: an upload whose team’s quota was lowered is refused and stores nothing', async () => {
    await usage().setQuotaOverride('globex', 1_000_000);
    const t = await ticket(server, otherKey);
    const created = await create(t.audio_upload_url, 100_000);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const bytes = noise(100_000, 7);
    expect((await patch(location, 0, bytes.subarray(0, 60_000))).status).toBe(204);
    // The 150 kB upload globex opened above still holds its share; the quota now leaves this one 99 kB.
    await usage().setQuotaOverride('globex', 249_000);
    const last = await patch(location, 60_000, bytes.subarray(60_000));
    expect(last.status).toBe(403);
    expect(((await last.json()) as { error_code: number }).error_code).toBe(ErrorCode.QUOTA_EXCEEDED);
    expect(await server.runtime.ctx.transcriptions.getById(t.transcription_id)).toMatchObject({
      uploadStatus: 'PENDING',
      audioKey: null,
    });
    await usage().setQuotaOverride('globex', undefined);
  });

  // Decision 0048: a refusal before the body is read keeps the connection and discards the body, rather
  // than closing with the body unread (a reset that can lose the answer).
  it('tus-js-client gets the quota refusal of a 9 MiB PATCH refused before its body is read, not a reset', async () => {
    const team = 'stark';
    const k = await server.key(team);
    await usage().setQuotaOverride(team, 20 * 1024 * 1024);
    const t = await ticket(server, k);
    const bytes = Buffer.alloc(9 * 1024 * 1024, 5);
    const failure = await tusUpload(t.audio_upload_url, bytes, {
      chunkSize: bytes.length,
      // The quota is lowered once the upload is created: its PATCH is refused on its Content-Length.
      onBeforeRequest: async (request) => {
        if (request.getMethod() === 'PATCH') await usage().setQuotaOverride(team, 1_000_000);
      },
    }).then(
      () => null,
      (error: unknown) => error as tus.DetailedError,
    );
    expect(failure?.originalResponse?.getStatus()).toBe(403);
    expect((JSON.parse(failure!.originalResponse!.getBody()) as { error_code: number }).error_code).toBe(
      ErrorCode.QUOTA_EXCEEDED,
    );
    await usage().setQuotaOverride(team, undefined);
  });

  it('one ticket holds its largest open upload once, not each of them', async () => {
    const team = 'initech';
    const k = await server.key(team);
    await usage().setQuotaOverride(team, 200_000);
    const t = await ticket(server, k);
    expect((await create(t.audio_upload_url, 150_000)).status).toBe(201);
    expect((await create(t.audio_upload_url, 150_000)).status).toBe(201);
    expect(await usage().reservedBytes(team)).toBe(150_000);
    expect((await create((await ticket(server, k)).audio_upload_url, 60_000)).status).toBe(403);
  });

  it('an upload that holds no reservation (made before them) is gone: HEAD and PATCH answer 404 and tus-js-client starts a new one', async () => {
    const t = await ticket(server, await server.key('umbrella'));
    const created = await create(t.audio_upload_url, speech.length);
    expect(created.status).toBe(201);
    const old = new URL(created.headers.get('location')!, server.url);
    const other = await otherConnection(server);
    try {
      await other.run('DELETE FROM upload_reservations WHERE transcription_id = ?', [t.transcription_id]);
    } finally {
      await other.close();
    }
    expect((await fetch(old, { method: 'HEAD', headers: TUS })).status).toBe(404);
    expect((await patch(old.toString(), 0, speech)).status).toBe(404);
    const upload = await tusUpload(t.audio_upload_url, speech, { uploadUrl: old.toString() });
    expect(upload.url).not.toBe(old.toString());
    expect(sha256(fs.readFileSync(await storedAudioPath(server, t.transcription_id)))).toBe(sha256(speech));
  });

  it('refuses the upload past KIKITORI_MAX_OPEN_UPLOADS_PER_TEAM; terminating or expiring one releases its place and its bytes', async () => {
    const capped = await startTestServer({
      storage: 'files',
      env: { KIKITORI_TEAM_QUOTA_BYTES: '1000000', KIKITORI_MAX_OPEN_UPLOADS_PER_TEAM: '3' },
    });
    try {
      const k = await capped.key('acme');
      const open = async () => {
        const t = await capped.api(k, 'POST', '/api/v1/transcriptions/upload', { filename: 'a.wav' });
        return {
          id: t.json.transcription_id as string,
          answer: await fetch(t.json.audio_upload_url, {
            method: 'POST',
            headers: { ...TUS, 'upload-length': '300000' },
          }),
        };
      };
      const first = await open();
      const second = await open();
      expect((await open()).answer.status).toBe(201);
      const fourth = await open();
      expect(fourth.answer.status).toBe(409);
      const body = (await fourth.answer.json()) as { error_code: number; error_message: string };
      expect(body.error_code).toBe(ErrorCode.TOO_MANY_OPEN_UPLOADS);
      expect(body.error_message).toMatch(/^Your team already has 3 resumable uploads in progress/);
      expect(fourth.answer.headers.get('x-content-type-options')).toBe('nosniff');
      // Another team has places of its own.
      const other = await capped.key('globex');
      const otherTicket = await capped.api(other, 'POST', '/api/v1/transcriptions/upload', { filename: 'a.wav' });
      expect(
        (
          await fetch(otherTicket.json.audio_upload_url, {
            method: 'POST',
            headers: { ...TUS, 'upload-length': '300000' },
          })
        ).status,
      ).toBe(201);

      // Terminated: its place and its 300 kB are free again.
      expect(await capped.runtime.ctx.storageUsage.reservedBytes('acme')).toBe(900_000);
      const terminated = await fetch(new URL(first.answer.headers.get('location')!, capped.url), {
        method: 'DELETE',
        headers: TUS,
      });
      expect(terminated.status).toBe(204);
      expect(await capped.runtime.ctx.storageUsage.reservedBytes('acme')).toBe(600_000);
      expect((await open()).answer.status).toBe(201);
      expect((await open()).answer.status).toBe(409);

      // Expired: the ticket is cancelled by the sweep, which releases its upload and removes its partial file.
      const other2 = await otherConnection(capped);
      try {
        await other2.run('UPDATE transcriptions SET upload_expires_at = ? WHERE transcription_id = ?', [
          new Date(Date.now() - 1000).toISOString(),
          second.id,
        ]);
      } finally {
        await other2.close();
      }
      await waitForStatus(capped, k, second.id, ['CANCELLED']);
      for (;;) {
        if (!partials(capped).some((e) => e.name.startsWith(second.id))) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(
        await capped.runtime.ctx.storageUsage.reservation(
          decodeURIComponent(second.answer.headers.get('location')!.split('?')[0]!.split('/').pop()!),
        ),
      ).toBeNull();
      expect(await capped.runtime.ctx.storageUsage.reservedBytes('acme')).toBe(600_000);
      expect((await open()).answer.status).toBe(201);
    } finally {
      await capped.close();
    }
  });
});
