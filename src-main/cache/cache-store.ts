// One profile's cache: the database and a repository per concern.
import { AnalysisRepository } from './analysis-repository.js';
import { AudioRepository } from './audio-repository.js';
import { TRUNCATE_WAL_SQL } from '../../src-shared/sqlite-secure-delete.js';
import { openCacheDatabase, type CacheDb } from './database.js';
import { DictionaryRepository } from './dictionary-repository.js';
import { DocumentRepository } from './document-repository.js';
import { EditRepository } from './edit-repository.js';
import { OutboxRepository } from './outbox-repository.js';
import { SearchIndex } from './search-index.js';
import { TranscriptionRepository } from './transcription-repository.js';
import { UploadRepository } from './upload-repository.js';
import { VoiceRepository } from './voice-repository.js';

export interface CacheStore {
  db: CacheDb;
  transcriptions: TranscriptionRepository;
  documents: DocumentRepository;
  audio: AudioRepository;
  dictionaries: DictionaryRepository;
  voices: VoiceRepository;
  analyses: AnalysisRepository;
  uploads: UploadRepository;
  edits: EditRepository;
  outbox: OutboxRepository;
  search: SearchIndex;
  /** After a delete commits: the WAL goes into the database file and is truncated (decision 0047). */
  truncateWal(): void;
  close(): void;
}

export function cacheStoreOf(db: CacheDb): CacheStore {
  return {
    db,
    transcriptions: new TranscriptionRepository(db),
    documents: new DocumentRepository(db),
    audio: new AudioRepository(db),
    dictionaries: new DictionaryRepository(db),
    voices: new VoiceRepository(db),
    analyses: new AnalysisRepository(db),
    uploads: new UploadRepository(db),
    edits: new EditRepository(db),
    outbox: new OutboxRepository(db),
    search: new SearchIndex(db),
    truncateWal: () => void db.prepare(TRUNCATE_WAL_SQL).get(),
    close: () => db.close(),
  };
}

/** Opens the cache database at `file` (':memory:' for tests) with its repositories. */
export function openCacheStore(file: string): CacheStore {
  return cacheStoreOf(openCacheDatabase(file));
}
