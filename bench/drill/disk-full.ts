// Phase 3: a full disk during an upload and during decoding. Where the drill may mount one (root, and a
// kernel that allows it), the data dir is a small tmpfs, so that the writes really fail with ENOSPC and
// KIKITORI_MIN_FREE_DISK_BYTES is 0; elsewhere KIKITORI_MIN_FREE_DISK_BYTES is set above the free space
// that statfs reports (by 256 MiB: the disk is shared). Pass: 507 with the error body for the uploads, FAILED with the
// out-of-space message for the decodes, the server still answering, and no partial file left behind.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { synthesizeSpeech, understatedFlac } from '../../test/support/audio-fixtures.js';
import {
  api,
  apiKey,
  filesUnder,
  jsonOf,
  need,
  pathOf,
  send,
  sleep,
  startDrillServer,
  tempDir,
  UNLIMITED,
  type CheckResult,
  type DrillServer,
  type Json,
} from './support.js';

const run = promisify(execFile);
const MOUNT_BYTES = 24 * 1024 * 1024;
const DISK_MESSAGE = /disk space|space on the server|out of space/i;

async function tryMount(dir: string): Promise<boolean> {
  if (process.env.DRILL_NO_MOUNT === '1' || process.getuid?.() !== 0) return false;
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${MOUNT_BYTES},mode=0700`, 'tmpfs', dir]);
    return true;
  } catch {
    return false;
  }
}

const freeBytes = (dir: string) => {
  const stats = fs.statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
};

/** Takes all but `leave` bytes of the file system (tmpfs mode). */
function fill(dataDir: string, leave: number): string {
  const filler = path.join(dataDir, 'drill-filler.bin');
  const size = Math.max(0, freeBytes(dataDir) - leave);
  const fd = fs.openSync(filler, 'w');
  const block = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < size; written += block.length)
    fs.writeSync(fd, block, 0, Math.min(block.length, size - written));
  fs.closeSync(fd);
  return filler;
}

async function waitFinal(base: string, key: string, id: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await api(base, key, 'GET', `/api/v1/transcriptions/${id}`);
    const status = record.json.status ?? '';
    if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(status) || Date.now() > deadline)
      return { status, failure_reason: record.json.failure_reason ?? null };
    await sleep(250);
  }
}

const specBody = (json: Json) =>
  typeof json.error_id === 'string' && typeof json.error_code === 'number' && typeof json.error_message === 'string';

/** Files an upload or a decode could leave behind: partial objects, PCM, and audio of this transcription. */
const leftovers = (dataDir: string, id: string) => [
  ...filesUnder(path.join(dataDir, 'storage', '.tmp')).map((f) => `storage/.tmp/${f}`),
  ...filesUnder(path.join(dataDir, 'work')).map((f) => `work/${f}`),
  ...filesUnder(path.join(dataDir, 'storage'))
    .filter((f) => f.includes(id))
    .map((f) => `storage/${f}`),
];

export async function diskPhase(): Promise<CheckResult[]> {
  const dataDir = tempDir('kikitori-drill-disk-');
  const mounted = await tryMount(dataDir);
  const how = mounted ? `tmpfs ${MOUNT_BYTES / 1024 ** 2} MiB` : 'KIKITORI_MIN_FREE_DISK_BYTES above statfs free';
  const rows: CheckResult[] = [];
  let server: DrillServer | null = null;
  const fixtures = tempDir('kikitori-drill-disk-audio-');
  try {
    const key = await apiKey(dataDir);
    // Nothing held back in tmpfs mode: the writes themselves must meet the full disk.
    const startWith = (minFree: number) =>
      startDrillServer(dataDir, { ...UNLIMITED, KIKITORI_MIN_FREE_DISK_BYTES: String(minFree) });
    // Above the free space by a margin: the disk is shared, and other writers free space meanwhile.
    const full = () => (mounted ? 0 : freeBytes(dataDir) + 256 * 1024 * 1024);
    server = await startWith(full());

    // 1. Uploads: one that says its size (refused before it streams), one chunked (meets the full disk midway).
    const big = Buffer.alloc(mounted ? MOUNT_BYTES + 8 * 1024 * 1024 : 4 * 1024 * 1024, 0x52);
    for (const chunked of [false, true]) {
      const ticket = await api(server.url, key, 'POST', '/api/v1/transcriptions/upload', {
        filename: chunked ? 'chunked.wav' : 'sized.wav',
      });
      const put = await send(server.url, {
        method: 'PUT',
        path: pathOf(ticket.json.audio_upload_url),
        body: big,
        chunked,
      });
      const body = jsonOf(put).json;
      const id = need(ticket.json.transcription_id, 'transcription_id');
      const message = typeof body.error_message === 'string' ? body.error_message : '';
      const record = await api(server.url, key, 'GET', `/api/v1/transcriptions/${id}`);
      const left = leftovers(dataDir, id);
      const alive = (await send(server.url, { method: 'GET', path: '/healthz' })).status === 200;
      const ok =
        put.status === 507 &&
        specBody(body) &&
        DISK_MESSAGE.test(message) &&
        record.json.upload_status === 'PENDING' &&
        left.length === 0 &&
        alive;
      rows.push({
        check: `disk full: upload ${chunked ? 'chunked (no length)' : 'with Content-Length'}`,
        runs: `1 PUT of ${(big.length / 1024 ** 2).toFixed(0)} MiB (${how})`,
        result: `${put.status} ${typeof body.error_code === 'number' ? body.error_code : ''}; upload still PENDING: ${record.json.upload_status === 'PENDING'}; ${left.length} files left`,
        figure: `free ${(freeBytes(dataDir) / 1024 ** 2).toFixed(1)} MiB after`,
        pass: ok,
        notes: [
          `disk: ${chunked ? 'chunked' : 'sized'} upload answered ${put.status}: ${message || put.body.toString().slice(0, 200)}`,
          ...left.map((f) => `disk: left behind ${f}`),
        ],
      });
    }

    // 2. Decoding: the upload fits, the PCM it decodes to does not.
    const speech = await synthesizeSpeech('Decoding this recording needs more disk space than the server has left.');
    const longMp3 = path.join(fixtures, 'ten-minutes.mp3');
    await run('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-stream_loop',
      '-1',
      '-i',
      speech,
      '-t',
      '600',
      '-ac',
      '1',
      '-ar',
      '16000',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '24k',
      longMp3,
    ]);
    const decodeCases: Array<{ name: string; file: string; leave: number }> = [
      // ~19 MB of PCM: refused by the check before decoding.
      { name: 'decode refused up front (10 min mp3)', file: longMp3, leave: 8 * 1024 * 1024 },
    ];
    if (mounted) {
      // The FLAC claims 2 s and decodes to 150 s (4.8 MB): the check passes, ffmpeg meets the full disk.
      decodeCases.push({
        name: 'decode meets ENOSPC (FLAC understating its length)',
        file: await understatedFlac(path.join(fixtures, 'understated.flac')),
        leave: 2 * 1024 * 1024,
      });
    }
    for (const c of decodeCases) {
      // Upload with room to spare, then make the disk full and transcribe.
      await server.stop();
      server = await startWith(0);
      const ticket = await api(server.url, key, 'POST', '/api/v1/transcriptions/upload', {
        filename: path.basename(c.file),
      });
      const id = need(ticket.json.transcription_id, 'transcription_id');
      const put = await send(server.url, {
        method: 'PUT',
        path: pathOf(ticket.json.audio_upload_url),
        body: fs.readFileSync(c.file),
      });
      if (put.status !== 200)
        throw new Error(`the upload for "${c.name}" failed: ${put.status} ${put.body.toString().slice(0, 200)}`);
      let filler: string | null = null;
      if (mounted) filler = fill(dataDir, c.leave);
      else {
        await server.stop();
        server = await startWith(full());
      }
      await api(server.url, key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
      const started = Date.now();
      const final = await waitFinal(server.url, key, id, 180_000);
      const seconds = (Date.now() - started) / 1000;
      const work = filesUnder(path.join(dataDir, 'work'));
      const tmp = filesUnder(path.join(dataDir, 'storage', '.tmp'));
      if (filler) fs.rmSync(filler);
      rows.push({
        check: `disk full: ${c.name}`,
        runs: `1 transcription (${how})`,
        result: `${final.status}; ${work.length + tmp.length} partial files`,
        figure: `${final.status} after ${seconds.toFixed(1)} s (retries)`,
        pass:
          final.status === 'FAILED' &&
          DISK_MESSAGE.test(final.failure_reason ?? '') &&
          work.length === 0 &&
          tmp.length === 0,
        notes: [
          `disk: ${c.name}: ${final.status}: "${final.failure_reason}"`,
          ...[...work, ...tmp].map((f) => `disk: left behind ${f}`),
        ],
      });
    }
    return rows;
  } finally {
    if (server) await server.stop();
    if (mounted) await run('umount', [dataDir]).catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(fixtures, { recursive: true, force: true });
  }
}
