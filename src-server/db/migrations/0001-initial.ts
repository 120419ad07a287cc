// Teams, users, hashed API keys, dictionaries, transcriptions, reviews and (SQLite only) the job queue.
import { sql } from 'kysely';
import { isPostgres, withRowId } from './dialect.js';
import type { ServerMigration } from './index.js';

export const migration0001: ServerMigration = {
  version: 1,
  name: '0001-initial',
  async up(db) {
    const pg = isPostgres(db);
    await db.schema
      .createTable('teams')
      .addColumn('team_id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('list_version', pg ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.team_id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('users_pk', ['team_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('key_id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addForeignKeyConstraint('api_keys_user_fk', ['team_id', 'user_id'], 'users', ['team_id', 'user_id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();

    await withRowId(db, db.schema.createTable('dictionaries'))
      .addColumn('dictionary_id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('is_temporary', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // Newest first is row id order; SQLite's index carries the rowid, PostgreSQL's names it.
    await db.schema
      .createIndex('dictionaries_by_team')
      .on('dictionaries')
      .columns(pg ? ['team_id', 'rowid'] : ['team_id'])
      .execute();

    await withRowId(db, db.schema.createTable('words'))
      .addColumn('word_id', 'text', (c) => c.primaryKey())
      .addColumn('dictionary_id', 'text', (c) =>
        c.notNull().references('dictionaries.dictionary_id').onDelete('cascade'),
      )
      .addColumn('word', 'text', (c) => c.notNull())
      .addColumn('reading', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('words_by_dictionary').on('words').column('dictionary_id').execute();

    await withRowId(db, db.schema.createTable('blacklist_words'))
      .addColumn('blacklist_word_id', 'text', (c) => c.primaryKey())
      .addColumn('dictionary_id', 'text', (c) =>
        c.notNull().references('dictionaries.dictionary_id').onDelete('cascade'),
      )
      .addColumn('pattern', 'text', (c) => c.notNull())
      .addColumn('replacement', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('blacklist_words_by_dictionary')
      .on('blacklist_words')
      .column('dictionary_id')
      .execute();

    await withRowId(db, db.schema.createTable('transcriptions'))
      .addColumn('transcription_id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('dictionary_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('languages', 'text', (c) => c.notNull())
      .addColumn('transcription_model', 'text', (c) => c.notNull())
      .addColumn('num_speakers', 'integer')
      .addColumn('min_speakers', 'integer')
      .addColumn('max_speakers', 'integer')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('upload_status', 'text', (c) => c.notNull())
      .addColumn('upload_expires_at', 'text', (c) => c.notNull())
      .addColumn('audio_key', 'text')
      .addColumn('audio_size', pg ? 'bigint' : 'integer')
      .addColumn('audio_content_type', 'text')
      .addColumn('transcript_key', 'text')
      .addColumn('duration', pg ? 'double precision' : 'real')
      .addColumn('speaking_duration', pg ? 'double precision' : 'real')
      .addColumn('progress', pg ? 'double precision' : 'real')
      .addColumn('failure_reason', 'text')
      .addColumn('engine', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('transcriptions_by_team')
      .on('transcriptions')
      .columns(pg ? ['team_id', 'rowid'] : ['team_id'])
      .execute();
    await db.schema
      .createIndex('transcriptions_pending_upload')
      .on('transcriptions')
      .column('upload_expires_at')
      .where(sql.ref('upload_status'), '=', 'PENDING')
      .execute();

    // Any change that a transcription list would show bumps the team's list_version, so a cached
    // list page is known to be current with one indexed read, from any server process.
    if (pg) {
      await sql`CREATE FUNCTION bump_team_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' THEN
            UPDATE teams SET list_version = list_version + 1 WHERE team_id = OLD.team_id;
            RETURN OLD;
          ELSIF TG_OP = 'UPDATE' THEN
            UPDATE teams SET list_version = list_version + 1 WHERE team_id IN (OLD.team_id, NEW.team_id);
          ELSE
            UPDATE teams SET list_version = list_version + 1 WHERE team_id = NEW.team_id;
          END IF;
          RETURN NEW;
        END $$`.execute(db);
      await sql`CREATE TRIGGER transcriptions_list_version AFTER INSERT OR UPDATE OR DELETE ON transcriptions
        FOR EACH ROW EXECUTE FUNCTION bump_team_list_version()`.execute(db);
      await sql`CREATE TRIGGER users_list_version AFTER UPDATE OF name ON users
        FOR EACH ROW EXECUTE FUNCTION bump_team_list_version()`.execute(db);
    } else {
      await sql`CREATE TRIGGER transcriptions_insert_version AFTER INSERT ON transcriptions BEGIN
        UPDATE teams SET list_version = list_version + 1 WHERE team_id = NEW.team_id;
      END`.execute(db);
      await sql`CREATE TRIGGER transcriptions_update_version AFTER UPDATE ON transcriptions BEGIN
        UPDATE teams SET list_version = list_version + 1 WHERE team_id IN (OLD.team_id, NEW.team_id);
      END`.execute(db);
      await sql`CREATE TRIGGER transcriptions_delete_version AFTER DELETE ON transcriptions BEGIN
        UPDATE teams SET list_version = list_version + 1 WHERE team_id = OLD.team_id;
      END`.execute(db);
      await sql`CREATE TRIGGER users_update_version AFTER UPDATE OF name ON users BEGIN
        UPDATE teams SET list_version = list_version + 1 WHERE team_id = NEW.team_id;
      END`.execute(db);
    }

    await db.schema
      .createTable('reviews')
      .addColumn('transcription_id', 'text', (c) =>
        c.primaryKey().references('transcriptions.transcription_id').onDelete('cascade'),
      )
      .addColumn('reviewed_text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    // The embedded queue's table (src-server/jobs/sqlite-job-queue.ts); on PostgreSQL the queue keeps its own schema.
    if (!pg) {
      await db.schema
        .createTable('jobs')
        .addColumn('job_id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('singleton_key', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_after', 'text', (c) => c.notNull())
        .addColumn('worker_id', 'text')
        .addColumn('heartbeat_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_ready').on('jobs').columns(['state', 'run_after']).execute();
      await db.schema
        .createIndex('jobs_singleton')
        .unique()
        .on('jobs')
        .column('singleton_key')
        .where(sql.ref('state'), 'in', ['queued', 'active'])
        .execute();
    }
  },
};
