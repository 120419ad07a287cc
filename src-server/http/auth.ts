// Resolves the caller from X-API-KEY or "Authorization: Bearer" (the same keys).
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../domain/records.js';
import type { KeyRepository } from '../db/key-repository.js';
import type { ApiKeyRole } from '../../src-shared/api/vocabulary.js';
import { errors } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header.trim();
  const authorization = request.headers.authorization;
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

export function authenticateWith(keys: KeyRepository) {
  return async (request: FastifyRequest) => {
    const key = presentedKey(request);
    if (!key) throw errors.missingApiKey();
    const caller = await keys.authenticate(key);
    if (!caller) throw errors.invalidApiKey();
    request.caller = caller;
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
