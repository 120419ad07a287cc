// The voice library's repository (decision 0065) on SQLite and PostgreSQL: team scope, samples in order with
// their numbers as numbers, a PATCH all or nothing, prints deleted with their voice and kept when their
// transcription goes.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, DialectName } from '../../../../src-server/db/database.js';
import { KyselyVoiceRepository, type NewVoiceSample } from '../../../../src-server/db/voice-repository.js';
import { DIALECTS, testDatabases } from '../../../support/test-databases.js';

const databases = testDatabases();
afterAll(() => databases.closeAll());

const sample = (transcriptionId: string, start: number, values = [120, 0.5, -1.25]): NewVoiceSample => ({
  transcriptionId,
  start,
  end: start + 2.5,
  speechSeconds: 2.25,
  print: { kind: 'test-kind', values },
});

describe.each(DIALECTS)('voice repository on %s', (dialect: DialectName) => {
  let db: Database;
  let voices: KyselyVoiceRepository;

  beforeEach(async () => {
    db = await databases.open(dialect);
    voices = new KyselyVoiceRepository(db.kysely);
  });

  it('creates a voice with its samples, scoped to its team', async () => {
    const alice = await voices.create('acme', 'Alice', [sample('t1', 0.5), sample('t2', 10.125)]);
    await voices.create('globex', 'Mallory', [sample('t9', 1)]);
    expect(await voices.get('acme', alice.voiceId)).toEqual(alice);
    expect(await voices.get('globex', alice.voiceId)).toBeNull();
    expect((await voices.list('acme', 1, 20)).map((v) => v.name)).toEqual(['Alice']);
    const samples = await voices.samples([alice.voiceId]);
    expect(samples.map((s) => [s.transcriptionId, s.start, s.end, s.speechSeconds])).toEqual([
      ['t1', 0.5, 3, 2.25],
      ['t2', 10.125, 12.625, 2.25],
    ]);
    expect(await voices.enrolled('acme')).toEqual([
      {
        speakerId: alice.voiceId,
        name: 'Alice',
        prints: [
          { kind: 'test-kind', values: [120, 0.5, -1.25] },
          { kind: 'test-kind', values: [120, 0.5, -1.25] },
        ],
      },
    ]);
    expect((await voices.enrolled('globex')).map((v) => v.name)).toEqual(['Mallory']);
  });

  it('renames, adds and removes in one transaction, or not at all when the check refuses', async () => {
    const bob = await voices.create('acme', 'Bob', [sample('t1', 0), sample('t1', 5)]);
    const [first, second] = await voices.samples([bob.voiceId]);
    const refused = voices.update(
      'acme',
      bob.voiceId,
      { name: 'Robert', add: [], removeSampleIds: [first!.sampleId] },
      () => {
        throw new Error('too little speech');
      },
    );
    await expect(refused).rejects.toThrow('too little speech');
    expect((await voices.get('acme', bob.voiceId))!.name).toBe('Bob');
    expect(await voices.samples([bob.voiceId])).toHaveLength(2);

    let seen: string[] = [];
    const updated = await voices.update(
      'acme',
      bob.voiceId,
      { name: 'Robert', add: [sample('t3', 7)], removeSampleIds: [first!.sampleId] },
      (after) => (seen = after.map((s) => s.transcriptionId)),
    );
    expect(updated!.name).toBe('Robert');
    expect(seen).toEqual(['t1', 't3']);
    const after = await voices.samples([bob.voiceId]);
    expect(after.map((s) => s.sampleId)).toContain(second!.sampleId);
    expect(after.map((s) => s.transcriptionId)).toEqual(['t1', 't3']);
    expect(
      await voices.update('globex', bob.voiceId, { name: 'X', add: [], removeSampleIds: [] }, () => undefined),
    ).toBeNull();
  });

  it('deletes the prints with their voice, and only in its team', async () => {
    const carol = await voices.create('acme', 'Carol', [sample('t1', 0)]);
    expect(await voices.delete('globex', carol.voiceId)).toBe(false);
    expect(await voices.delete('acme', carol.voiceId)).toBe(true);
    expect(await db.kysely.selectFrom('voice_prints').selectAll().execute()).toEqual([]);
    expect(await voices.enrolled('acme')).toEqual([]);
  });
});
