// Teams, users and API keys. Keys are random 256-bit secrets; only their SHA-256 is stored,
// which is enough for high-entropy secrets (no dictionary attack applies) and keeps lookups O(1).
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './database.js';
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
  create(input: { teamId: string; userId: string; userName?: string; roles: string[] }): Promise<{ key: string; info: ApiKeyInfo }>;
  authenticate(key: string): Promise<Caller | null>;
  list(teamId?: string): Promise<ApiKeyInfo[]>;
  revoke(keyIdOrPrefix: string): Promise<ApiKeyInfo | null>;
  /** Adds roles to an active key; null when no single active key matches. */
  grant(keyIdOrPrefix: string, roles: string[]): Promise<ApiKeyInfo | null>;
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

interface KeyRow {
  key_id: string;
  team_id: string;
  user_id: string;
  user_name: string;
  key_prefix: string;
  roles: string;
  created_at: string;
  revoked_at: string | null;
}

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

const SELECT = `SELECT k.*, u.name AS user_name FROM api_keys k JOIN users u ON u.team_id = k.team_id AND u.user_id = k.user_id`;

export class SqliteKeyRepository implements KeyRepository {
  private readonly authStatement;

  constructor(private readonly db: Db) {
    // The team's list_version rides along: the transcription list, the hottest route, needs it next.
    this.authStatement = db.prepare(
      `SELECT k.key_id, k.team_id, k.user_id, k.roles, u.name AS user_name, t.list_version FROM api_keys k
       JOIN users u ON u.team_id = k.team_id AND u.user_id = k.user_id
       JOIN teams t ON t.team_id = k.team_id
       WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    );
  }

  async create(input: { teamId: string; userId: string; userName?: string; roles: string[] }) {
    const key = `kk_${randomBytes(32).toString('base64url')}`;
    const now = nowIso();
    const keyId = newId();
    const roles = normalizeRoles(input.roles);
    this.db.transaction(() => {
      this.db.prepare('INSERT OR IGNORE INTO teams (team_id, created_at) VALUES (?, ?)').run(input.teamId, now);
      this.db
        .prepare('INSERT OR IGNORE INTO users (team_id, user_id, name, created_at) VALUES (?, ?, ?, ?)')
        .run(input.teamId, input.userId, input.userName ?? input.userId, now);
      if (input.userName !== undefined) {
        this.db.prepare('UPDATE users SET name = ? WHERE team_id = ? AND user_id = ?').run(input.userName, input.teamId, input.userId);
      }
      this.db
        .prepare('INSERT INTO api_keys (key_id, team_id, user_id, key_hash, key_prefix, roles, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(keyId, input.teamId, input.userId, hashKey(key), key.slice(0, 10), JSON.stringify(roles), now);
    })();
    const info = toInfo(this.db.prepare(`${SELECT} WHERE k.key_id = ?`).get(keyId) as KeyRow);
    return { key, info };
  }

  async authenticate(key: string): Promise<Caller | null> {
    const row = this.authStatement.get(hashKey(key)) as
      | Pick<KeyRow, 'key_id' | 'team_id' | 'user_id' | 'roles' | 'user_name'> & { list_version: number }
      | undefined;
    if (!row) return null;
    return {
      teamId: row.team_id,
      userId: row.user_id,
      userName: row.user_name,
      roles: JSON.parse(row.roles) as string[],
      keyId: row.key_id,
      teamListVersion: row.list_version,
    };
  }

  async list(teamId?: string) {
    const rows = (
      teamId === undefined
        ? this.db.prepare(`${SELECT} ORDER BY k.created_at`).all()
        : this.db.prepare(`${SELECT} WHERE k.team_id = ? ORDER BY k.created_at`).all(teamId)
    ) as KeyRow[];
    return rows.map(toInfo);
  }

  async revoke(keyIdOrPrefix: string) {
    const row = this.db.prepare(`${SELECT} WHERE k.key_id = ? OR k.key_prefix = ?`).all(keyIdOrPrefix, keyIdOrPrefix) as KeyRow[];
    if (row.length !== 1) return null;
    const target = row[0]!;
    this.db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ?').run(nowIso(), target.key_id);
    return toInfo(this.db.prepare(`${SELECT} WHERE k.key_id = ?`).get(target.key_id) as KeyRow);
  }

  async grant(keyIdOrPrefix: string, roles: string[]) {
    const added = normalizeRoles(roles);
    const rows = this.db.prepare(`${SELECT} WHERE (k.key_id = ? OR k.key_prefix = ?) AND k.revoked_at IS NULL`).all(keyIdOrPrefix, keyIdOrPrefix) as KeyRow[];
    if (rows.length !== 1) return null;
    const target = toInfo(rows[0]!);
    const merged = normalizeRoles([...target.roles, ...added]);
    this.db.prepare('UPDATE api_keys SET roles = ? WHERE key_id = ?').run(JSON.stringify(merged), target.keyId);
    return toInfo(this.db.prepare(`${SELECT} WHERE k.key_id = ?`).get(target.keyId) as KeyRow);
  }
}
