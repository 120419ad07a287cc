// npm run bench:revisions — a 3-hour transcript (about 27,000 words in 2,250 segments) edited 2,000 times
// through the revision store (decision 0052), on the server's SQLite database and file storage in a temporary
// data dir (or PostgreSQL with KIKITORI_DATABASE_URL): the time per edit (read the latest, apply, write the
// revision), then the time to read the latest revision, an old one, and the list.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { loadConfig } from '../src-server/config.js';
import { openDatabase } from '../src-server/db/database.js';
import { KyselyKeyRepository } from '../src-server/db/key-repository.js';
import { KyselyReviewRepository } from '../src-server/db/review-repository.js';
import { KyselyRevisionRepository } from '../src-server/db/revision-repository.js';
import { KyselyTranscriptionRepository } from '../src-server/db/transcription-repository.js';
import { RevisionStore } from '../src-server/domain/revision-store.js';
import { SNAPSHOT_EVERY } from '../src-server/domain/revisions.js';
import { FileSystemStorage } from '../src-server/storage/file-system-storage.js';
import type { TranscriptDocument, TranscriptSegment } from '../src-shared/transcript-document.js';
import { applyOperations, type EditOperation } from '../src-shared/transcript-editing.js';
import { median } from './stats.js';

const HOURS = Number(process.env.BENCH_HOURS ?? 3);
const EDITS = Number(process.env.BENCH_EDITS ?? 2_000);
const READS = Number(process.env.BENCH_READS ?? 20);
const WORDS_PER_MINUTE = 150;
const PER_SEGMENT = 12;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-revisions-'));
const config = loadConfig({ dataDir }, process.env);
const database = await openDatabase(config);
const db = database.kysely;
const storage = new FileSystemStorage(path.join(dataDir, 'storage'));

// A transcription to hang the revisions on, as the server's would be.
await new KyselyKeyRepository(db).create({ teamId: 'bench', userId: 'u1', userName: 'Bench', roles: [] });
const transcriptions = new KyselyTranscriptionRepository(db);
const transcriptionId = `bench-${Date.now()}`;
await transcriptions.create({
  transcriptionId,
  teamId: 'bench',
  userId: 'u1',
  dictionaryId: null,
  name: 'three-hours.wav',
  languages: ['en'],
  transcriptionModel: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  uploadExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
  createdAt: new Date().toISOString(),
});
const key = `transcripts/${transcriptionId}.json`;

const totalWords = HOURS * 60 * WORDS_PER_MINUTE;
const secondsPerWord = 60 / WORDS_PER_MINUTE;
const segments: TranscriptSegment[] = [];
for (let first = 0; first < totalWords; first += PER_SEGMENT) {
  const words = Array.from({ length: Math.min(PER_SEGMENT, totalWords - first) }, (_, j) => ({
    word: `word${(first + j) % 997}`,
    start: (first + j) * secondsPerWord,
    end: (first + j + 1) * secondsPerWord,
    confidence: 0.9,
  }));
  segments.push({
    id: segments.length,
    start: words[0]!.start,
    end: words.at(-1)!.end,
    speaker: `SPEAKER_${(segments.length % 3) + 1}`,
    text: words.map((w) => w.word).join(' '),
    words,
  });
}
const recognized: TranscriptDocument = {
  transcription_id: transcriptionId,
  text: segments.map((s) => s.text).join(' '),
  language: 'en',
  duration: HOURS * 3600,
  speaking_duration: HOURS * 3600,
  segments,
  replacements: [],
  engine: { name: 'bench', model: 'synthetic', transcription_model: 'default' },
  created_at: new Date().toISOString(),
};
await storage.put(key, Readable.from([Buffer.from(JSON.stringify(recognized))]));
await transcriptions.update(transcriptionId, { status: 'COMPLETED', transcriptKey: key });
const record = (await transcriptions.getById(transcriptionId))!;

const revisions = new RevisionStore(new KyselyRevisionRepository(db), storage, new KyselyReviewRepository(db));
const author = { userId: 'u1', name: 'Bench' };

/** Mostly word and text corrections, now and then a split, a merge, a speaker change or a name. */
function operationFor(i: number, document: TranscriptDocument): EditOperation {
  const segment = document.segments[(i * 7919) % document.segments.length]!;
  switch (i % 20) {
    case 5:
      return { kind: 'split', segmentId: segment.id, wordIndex: Math.max(1, Math.floor(segment.words.length / 2)) };
    case 11:
      return document.segments.at(-1)!.id === segment.id
        ? { kind: 'text', segmentId: segment.id, text: `${segment.text} end` }
        : { kind: 'merge', segmentId: segment.id };
    case 13:
      return { kind: 'speaker', segmentId: segment.id, speaker: 'SPEAKER_2' };
    case 17:
      return { kind: 'speaker-name', speaker: 'SPEAKER_1', name: `Speaker ${i}` };
    case 3:
    case 9:
      return { kind: 'text', segmentId: segment.id, text: `${segment.text} corrected ${i}` };
    default:
      return { kind: 'word', segmentId: segment.id, wordIndex: i % segment.words.length, text: `fixed${i}` };
  }
}

console.log(
  `revisions: ${HOURS} h transcript, ${segments.length} segments, ${totalWords} words; ${EDITS} edits; snapshot every ${SNAPSHOT_EVERY}; ${config.database.url ? 'PostgreSQL' : 'SQLite'}`,
);
await revisions.latest(record); // revision 1
const writes: number[] = [];
for (let i = 0; i < EDITS; i++) {
  const t0 = performance.now();
  const outcome = await revisions.commit<string>(record, { author, source: 'edit' }, ({ document }) => {
    const applied = applyOperations(document, [operationFor(i, document)]);
    return applied.ok ? { document: applied.document, summary: `edit ${i}` } : { refusal: applied.message };
  });
  writes.push(performance.now() - t0);
  if (outcome.kind === 'refused') throw new Error(`edit ${i} refused: ${outcome.refusal}`);
}

function time(what: string, runs: number[]) {
  const sorted = [...runs].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
  console.log(
    `  ${what.padEnd(38)} median ${median(runs).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms (${runs.length} runs)`,
  );
}
async function repeat(run: () => Promise<unknown>): Promise<number[]> {
  const runs: number[] = [];
  for (let i = 0; i < READS; i++) {
    const t0 = performance.now();
    await run();
    runs.push(performance.now() - t0);
  }
  return runs;
}

time('write one edit (read latest + write)', writes);
time('  the first 100 edits', writes.slice(0, 100));
time('  the last 100 edits', writes.slice(-100));
const latest = await revisions.latest(record);
const repository = new KyselyRevisionRepository(db);
const reviews = new KyselyReviewRepository(db);
// Cold: as another process would, which holds nothing parsed (snapshot + up to 49 changes).
time(
  `read the latest (revision ${latest.revision}), cold`,
  await repeat(() => new RevisionStore(repository, storage, reviews).latest(record)),
);
time('read the latest, warm (this process wrote it)', await repeat(() => revisions.latest(record)));
time(
  'read revision 1,000, cold',
  await repeat(() => new RevisionStore(repository, storage, reviews).at(record, 1_000)),
);
time('read the list of revisions', await repeat(() => revisions.list(record)));

const size = await sql<{ rows: number; changes: number; snapshots: number }>`
  SELECT count(*) AS rows, sum(length(change)) AS changes, sum(length(snapshot)) AS snapshots
  FROM transcript_revisions WHERE transcription_id = ${transcriptionId}`.execute(db);
const { rows, changes, snapshots } = size.rows[0]!;
const documentBytes = JSON.stringify(latest.document).length;
console.log(
  `  stored: ${rows} revisions, changes ${(Number(changes) / 1e6).toFixed(1)} MB, snapshots ${(Number(snapshots) / 1e6).toFixed(1)} MB; one document ${(documentBytes / 1e6).toFixed(1)} MB (a copy per edit would be ${((documentBytes * EDITS) / 1e9).toFixed(1)} GB)`,
);

await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
