// Resolves the caller from X-API-KEY or "Authorization: Bearer" (the same keys).
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Caller } from '../domain/records.js';
import type { ChangeWatch } from '../db/change-watch.js';
import { hashKey, type KeyRepository } from '../db/key-repository.js';
import type { ApiKeyRole } from '../../src-shared/api/vocabulary.js';
import { errors } from '../application/errors.js';
import { VersionedCache } from './versioned-cache.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    /** The change generation read when the caller was resolved (db/change-watch.ts); null: none. */
    changeGeneration: number | null;
  }
}

export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header.trim();
  const authorization = request.headers.authorization;
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/**
 * The hook that resolves the caller. Callers are kept by the hash of their key while the change watch's
 * generation holds (decision 0039): a revoked key, a renamed user or any other change moves it, so a
 * cached caller is never older than the last change this process could see. Unknown keys are never kept.
 */
export function authenticateWith(keys: KeyRepository, changes: ChangeWatch | null) {
  const callers = new VersionedCache<Caller>(10_000);
  // A kept-alive client sends the same key on every request: its hash is kept with the connection, which
  // holds the key (in its requests' headers) for as long anyway.
  const lastKeys = new WeakMap<Socket, { key: string; hash: string }>();
  const hashOf = (request: FastifyRequest, key: string) => {
    const socket = request.raw.socket;
    const last = lastKeys.get(socket);
    if (last?.key === key) return last.hash;
    const hash = hashKey(key);
    lastKeys.set(socket, { key, hash });
    return hash;
  };
  const accept = (request: FastifyRequest, caller: Caller, generation: number | null) => {
    request.caller = caller;
    request.changeGeneration = generation;
  };
  // A callback hook: a cached caller is accepted without a promise (this runs on every API request).
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const key = presentedKey(request);
    if (!key) return done(errors.missingApiKey());
    const generation = changes?.generation() ?? null;
    const hash = generation === null ? '' : hashOf(request, key);
    const cached = generation === null ? null : callers.get(hash, generation);
    if (cached) {
      accept(request, cached, generation);
      return done();
    }
    keys.authenticate(key).then((caller) => {
      if (!caller) return done(errors.invalidApiKey());
      // Stored under the generation read before the query: a change meanwhile leaves the entry stale at once.
      if (generation !== null) callers.set(hash, generation, caller);
      accept(request, caller, generation);
      done();
    }, done);
  };
}

/** The authenticated caller; routes under /api/v1 always have one. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw errors.missingApiKey();
  return request.caller;
}

export function hasRole(caller: Caller, role: ApiKeyRole): boolean {
  return caller.roles.includes(role);
}

/** The caller, when its key has `role`; otherwise 403 ROLE_REQUIRED naming `action` ("Downloading a speech model"). */
export function requireRole(request: FastifyRequest, role: ApiKeyRole, action: string): Caller {
  const caller = callerOf(request);
  if (!hasRole(caller, role)) throw errors.roleRequired(role, action);
  return caller;
}
