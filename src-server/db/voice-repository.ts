// The team voice library (decision 0065): voices and their samples' prints (tables `voices`, `voice_prints`).
import { sql, type Selectable } from 'kysely';
import { truncateWalAfterDelete } from './database.js';
import type { Kdb, VoicePrintTable, VoiceTable } from './schema.js';
import { isPostgres } from './migrations/dialect.js';
import { newId, nowIso, type VoiceRecord, type VoiceSampleRecord } from '../domain/records.js';
import type { EnrolledVoice, VoicePrint } from '../domain/voice-prints.js';

export interface NewVoiceSample {
  transcriptionId: string;
  start: number;
  end: number;
  speechSeconds: number;
  print: VoicePrint;
}

export interface VoiceRepository {
  list(teamId: string, page: number, pageSize: number): Promise<VoiceRecord[]>;
  get(teamId: string, voiceId: string): Promise<VoiceRecord | null>;
  /**
   * The voice and its samples in one transaction. `check` sees how many voices the team has, inside the
   * transaction, and throws to refuse the voice.
   */
  create(
    teamId: string,
    name: string,
    samples: NewVoiceSample[],
    check?: (voices: number) => void,
  ): Promise<VoiceRecord>;
  /** How many voices the team has. */
  count(teamId: string): Promise<number>;
  /**
   * Renames, adds and removes samples in one transaction; null when the voice is not the team's. `check` sees
   * the samples the voice would have, inside the transaction, and throws to refuse the change.
   */
  update(
    teamId: string,
    voiceId: string,
    change: { name?: string; add: NewVoiceSample[]; removeSampleIds: string[] },
    check: (after: VoiceSampleRecord[]) => void,
  ): Promise<VoiceRecord | null>;
  /** Deletes the voice with its prints. */
  delete(teamId: string, voiceId: string): Promise<boolean>;
  samples(voiceIds: string[]): Promise<VoiceSampleRecord[]>;
  /** Every voice of the team with its prints, for recognition. */
  enrolled(teamId: string): Promise<EnrolledVoice[]>;
}

const toVoice = (r: Selectable<VoiceTable>): VoiceRecord => ({
  voiceId: r.voice_id,
  teamId: r.team_id,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toSample = (r: Omit<Selectable<VoicePrintTable>, 'print' | 'kind' | 'rowid'>): VoiceSampleRecord => ({
  sampleId: r.print_id,
  voiceId: r.voice_id,
  transcriptionId: r.transcription_id,
  start: Number(r.start_seconds),
  end: Number(r.end_seconds),
  speechSeconds: Number(r.speech_seconds),
  createdAt: r.created_at,
});
const SAMPLE_COLUMNS = [
  'print_id',
  'voice_id',
  'transcription_id',
  'start_seconds',
  'end_seconds',
  'speech_seconds',
  'created_at',
] as const;

function sampleRows(voiceId: string, samples: NewVoiceSample[], now: string) {
  return samples.map((s) => ({
    print_id: newId(),
    voice_id: voiceId,
    transcription_id: s.transcriptionId,
    start_seconds: s.start,
    end_seconds: s.end,
    speech_seconds: s.speechSeconds,
    kind: s.print.kind,
    print: JSON.stringify(s.print.values),
    created_at: now,
  }));
}

export class KyselyVoiceRepository implements VoiceRepository {
  constructor(private readonly db: Kdb) {}

  async list(teamId: string, page: number, pageSize: number) {
    const rows = await this.db
      .selectFrom('voices')
      .selectAll()
      .where('team_id', '=', teamId)
      .orderBy('rowid', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    return rows.map(toVoice);
  }

  async get(teamId: string, voiceId: string) {
    const row = await this.db
      .selectFrom('voices')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('voice_id', '=', voiceId)
      .executeTakeFirst();
    return row ? toVoice(row) : null;
  }

  async create(teamId: string, name: string, samples: NewVoiceSample[], check?: (voices: number) => void) {
    const now = nowIso();
    const voice = { voice_id: newId(), team_id: teamId, name, created_at: now, updated_at: now };
    await this.db.transaction().execute(async (trx) => {
      // SQLite's transactions take the write lock as they begin (database.ts); on PostgreSQL a lock per team
      // makes two enrolments of one team take turns, so both cannot pass the check on the same count.
      if (check) {
        if (isPostgres(trx))
          await sql`SELECT pg_advisory_xact_lock(hashtext(${`kikitori-voices:${teamId}`}))`.execute(trx);
        check(await countVoices(trx, teamId));
      }
      await trx.insertInto('voices').values(voice).execute();
      if (samples.length > 0)
        await trx
          .insertInto('voice_prints')
          .values(sampleRows(voice.voice_id, samples, now))
          .execute();
    });
    return toVoice({ ...voice, rowid: 0 });
  }

  async update(
    teamId: string,
    voiceId: string,
    change: { name?: string; add: NewVoiceSample[]; removeSampleIds: string[] },
    check: (after: VoiceSampleRecord[]) => void,
  ) {
    return this.db.transaction().execute(async (trx) => {
      // The voice's row locked on PostgreSQL (SQLite has one writer anyway): two concurrent changes cannot both
      // pass the check on the samples they each saw.
      let query = trx.selectFrom('voices').selectAll().where('team_id', '=', teamId).where('voice_id', '=', voiceId);
      if (isPostgres(trx)) query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return null;
      const now = nowIso();
      const current = (
        await trx.selectFrom('voice_prints').select(SAMPLE_COLUMNS).where('voice_id', '=', voiceId).execute()
      ).map(toSample);
      const added = sampleRows(voiceId, change.add, now);
      const remove = new Set(change.removeSampleIds);
      check([...current.filter((s) => !remove.has(s.sampleId)), ...added.map(toSample)]);
      if (remove.size > 0)
        await trx
          .deleteFrom('voice_prints')
          .where('voice_id', '=', voiceId)
          .where('print_id', 'in', [...remove])
          .execute();
      if (added.length > 0) await trx.insertInto('voice_prints').values(added).execute();
      const name = change.name ?? row.name;
      await trx.updateTable('voices').set({ name, updated_at: now }).where('voice_id', '=', voiceId).execute();
      return toVoice({ ...row, name, updated_at: now });
    });
  }

  async count(teamId: string) {
    return countVoices(this.db, teamId);
  }

  async delete(teamId: string, voiceId: string) {
    // Its prints go with it through ON DELETE CASCADE.
    const result = await this.db
      .deleteFrom('voices')
      .where('team_id', '=', teamId)
      .where('voice_id', '=', voiceId)
      .executeTakeFirst();
    if (result.numDeletedRows > 0n) await truncateWalAfterDelete(this.db);
    return result.numDeletedRows > 0n;
  }

  async samples(voiceIds: string[]) {
    if (voiceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('voice_prints')
      .select(SAMPLE_COLUMNS)
      .where('voice_id', 'in', voiceIds)
      .orderBy('rowid')
      .execute();
    return rows.map(toSample);
  }

  async enrolled(teamId: string) {
    const rows = await this.db
      .selectFrom('voices')
      .innerJoin('voice_prints', 'voice_prints.voice_id', 'voices.voice_id')
      .select(['voices.voice_id', 'voices.name', 'voice_prints.kind', 'voice_prints.print'])
      .where('voices.team_id', '=', teamId)
      .orderBy('voices.rowid')
      .execute();
    const voices = new Map<string, { speakerId: string; name: string; prints: VoicePrint[] }>();
    for (const r of rows) {
      const voice = voices.get(r.voice_id) ?? { speakerId: r.voice_id, name: r.name, prints: [] };
      voice.prints.push({ kind: r.kind, values: JSON.parse(r.print) as number[] });
      voices.set(r.voice_id, voice);
    }
    return [...voices.values()];
  }
}

async function countVoices(db: Pick<Kdb, 'selectFrom'>, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('voices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
