// One contract for every repository, run on SQLite and on a real PostgreSQL: the same Kysely code must
// behave the same on both (ordering, booleans, JSON text, counts as numbers, upserts, atomic updates).
import { sql } from 'kysely';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DialectName } from '../../../../src-server/db/database.js';
import { KyselyAnalysisRepository } from '../../../../src-server/db/analysis-repository.js';
import { KyselyDictionaryRepository } from '../../../../src-server/db/dictionary-repository.js';
import { KyselyKeyRepository, UnknownRoleError } from '../../../../src-server/db/key-repository.js';
import { KyselyReviewRepository } from '../../../../src-server/db/review-repository.js';
import { KyselyStorageUsageRepository } from '../../../../src-server/db/storage-usage-repository.js';
import {
  KyselyTranscriptionRepository,
  type NewTranscription,
} from '../../../../src-server/db/transcription-repository.js';
import { newId } from '../../../../src-server/domain/records.js';
import { teamQuotaBytes } from '../../../../src-server/domain/team-quota.js';
import { DIALECTS, testDatabases } from '../../../support/test-databases.js';

const databases = testDatabases();
afterAll(() => databases.closeAll());

const ticket = (teamId: string, overrides: Partial<NewTranscription> = {}): NewTranscription => ({
  transcriptionId: newId(),
  teamId,
  userId: 'alice',
  dictionaryId: null,
  name: 'meeting.wav',
  languages: ['ja', 'en'],
  transcriptionModel: 'default',
  numSpeakers: null,
  minSpeakers: 2,
  maxSpeakers: 4,
  uploadExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
  createdAt: new Date().toISOString(),
  ...overrides,
});

describe.each(DIALECTS)('repositories on %s', (dialect: DialectName) => {
  let db: Database;
  let keys: KyselyKeyRepository;
  let transcriptions: KyselyTranscriptionRepository;
  let dictionaries: KyselyDictionaryRepository;

  beforeEach(async () => {
    db = await databases.open(dialect);
    keys = new KyselyKeyRepository(db.kysely);
    transcriptions = new KyselyTranscriptionRepository(db.kysely);
    dictionaries = new KyselyDictionaryRepository(db.kysely);
  });

  describe('keys', () => {
    it('creates the team and user with the first key, and authenticates it', async () => {
      const { key, info } = await keys.create({
        teamId: 'acme',
        userId: 'alice',
        userName: 'Alice',
        roles: ['delete'],
      });
      expect(info).toMatchObject({
        teamId: 'acme',
        userId: 'alice',
        userName: 'Alice',
        roles: ['DELETE'],
        revokedAt: null,
      });
      expect(key.startsWith(info.keyPrefix)).toBe(true);
      const caller = await keys.authenticate(key);
      expect(caller).toEqual({
        teamId: 'acme',
        userId: 'alice',
        userName: 'Alice',
        roles: ['DELETE'],
        keyId: info.keyId,
      });
      expect(await keys.authenticate(`${key}x`)).toBeNull();
    });

    it('keeps the team and user on a second key, renaming the user when a name is given', async () => {
      await keys.create({ teamId: 'acme', userId: 'alice', userName: 'Alice', roles: [] });
      await keys.create({ teamId: 'acme', userId: 'alice', roles: [] });
      expect((await keys.list('acme')).map((k) => k.userName)).toEqual(['Alice', 'Alice']);
      await keys.create({ teamId: 'acme', userId: 'alice', userName: 'Alice B.', roles: [] });
      expect((await keys.list('acme')).map((k) => k.userName)).toEqual(['Alice B.', 'Alice B.', 'Alice B.']);
    });

    it('lists by team, revokes by prefix, grants roles only to active keys', async () => {
      const a = await keys.create({ teamId: 'acme', userId: 'alice', roles: [] });
      await keys.create({ teamId: 'other', userId: 'bob', roles: ['ADMIN'] });
      expect((await keys.list()).map((k) => k.teamId).sort()).toEqual(['acme', 'other']);
      expect((await keys.list('acme')).map((k) => k.keyId)).toEqual([a.info.keyId]);

      const granted = await keys.grant(a.info.keyPrefix, ['admin', 'DELETE']);
      expect(granted?.roles).toEqual(['ADMIN', 'DELETE']);
      expect((await keys.authenticate(a.key))?.roles).toEqual(['ADMIN', 'DELETE']);

      const revoked = await keys.revoke(a.info.keyPrefix);
      expect(revoked?.revokedAt).toEqual(expect.any(String));
      expect(await keys.authenticate(a.key)).toBeNull();
      // Revoking again keeps the first time; a revoked key takes no roles.
      expect((await keys.revoke(a.info.keyId))?.revokedAt).toBe(revoked?.revokedAt);
      expect(await keys.grant(a.info.keyId, ['ADMIN'])).toBeNull();
      expect(await keys.revoke('nope')).toBeNull();
      await expect(keys.create({ teamId: 'acme', userId: 'alice', roles: ['ROOT'] })).rejects.toThrow(UnknownRoleError);
    });
  });

  describe('transcriptions', () => {
    beforeEach(async () => {
      await keys.create({ teamId: 'acme', userId: 'alice', userName: 'Alice', roles: [] });
    });

    it('creates, reads back every field, and scopes get() to the team', async () => {
      const input = ticket('acme');
      await transcriptions.create(input);
      const record = await transcriptions.get('acme', input.transcriptionId);
      expect(record).toMatchObject({
        transcriptionId: input.transcriptionId,
        userName: 'Alice',
        languages: ['ja', 'en'],
        minSpeakers: 2,
        maxSpeakers: 4,
        numSpeakers: null,
        status: 'IN_PROGRESS',
        uploadStatus: 'PENDING',
        audioSize: null,
        createdAt: input.createdAt,
        updatedAt: input.createdAt,
      });
      expect(await transcriptions.get('other', input.transcriptionId)).toBeNull();
      expect((await transcriptions.getById(input.transcriptionId))?.teamId).toBe('acme');
      expect(await transcriptions.getById('missing')).toBeNull();
    });

    it('names the user by id when the user is unknown', async () => {
      const input = ticket('acme', { userId: 'ghost' });
      await transcriptions.create(input);
      expect((await transcriptions.getById(input.transcriptionId))?.userName).toBe('ghost');
    });

    it('lists newest first, a page at a time, whatever the timestamps say', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const input = ticket('acme', { createdAt: '2026-01-01T00:00:00.000Z' });
        ids.push(input.transcriptionId);
        await transcriptions.create(input);
      }
      await transcriptions.create(ticket('other'));
      expect((await transcriptions.list('acme', 1, 3)).map((t) => t.transcriptionId)).toEqual(ids.slice(2).reverse());
      expect((await transcriptions.list('acme', 2, 3)).map((t) => t.transcriptionId)).toEqual(
        ids.slice(0, 2).reverse(),
      );
      expect(await transcriptions.list('acme', 3, 3)).toEqual([]);
    });

    it('updates fields as numbers, text and JSON, and moves updatedAt', async () => {
      const input = ticket('acme');
      await transcriptions.create(input);
      await transcriptions.update(input.transcriptionId, {
        languages: ['de'],
        progress: 0.375,
        duration: 3723.25,
        audioSize: 5_000_000_000,
        stage: 'recognizing',
        failureReason: null,
      });
      const record = await transcriptions.getById(input.transcriptionId);
      expect(record).toMatchObject({
        languages: ['de'],
        progress: 0.375,
        duration: 3723.25,
        audioSize: 5_000_000_000,
        stage: 'recognizing',
      });
      expect(record!.updatedAt > input.createdAt || record!.updatedAt === input.createdAt).toBe(true);
      await transcriptions.update(input.transcriptionId, {});
    });

    it('bumps the list version on every change a list shows, a user rename included', async () => {
      const v0 = await transcriptions.listVersion('acme');
      const input = ticket('acme');
      await transcriptions.create(input);
      const v1 = await transcriptions.listVersion('acme');
      expect(v1).toBeGreaterThan(v0);
      await transcriptions.update(input.transcriptionId, { progress: 0.5 });
      const v2 = await transcriptions.listVersion('acme');
      expect(v2).toBeGreaterThan(v1);
      await keys.create({ teamId: 'acme', userId: 'alice', userName: 'Alice Renamed', roles: [] });
      const v3 = await transcriptions.listVersion('acme');
      expect(v3).toBeGreaterThan(v2);
      await transcriptions.delete('acme', input.transcriptionId);
      expect(await transcriptions.listVersion('acme')).toBeGreaterThan(v3);
      expect(typeof v3).toBe('number');
      expect(await transcriptions.listVersion('nobody')).toBe(0);
    });

    it('completes an upload once: of two at the same time, exactly one wins', async () => {
      const input = ticket('acme');
      await transcriptions.create(input);
      const audio = {
        audioKey: 'audio/x',
        audioSize: 1234,
        audioContentType: 'audio/wav',
        audioSha256: 'ab'.repeat(32),
      };
      const results = await Promise.all([
        transcriptions.completeUpload(input.transcriptionId, audio),
        transcriptions.completeUpload(input.transcriptionId, audio),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await transcriptions.completeUpload(input.transcriptionId, audio)).toBe(false);
      expect(await transcriptions.getById(input.transcriptionId)).toMatchObject({
        uploadStatus: 'COMPLETED',
        audioKey: 'audio/x',
        audioSize: 1234,
        audioSha256: 'ab'.repeat(32),
      });

      const cancelled = ticket('acme');
      await transcriptions.create(cancelled);
      await transcriptions.update(cancelled.transcriptionId, { status: 'CANCELLED' });
      expect(await transcriptions.completeUpload(cancelled.transcriptionId, audio)).toBe(false);
    });

    it('cancels only the tickets whose upload expired unused, with their temporary dictionaries', async () => {
      const now = new Date().toISOString();
      const temporary = await dictionaries.create('acme', {
        name: 'ticket words',
        isTemporary: true,
        words: [{ word: 'x' }],
      });
      const kept = await dictionaries.create('acme', { name: 'team words', isTemporary: false, words: [] });
      const expired = ticket('acme', {
        uploadExpiresAt: '2020-01-01T00:00:00.000Z',
        dictionaryId: temporary.dictionaryId,
      });
      const expiredWithTeamDictionary = ticket('acme', {
        uploadExpiresAt: '2020-01-01T00:00:00.000Z',
        dictionaryId: kept.dictionaryId,
      });
      const fresh = ticket('acme');
      const uploaded = ticket('acme', { uploadExpiresAt: '2020-01-01T00:00:00.000Z' });
      for (const t of [expired, expiredWithTeamDictionary, fresh, uploaded]) await transcriptions.create(t);
      await transcriptions.completeUpload(uploaded.transcriptionId, {
        audioKey: 'a',
        audioSize: 1,
        audioContentType: 'audio/wav',
        audioSha256: null,
      });
      const cancelled = await transcriptions.cancelExpiredUploads(now);
      expect(cancelled.sort((a, b) => a.transcriptionId.localeCompare(b.transcriptionId))).toEqual(
        [
          { transcriptionId: expired.transcriptionId, dictionaryId: temporary.dictionaryId },
          { transcriptionId: expiredWithTeamDictionary.transcriptionId, dictionaryId: kept.dictionaryId },
        ].sort((a, b) => a.transcriptionId.localeCompare(b.transcriptionId)),
      );
      expect(await transcriptions.getById(expired.transcriptionId)).toMatchObject({
        status: 'CANCELLED',
        failureReason: 'The audio was never uploaded before the upload URL expired.',
        updatedAt: now,
      });
      expect(await dictionaries.get('acme', temporary.dictionaryId)).toBeNull();
      expect(await dictionaries.words(temporary.dictionaryId)).toEqual([]);
      expect(await dictionaries.get('acme', kept.dictionaryId)).not.toBeNull();
      expect((await transcriptions.getById(fresh.transcriptionId))?.status).toBe('IN_PROGRESS');
      expect(await transcriptions.cancelExpiredUploads(now)).toEqual([]);
    });

    it('deletes within the team only, and counts the audio the team keeps', async () => {
      const usage = new KyselyStorageUsageRepository(db.kysely);
      expect(await usage.audioBytes('acme')).toBe(0);
      const a = ticket('acme');
      const b = ticket('acme');
      await transcriptions.create(a);
      await transcriptions.create(b);
      await transcriptions.completeUpload(a.transcriptionId, {
        audioKey: 'a',
        audioSize: 3_000_000_000,
        audioContentType: 'audio/wav',
        audioSha256: null,
      });
      await transcriptions.completeUpload(b.transcriptionId, {
        audioKey: 'b',
        audioSize: 500,
        audioContentType: 'audio/wav',
        audioSha256: null,
      });
      expect(await usage.audioBytes('acme')).toBe(3_000_000_500);
      expect(await transcriptions.delete('other', a.transcriptionId)).toBe(false);
      expect(await transcriptions.delete('acme', a.transcriptionId)).toBe(true);
      expect(await transcriptions.delete('acme', a.transcriptionId)).toBe(false);
      expect(await usage.audioBytes('acme')).toBe(500);
    });
  });

  describe('upload reservations', () => {
    const reservation = (t: NewTranscription, bytes: number, n = 0) => ({
      uploadId: `${t.transcriptionId}_${String(n).padStart(32, '0')}`,
      transcriptionId: t.transcriptionId,
      teamId: t.teamId,
      bytes,
    });

    it('holds what open uploads declared, a ticket once, and never more than the quota leaves, even when reserved at once', async () => {
      const usage = new KyselyStorageUsageRepository(db.kysely);
      const stored = ticket('acme');
      await transcriptions.create(stored);
      await transcriptions.completeUpload(stored.transcriptionId, {
        audioKey: 's',
        audioSize: 219_000,
        audioContentType: 'audio/wav',
        audioSha256: null,
      });
      const tickets = Array.from({ length: 8 }, () => ticket('acme'));
      for (const t of tickets) await transcriptions.create(t);
      // Eight at once (on PostgreSQL over several connections of the pool): 181 kB left, 150 kB each.
      const outcomes = await Promise.all(
        tickets.map((t) => usage.reserveUpload(reservation(t, 150_000), { quotaBytes: 400_000, maxOpen: 20 })),
      );
      expect(outcomes.filter((o) => o.kind === 'reserved')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'over-quota')).toEqual(
        Array.from({ length: 7 }, () => ({ kind: 'over-quota', quota: 400_000, used: 219_000, reserved: 150_000 })),
      );
      expect(await usage.reservedBytes('acme')).toBe(150_000);
      const holder = tickets[outcomes.findIndex((o) => o.kind === 'reserved')]!;
      expect(await usage.reservedBytes('acme', holder.transcriptionId)).toBe(0);
      // A second upload of the same ticket: the ticket stores one file, so it holds the larger once.
      expect(await usage.reserveUpload(reservation(holder, 170_000, 1), { quotaBytes: 400_000, maxOpen: 20 })).toEqual({
        kind: 'reserved',
      });
      expect(await usage.reservedBytes('acme')).toBe(170_000);
      expect(await usage.reservation(reservation(holder, 0, 1).uploadId)).toEqual(reservation(holder, 170_000, 1));
      expect(await usage.reservedBytes('other')).toBe(0);
      await usage.releaseUpload(reservation(holder, 0, 1).uploadId);
      expect(await usage.reservedBytes('acme')).toBe(150_000);
      expect(await usage.reservation(reservation(holder, 0, 1).uploadId)).toBeNull();
    });

    it('caps open uploads per team, and counts only tickets that still take audio', async () => {
      const usage = new KyselyStorageUsageRepository(db.kysely);
      const [a, b, c] = [ticket('acme'), ticket('acme'), ticket('acme')];
      for (const t of [a, b, c]) await transcriptions.create(t);
      const limits = { quotaBytes: undefined, maxOpen: 2 };
      expect(await usage.reserveUpload(reservation(a, 10), limits)).toEqual({ kind: 'reserved' });
      expect(await usage.reserveUpload(reservation(b, 10), limits)).toEqual({ kind: 'reserved' });
      expect(await usage.reserveUpload(reservation(c, 10), limits)).toEqual({ kind: 'too-many', open: 2, limit: 2 });
      // a's ticket is used by a PUT: its upload no longer counts, and the sweep drops it.
      await transcriptions.completeUpload(a.transcriptionId, {
        audioKey: 'a',
        audioSize: 5,
        audioContentType: 'audio/wav',
        audioSha256: null,
      });
      expect(await usage.reservedBytes('acme')).toBe(10);
      expect(await usage.heldUploads([reservation(a, 0).uploadId, reservation(b, 0).uploadId, 'unknown'])).toEqual(
        new Set([reservation(a, 0).uploadId, reservation(b, 0).uploadId]),
      );
      expect(await usage.releaseEnded()).toBe(1);
      expect(await usage.heldUploads([reservation(a, 0).uploadId, reservation(b, 0).uploadId])).toEqual(
        new Set([reservation(b, 0).uploadId]),
      );
      expect(await usage.reserveUpload(reservation(c, 10), limits)).toEqual({ kind: 'reserved' });
      // Deleting a transcription releases its uploads with it.
      expect(await transcriptions.delete('acme', b.transcriptionId)).toBe(true);
      expect(await usage.reservation(reservation(b, 0).uploadId)).toBeNull();
    });
  });

  describe('team quotas', () => {
    it("keeps a team's own quota (bytes or none) apart from the default, and forgets it on request", async () => {
      const usage = new KyselyStorageUsageRepository(db.kysely);
      expect(await usage.quotaOverride('acme')).toBeUndefined();
      expect(await teamQuotaBytes(usage, 'acme', 1000)).toBe(1000);
      // Past 2^32, as a bigint on PostgreSQL: still a number.
      await usage.setQuotaOverride('acme', 5 * 1024 ** 4);
      expect(await usage.quotaOverride('acme')).toBe(5 * 1024 ** 4);
      expect(await teamQuotaBytes(usage, 'acme', 1000)).toBe(5 * 1024 ** 4);
      expect(await teamQuotaBytes(usage, 'other', 1000)).toBe(1000);
      await usage.setQuotaOverride('acme', null);
      expect(await usage.quotaOverride('acme')).toBeNull();
      expect(await teamQuotaBytes(usage, 'acme', 1000)).toBeUndefined();
      await usage.setQuotaOverride('acme', 42);
      expect(await teamQuotaBytes(usage, 'acme', undefined)).toBe(42);
      await usage.setQuotaOverride('acme', undefined);
      expect(await usage.quotaOverride('acme')).toBeUndefined();
      expect(await teamQuotaBytes(usage, 'acme', undefined)).toBeUndefined();
    });
  });

  describe('dictionaries', () => {
    it('creates with words in order, lists newest first, and updates', async () => {
      const first = await dictionaries.create('acme', { name: 'one', isTemporary: false, words: [] });
      const second = await dictionaries.create('acme', {
        name: 'two',
        isTemporary: true,
        words: [{ word: 'b' }, { word: 'a', reading: 'エー' }],
      });
      await dictionaries.create('other', { name: 'x', isTemporary: false, words: [] });
      expect((await dictionaries.list('acme', 1, 10)).map((d) => [d.name, d.isTemporary])).toEqual([
        ['two', true],
        ['one', false],
      ]);
      expect((await dictionaries.list('acme', 2, 1)).map((d) => d.dictionaryId)).toEqual([first.dictionaryId]);
      expect((await dictionaries.words(second.dictionaryId)).map((w) => [w.word, w.reading])).toEqual([
        ['b', null],
        ['a', 'エー'],
      ]);
      expect(await dictionaries.get('other', first.dictionaryId)).toBeNull();
      const updated = await dictionaries.update('acme', first.dictionaryId, { isTemporary: true });
      expect(updated).toMatchObject({ name: 'one', isTemporary: true });
      expect(await dictionaries.get('acme', first.dictionaryId)).toEqual(updated);
      expect(await dictionaries.update('other', first.dictionaryId, { name: 'no' })).toBeNull();
    });

    it('adds and deletes words, touching the dictionary', async () => {
      const d = await dictionaries.create('acme', { name: 'd', isTemporary: false, words: [] });
      const words = Array.from({ length: 1200 }, (_, i) => ({ word: `w${i}` }));
      const added = await dictionaries.addWords(d.dictionaryId, words);
      expect(added).toHaveLength(1200);
      expect((await dictionaries.words(d.dictionaryId)).map((w) => w.word)).toEqual(words.map((w) => w.word));
      expect(await dictionaries.getWord(d.dictionaryId, added[5]!.wordId)).toEqual(added[5]);
      expect(await dictionaries.deleteWord(d.dictionaryId, added[5]!.wordId)).toBe(true);
      expect(await dictionaries.deleteWord(d.dictionaryId, added[5]!.wordId)).toBe(false);
      expect(await dictionaries.getWord(d.dictionaryId, added[5]!.wordId)).toBeNull();
      expect((await dictionaries.get('acme', d.dictionaryId))!.updatedAt >= d.updatedAt).toBe(true);
    });

    it('keeps replacement rules under the limit, all or nothing, even when requests race', async () => {
      const d = await dictionaries.create('acme', { name: 'd', isTemporary: false, words: [] });
      const rule = (i: number) => ({ pattern: `p${i}`, replacement: `r${i}` });
      const added = await dictionaries.addReplacementRules(d.dictionaryId, [rule(0), rule(1)], 5);
      expect(added?.map((r) => r.pattern)).toEqual(['p0', 'p1']);
      expect(
        await dictionaries.addReplacementRules(d.dictionaryId, [rule(2), rule(3), rule(4), rule(5)], 5),
      ).toBeNull();
      expect(await dictionaries.countReplacementRules(d.dictionaryId)).toBe(2);
      // Three requests of two each against room for three: one fits, the others are refused whole.
      const raced = await Promise.all(
        [2, 4, 6].map((i) => dictionaries.addReplacementRules(d.dictionaryId, [rule(i), rule(i + 1)], 5)),
      );
      expect(raced.filter((r) => r !== null)).toHaveLength(1);
      expect(await dictionaries.countReplacementRules(d.dictionaryId)).toBe(4);
      expect((await dictionaries.replacementRules(d.dictionaryId)).slice(0, 2).map((r) => r.pattern)).toEqual([
        'p0',
        'p1',
      ]);
      expect(await dictionaries.getReplacementRule(d.dictionaryId, added![0]!.replacementRuleId)).toEqual(added![0]);
      expect(await dictionaries.deleteReplacementRule(d.dictionaryId, added![0]!.replacementRuleId)).toBe(true);
      expect(await dictionaries.deleteReplacementRule(d.dictionaryId, added![0]!.replacementRuleId)).toBe(false);
    });

    it('deletes a dictionary with its words and replacement rules', async () => {
      const d = await dictionaries.create('acme', { name: 'd', isTemporary: false, words: [{ word: 'x' }] });
      await dictionaries.addReplacementRules(d.dictionaryId, [{ pattern: 'p', replacement: 'r' }]);
      expect(await dictionaries.delete('other', d.dictionaryId)).toBe(false);
      expect(await dictionaries.delete('acme', d.dictionaryId)).toBe(true);
      expect(await dictionaries.words(d.dictionaryId)).toEqual([]);
      expect(await dictionaries.countReplacementRules(d.dictionaryId)).toBe(0);
    });
  });

  describe('reviews and analyses', () => {
    let transcriptionId: string;
    beforeEach(async () => {
      const input = ticket('acme');
      await transcriptions.create(input);
      transcriptionId = input.transcriptionId;
    });

    it('reads a review saved before revisions', async () => {
      const reviews = new KyselyReviewRepository(db.kysely);
      expect(await reviews.get(transcriptionId)).toBeNull();
      const at = new Date().toISOString();
      await db.kysely
        .insertInto('reviews')
        .values({ transcription_id: transcriptionId, reviewed_text: 'second 二回目', created_at: at, updated_at: at })
        .execute();
      expect(await reviews.get(transcriptionId)).toBe('second 二回目');
    });

    it('begins, completes and fails analyses; a translation without a language is the latest requested', async () => {
      const analyses = new KyselyAnalysisRepository(db.kysely);
      await analyses.begin(transcriptionId, 'summary', '');
      await analyses.complete(transcriptionId, 'summary', '', { text: 'short', points: [1, 2] }, 'extractive');
      expect(await analyses.get(transcriptionId, 'summary')).toMatchObject({
        status: 'COMPLETED',
        result: { text: 'short', points: [1, 2] },
        engine: 'extractive',
        error: null,
      });
      // Beginning again clears the earlier result.
      await analyses.begin(transcriptionId, 'summary', '');
      expect(await analyses.get(transcriptionId, 'summary', '')).toMatchObject({
        status: 'IN_PROGRESS',
        result: null,
        engine: null,
      });
      await analyses.fail(transcriptionId, 'summary', '', 'no engine', 'unavailable');
      expect(await analyses.get(transcriptionId, 'summary')).toMatchObject({
        status: 'FAILED',
        error: 'no engine',
        errorCode: 'unavailable',
      });

      await analyses.begin(transcriptionId, 'translation', 'en');
      await analyses.begin(transcriptionId, 'translation', 'de');
      expect((await analyses.get(transcriptionId, 'translation'))?.language).toBe('de');
      expect((await analyses.get(transcriptionId, 'translation', 'en'))?.language).toBe('en');
      expect(await analyses.get(transcriptionId, 'emotion')).toBeNull();
    });
  });

  it('lists a page of 10,000 transcriptions (figures printed, not asserted)', async () => {
    await keys.create({ teamId: 'big', userId: 'alice', roles: [] });
    await db.kysely.transaction().execute(async (trx) => {
      const repo = new KyselyTranscriptionRepository(trx);
      for (let i = 0; i < 10_000; i++) await repo.create(ticket('big'));
    });
    // Statistics as autovacuum would have them on a database in use.
    if (dialect === 'postgres') await sql`ANALYZE`.execute(db.kysely);
    // The first page (what the app asks for most) and a deep one (OFFSET 8,000), 20 runs each.
    for (const page of [1, 81]) {
      const runs: number[] = [];
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        expect(await transcriptions.list('big', page, 100)).toHaveLength(100);
        runs.push(performance.now() - started);
      }
      runs.sort((a, b) => a - b);
      console.log(
        `[${dialect}] list page ${page} (100 of 10,000 transcriptions): median ${runs[10]!.toFixed(2)} ms, max ${runs.at(-1)!.toFixed(2)} ms`,
      );
    }
  });
});
