// Realistic cached transcriptions for benchmarks and tests: records, transcript documents with timed
// words, and their search index, as if synced from a server. Deterministic for a given `seed`.
import type { ApiTranscription } from '../../src-shared/api-types.js';
import type { TranscriptDocument, TranscriptSegment } from '../../src-shared/transcript-document.js';
import { seededRandom } from '../../src-shared/seeded-random.js';
import { cacheStoreOf } from './cache-store.js';
import type { CacheDb } from './database.js';

const WORDS = (
  'the a we our team meeting budget quarter project release customer design review plan schedule deadline ' +
  'friday monday next week report sales marketing engineering product feature launch support ticket issue ' +
  'agree decide discuss follow up action item update status risk cost estimate hire interview onboarding ' +
  'server database migration backup security audit contract invoice payment travel conference slides demo ' +
  'think should will need can maybe definitely important urgent later today tomorrow morning afternoon'
).split(' ');

const TITLES = [
  'Weekly sync',
  'Customer call',
  'Design review',
  'Interview',
  'All hands',
  'Standup',
  'Budget planning',
  'Retro',
];

export interface SeedOptions {
  /** Segments per transcript, from..to. */
  segments?: [number, number];
  seed?: number;
  /** Share of transcriptions that are still processing or failed instead of COMPLETED. */
  unfinishedShare?: number;
}

/**
 * Inserts `n` cached transcriptions into an (already migrated) cache database. Returns their ids,
 * newest first.
 */
export function seedCache(db: CacheDb, n: number, options: SeedOptions = {}): string[] {
  const store = cacheStoreOf(db);
  const random = seededRandom(options.seed ?? 42);
  const [minSegments, maxSegments] = options.segments ?? [20, 120];
  const unfinished = options.unfinishedShare ?? 0.05;
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const ids: string[] = [];
  const base = Date.UTC(2025, 0, 1);
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = `seed-${(options.seed ?? 42).toString(36)}-${i.toString().padStart(7, '0')}`;
      const created = new Date(base + i * 3_600_000).toISOString();
      const roll = random();
      const status = roll < unfinished / 2 ? 'IN_PROGRESS' : roll < unfinished ? 'FAILED' : 'COMPLETED';
      const segmentCount = minSegments + Math.floor(random() * (maxSegments - minSegments + 1));
      const speakers = 1 + Math.floor(random() * 3);
      const segments: TranscriptSegment[] = [];
      let t = 0.5;
      for (let s = 0; s < segmentCount; s++) {
        const words = Array.from({ length: 4 + Math.floor(random() * 14) }, () => {
          const word = pick(WORDS);
          const start = t;
          t += 0.15 + random() * 0.35;
          return {
            word,
            start: Math.round(start * 100) / 100,
            end: Math.round(t * 100) / 100,
            confidence: Math.round((0.6 + random() * 0.4) * 100) / 100,
          };
        });
        segments.push({
          id: s,
          start: words[0]!.start,
          end: words.at(-1)!.end,
          speaker: speakers > 1 ? `SPEAKER_${1 + Math.floor(random() * speakers)}` : null,
          text: words.map((w) => w.word).join(' '),
          words,
        });
        t += 0.3 + random() * 1.5;
      }
      const duration = Math.round((t + 1) * 100) / 100;
      const name = `${pick(TITLES)} ${created.slice(0, 10)}.m4a`;
      const record: ApiTranscription = {
        transcription_id: id,
        dictionary_id: null,
        team_id: 'seed',
        name,
        user: { user_id: 'seed', name: 'Seed User' },
        transcription_path:
          status === 'COMPLETED' ? `http://127.0.0.1:1/files/transcript/${id}?expires=0&signature=seed` : null,
        audio_path: `http://127.0.0.1:1/files/audio/${id}?expires=0&signature=seed`,
        transcription_model: 'default',
        status,
        speaking_duration: status === 'COMPLETED' ? Math.round(duration * 0.8 * 100) / 100 : null,
        created_at: created,
        updated_at: created,
        language: ['en'],
        upload_status: 'COMPLETED',
        progress: status === 'IN_PROGRESS' ? Math.round(random() * 100) / 100 : null,
        duration,
        failure_reason: status === 'FAILED' ? 'The audio could not be decoded.' : null,
      };
      store.transcriptions.upsertFromApi(record, created);
      if (status === 'COMPLETED') {
        const document: TranscriptDocument = {
          transcription_id: id,
          text: segments.map((s) => s.text).join(' '),
          language: 'en',
          duration,
          speaking_duration: record.speaking_duration!,
          segments,
          replacements: [],
          engine: { name: 'seed', model: 'seed', transcription_model: 'default' },
          created_at: created,
        };
        store.documents.put(id, document);
        store.search.indexTranscript(id, segments);
      }
      ids.push(id);
    }
  })();
  return ids.reverse();
}
