// Phase 2: SIGKILLs during transcriptions. Clients upload recordings (real speech, and one file that is
// not audio) and start their transcriptions, retrying as a real client would while the server is down;
// the drill kills the server with SIGKILL at moments chosen by what it is doing (a PUT streaming,
// converting, recognizing) and starts it again on the same data dir and port. At the end: every
// transcription COMPLETED (the bad file FAILED with a reason), every upload answered 200 still stored
// byte for byte, and no file under storage/ or work/ that no transcription owns.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { concatWithSilence, makeCorruptFile, synthesizeSpeech } from '../../test/support/audio-fixtures.js';
import {
  api,
  apiKey,
  filesUnder,
  pathOf,
  prng,
  send,
  sha256,
  sizeSetting,
  sleep,
  startDrillServer,
  tempDir,
  UNLIMITED,
  type CheckResult,
  type DrillServer,
  type Json,
} from './support.js';
import http from 'node:http';

const SENTENCES = [
  'The quick brown fox jumps over the lazy dog.',
  'Please call Stella and ask her to bring these things with her from the store.',
  'We will meet at the station at nine in the morning.',
  'The weather report says it will rain all afternoon.',
  'She sells sea shells by the sea shore.',
  'Our meeting moved to Thursday because the room was booked.',
];

interface Recording {
  name: string;
  bytes: Buffer;
  bad: boolean;
  id?: string;
  uploadPath?: string;
  /** The PUT was answered 200. */
  accepted: boolean;
  uploaded: boolean;
  transcribing: boolean;
  /** A PUT is streaming now. */
  putting: boolean;
  final?: { status: string; failure_reason: string | null };
  /** The last thing that went wrong, for the report. */
  lastError?: string;
}

async function recordings(count: number): Promise<Recording[]> {
  const out: Recording[] = [];
  for (let i = 0; i < count - 1; i++) {
    const parts = await Promise.all([0, 1, 2].map((j) => synthesizeSpeech(SENTENCES[(i + j) % SENTENCES.length]!)));
    const file = await concatWithSilence(parts, 0.5 + (i % 3) * 0.5);
    out.push({
      name: `speech-${i}.wav`,
      bytes: fs.readFileSync(file),
      bad: false,
      accepted: false,
      uploaded: false,
      transcribing: false,
      putting: false,
    });
  }
  const corrupt = await makeCorruptFile(path.join(tempDir('kikitori-drill-bad-'), 'not-audio.wav'));
  out.push({
    name: 'not-audio.wav',
    bytes: fs.readFileSync(corrupt),
    bad: true,
    accepted: false,
    uploaded: false,
    transcribing: false,
    putting: false,
  });
  return out;
}

/** A PUT streamed in small pieces with pauses, so that a kill can land in the middle of it. */
function slowPut(base: string, uploadPath: string, bytes: Buffer): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'PUT',
        path: uploadPath,
        headers: { 'content-length': String(bytes.length) },
        agent: false,
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    void (async () => {
      for (let at = 0; at < bytes.length; at += 32 * 1024) {
        if (request.destroyed) return;
        request.write(bytes.subarray(at, at + 32 * 1024));
        await delay(25);
      }
      request.end();
    })();
  });
}

/** One client: ticket, upload, transcribe, wait; every step retried while the server is away. */
async function client(base: string, key: string, r: Recording, startAfterMs: number, stopped: () => boolean) {
  await sleep(startAfterMs);
  while (!stopped() && !r.final) {
    try {
      if (!r.id) {
        const ticket = await api(base, key, 'POST', '/api/v1/transcriptions/upload', {
          filename: r.name,
          language: 'en',
        });
        if (ticket.status === 200)
          [r.id, r.uploadPath] = [ticket.json.transcription_id, pathOf(ticket.json.audio_upload_url)];
        else r.lastError = `ticket: ${ticket.status} ${JSON.stringify(ticket.json)}`;
      } else if (!r.uploaded) {
        r.putting = true;
        let answer: { status: number; body: string };
        try {
          answer = await slowPut(base, r.uploadPath!, r.bytes);
        } finally {
          r.putting = false;
        }
        if (answer.status === 200) r.accepted = r.uploaded = true;
        else if (answer.status >= 400 && answer.status < 500 && answer.status !== 409) {
          // Refused as it came in (a file that is not audio may be): a clear answer ends this client too.
          r.final = {
            status: `REFUSED ${answer.status}`,
            failure_reason: (JSON.parse(answer.body) as { error_message?: string }).error_message ?? null,
          };
        } else {
          // Stored by a server killed before it answered: the record says so.
          const record = await api(base, key, 'GET', `/api/v1/transcriptions/${r.id}`);
          if (record.json?.upload_status === 'COMPLETED') r.uploaded = true;
        }
      } else if (!r.transcribing) {
        const started = await api(base, key, 'POST', `/api/v1/transcriptions/${r.id}/transcribe`);
        if (started.status === 200 || started.status === 409) r.transcribing = true;
      } else {
        const record = await api(base, key, 'GET', `/api/v1/transcriptions/${r.id}`);
        const status = record.json.status ?? '';
        if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(status))
          r.final = { status, failure_reason: record.json.failure_reason ?? null };
      }
    } catch (error) {
      // The server is down (killed): try again shortly, as the desktop app does.
      r.lastError = (error as Error).message;
    }
    await sleep(r.transcribing ? 200 : 50);
  }
}

/** What the server is doing now, from the list (or a PUT in flight). */
async function activity(base: string, key: string, clients: Recording[]): Promise<Set<string>> {
  const doing = new Set<string>();
  if (clients.some((r) => r.putting)) doing.add('upload');
  try {
    const list = await api(base, key, 'GET', '/api/v1/transcriptions');
    for (const t of list.list) if (t.stage) doing.add(t.stage);
  } catch {
    // down
  }
  return doing;
}

async function allTranscriptionIds(base: string, key: string): Promise<Json[]> {
  const all: Json[] = [];
  for (let page = 1; ; page++) {
    const { list } = await api(base, key, 'GET', `/api/v1/transcriptions?page=${page}`);
    if (list.length === 0) return all;
    all.push(...list);
  }
}

export async function killPhase(seed: number): Promise<CheckResult[]> {
  const kills = sizeSetting('DRILL_KILLS', 20, 6);
  const count = sizeSetting('DRILL_RECORDINGS', 10, 4);
  const random = prng(seed ^ 0x5eed);
  const clients = await recordings(count);
  const dataDir = tempDir('kikitori-drill-kill-');
  const key = await apiKey(dataDir);
  let server: DrillServer | null = await startDrillServer(dataDir, UNLIMITED);
  const base = server.url;
  let stopClients = false;
  const runs = clients.map((r, i) => client(base, key, r, i === 0 ? 0 : random.int(kills * 600), () => stopClients));
  const killedDuring = new Map<string, number>();
  const notes: string[] = [];
  try {
    for (let k = 0; k < kills; k++) {
      const target = (['upload', 'converting', 'recognizing'] as const)[k % 3]!;
      // Wait (a few seconds at most) for the moment to aim at, then a little more, at random.
      let doing = new Set<string>();
      for (let waited = 0; waited < 4000; waited += 50) {
        doing = await activity(base, key, clients);
        if (doing.has(target) || (target === 'recognizing' && doing.has('detecting-speech'))) break;
        await sleep(50);
      }
      await sleep(random.int(150));
      if (process.env.DRILL_DEBUG)
        console.log(`kill ${k}: aiming at ${target}, server doing ${[...doing].join('+') || 'nothing'}`);
      const label = doing.size === 0 ? 'idle' : [...doing].sort().join('+');
      killedDuring.set(label, (killedDuring.get(label) ?? 0) + 1);
      await server.kill();
      await sleep(random.int(300));
      await server.restart();
      await sleep(200 + random.int(1200));
    }
    // No more kills: every client finishes (or the drill gives up after a while).
    const deadline = Date.now() + sizeSetting('DRILL_KILL_SETTLE_SECONDS', 600, 300) * 1000;
    while (clients.some((r) => !r.final) && Date.now() < deadline) await sleep(250);
    stopClients = true;
    await Promise.all(runs);

    const completed = clients.filter((r) => !r.bad && r.final?.status === 'COMPLETED').length;
    const badFailed = clients.filter(
      (r) =>
        r.bad &&
        (r.final?.status === 'FAILED' || r.final?.status.startsWith('REFUSED')) &&
        (r.final.failure_reason ?? '').length > 0,
    ).length;
    for (const r of clients.filter((c) => !c.final))
      notes.push(
        `kill: ${r.name} (${r.id ?? 'no ticket'}) never finished: uploaded ${r.uploaded}, transcribing ${r.transcribing}, last error: ${r.lastError}`,
      );
    for (const r of clients.filter(
      (c) =>
        c.final &&
        (c.bad ? c.final.status !== 'FAILED' && !c.final.status.startsWith('REFUSED') : c.final.status !== 'COMPLETED'),
    )) {
      notes.push(`kill: ${r.name} ended ${r.final!.status}: ${r.final!.failure_reason}`);
    }
    const bad = clients.find((r) => r.bad);
    if (bad?.final)
      notes.push(`kill: the file that is not audio ended ${bad.final.status}: "${bad.final.failure_reason}"`);

    // Every upload answered 200 is still there, byte for byte.
    let lost = 0;
    for (const r of clients.filter((c) => c.accepted)) {
      const record = await api(base, key, 'GET', `/api/v1/transcriptions/${r.id}`);
      const audio = record.json?.audio_path
        ? await send(base, { method: 'GET', path: pathOf(record.json.audio_path) })
        : null;
      if (
        record.json?.upload_status !== 'COMPLETED' ||
        audio?.status !== 200 ||
        sha256(audio.body) !== sha256(r.bytes)
      ) {
        lost++;
        notes.push(`kill: upload of ${r.name} (${r.id}) was answered 200 but is gone or changed`);
      }
    }
    // Tickets whose answer a kill swallowed are records the client never heard of: still waiting for audio.
    const all = await allTranscriptionIds(base, key);
    const known = new Set(clients.map((r) => r.id));
    const unanswered = all.filter((t) => !known.has(t.transcription_id));
    if (unanswered.some((t) => t.upload_status !== 'PENDING'))
      notes.push('kill: a record the clients never created has audio');
    await server.stop();
    server = null;

    const ids = new Set(all.map((t) => t.transcription_id));
    const orphans = [
      ...filesUnder(path.join(dataDir, 'work')).map((f) => `work/${f}`),
      ...filesUnder(path.join(dataDir, 'storage'))
        .filter((f) => f.startsWith('.tmp') || ![...ids].some((id) => id !== undefined && f.includes(id)))
        .map((f) => `storage/${f}`),
    ];
    for (const orphan of orphans.slice(0, 10)) notes.push(`kill: orphaned file ${orphan}`);
    notes.push(
      `kill: kills by what the server was doing: ${[...killedDuring].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
    const good = clients.filter((r) => !r.bad).length;
    return [
      {
        check: 'SIGKILL during uploads and transcriptions',
        runs: `${kills} kills, ${clients.length} recordings`,
        result: `${completed}/${good} COMPLETED, bad file FAILED ${badFailed}/1, ${lost} uploads lost, ${orphans.length} orphaned files`,
        figure: `${clients.filter((r) => r.accepted).length} PUTs answered 200; ${unanswered.length} tickets unanswered`,
        pass:
          completed === good &&
          badFailed === 1 &&
          lost === 0 &&
          orphans.length === 0 &&
          !unanswered.some((t) => t.upload_status !== 'PENDING'),
        notes,
      },
    ];
  } finally {
    stopClients = true;
    if (server) await server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
