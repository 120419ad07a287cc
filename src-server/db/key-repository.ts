// Teams, users and API keys. Keys are random 256-bit secrets; only their SHA-256 is stored,
// which is enough for high-entropy secrets (no dictionary attack applies) and keeps lookups O(1).
import { hash, randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ApiKeyTable, Kdb } from './schema.js';
import { newId, nowIso, type Caller } from '../domain/records.js';
import { API_KEY_ROLES, type ApiKeyRole } from '../../src-shared/api/vocabulary.js';

/** A role that is not one of API_KEY_ROLES. */
export class UnknownRoleError extends Error {
  override readonly name = 'UnknownRoleError';
  constructor(readonly role: string) {
    super(`Unknown role "${role}". Roles: ${API_KEY_ROLES.join(', ')}.`);
  }
}

/** Upper-cased, de-duplicated, sorted; throws UnknownRoleError for anything not in API_KEY_ROLES. */
export function normalizeRoles(roles: readonly string[]): ApiKeyRole[] {
  const out = new Set<ApiKeyRole>();
  for (const raw of roles) {
    const role = raw.trim().toUpperCase();
    if (!(API_KEY_ROLES as readonly string[]).includes(role)) throw new UnknownRoleError(raw);
    out.add(role as ApiKeyRole);
  }
  return [...out].sort();
}

export interface ApiKeyInfo {
  keyId: string;
  teamId: string;
  userId: string;
  userName: string;
  keyPrefix: string;
  roles: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface KeyRepository {
  /** Creates the team and user when new; returns the key in clear, the only time it exists. */
  create(input: {
    teamId: string;
    userId: string;
    userName?: string;
    roles: string[];
  }): Promise<{ key: string; info: ApiKeyInfo }>;
  authenticate(key: string): Promise<Caller | null>;
  list(teamId?: string): Promise<ApiKeyInfo[]>;
  revoke(keyIdOrPrefix: string): Promise<ApiKeyInfo | null>;
  /** Adds roles to an active key; null when no single active key matches. */
  grant(keyIdOrPrefix: string, roles: string[]): Promise<ApiKeyInfo | null>;
}

export const hashKey = (key: string): string => hash('sha256', key, 'hex');

type KeyRow = Omit<Selectable<ApiKeyTable>, 'key_hash'> & { user_name: string };

const toInfo = (r: KeyRow): ApiKeyInfo => ({
  keyId: r.key_id,
  teamId: r.team_id,
  userId: r.user_id,
  userName: r.user_name,
  keyPrefix: r.key_prefix,
  roles: JSON.parse(r.roles) as string[],
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export class KyselyKeyRepository implements KeyRepository {
  constructor(private readonly db: Kdb) {}

  /** Keys with their user's name. */
  private select() {
    return this.db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', (join) => join.onRef('u.team_id', '=', 'k.team_id').onRef('u.user_id', '=', 'k.user_id'))
      .select([
        'k.key_id',
        'k.team_id',
        'k.user_id',
        'k.key_prefix',
        'k.roles',
        'k.created_at',
        'k.revoked_at',
        'u.name as user_name',
      ]);
  }

  private async byId(keyId: string): Promise<ApiKeyInfo> {
    return toInfo(await this.select().where('k.key_id', '=', keyId).executeTakeFirstOrThrow());
  }

  async create(input: { teamId: string; userId: string; userName?: string; roles: string[] }) {
    const key = `kk_${randomBytes(32).toString('base64url')}`;
    const now = nowIso();
    const keyId = newId();
    const roles = normalizeRoles(input.roles);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('teams')
        .values({ team_id: input.teamId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await trx
        .insertInto('users')
        .values({ team_id: input.teamId, user_id: input.userId, name: input.userName ?? input.userId, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .execute();
      if (input.userName !== undefined) {
        await trx
          .updateTable('users')
          .set({ name: input.userName })
          .where('team_id', '=', input.teamId)
          .where('user_id', '=', input.userId)
          .execute();
      }
      await trx
        .insertInto('api_keys')
        .values({
          key_id: keyId,
          team_id: input.teamId,
          user_id: input.userId,
          key_hash: hashKey(key),
          key_prefix: key.slice(0, 10),
          roles: JSON.stringify(roles),
          created_at: now,
        })
        .execute();
    });
    return { key, info: await this.byId(keyId) };
  }

  async authenticate(key: string): Promise<Caller | null> {
    const row = await this.db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', (join) => join.onRef('u.team_id', '=', 'k.team_id').onRef('u.user_id', '=', 'k.user_id'))
      .select(['k.key_id', 'k.team_id', 'k.user_id', 'k.roles', 'u.name as user_name'])
      .where('k.key_hash', '=', hashKey(key))
      .where('k.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    return {
      teamId: row.team_id,
      userId: row.user_id,
      userName: row.user_name,
      roles: JSON.parse(row.roles) as string[],
      keyId: row.key_id,
    };
  }

  async list(teamId?: string) {
    const rows = await this.select()
      .$if(teamId !== undefined, (q) => q.where('k.team_id', '=', teamId!))
      .orderBy('k.created_at')
      .execute();
    return rows.map(toInfo);
  }

  async revoke(keyIdOrPrefix: string) {
    const rows = await this.select()
      .where((eb) => eb.or([eb('k.key_id', '=', keyIdOrPrefix), eb('k.key_prefix', '=', keyIdOrPrefix)]))
      .execute();
    if (rows.length !== 1) return null;
    const target = rows[0]!;
    await this.db
      .updateTable('api_keys')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(nowIso())) }))
      .where('key_id', '=', target.key_id)
      .execute();
    return this.byId(target.key_id);
  }

  async grant(keyIdOrPrefix: string, roles: string[]) {
    const added = normalizeRoles(roles);
    const rows = await this.select()
      .where((eb) => eb.or([eb('k.key_id', '=', keyIdOrPrefix), eb('k.key_prefix', '=', keyIdOrPrefix)]))
      .where('k.revoked_at', 'is', null)
      .execute();
    if (rows.length !== 1) return null;
    const target = toInfo(rows[0]!);
    const merged = normalizeRoles([...target.roles, ...added]);
    await this.db
      .updateTable('api_keys')
      .set({ roles: JSON.stringify(merged) })
      .where('key_id', '=', target.keyId)
      .execute();
    return this.byId(target.keyId);
  }
}
