// Payload checks at the IPC boundary: the renderer is untrusted, so every handler validates what it
// is given and answers IpcFailure({code: 'validation', field, message}) naming the culprit.
import { IpcFailure } from './handler-registry.js';

export type Json = Record<string, unknown>;

export function invalid(field: string, message: string): never {
  throw new IpcFailure({ code: 'validation', field, message });
}

/** An object payload with only the given keys. */
export function payload(value: unknown, allowed: readonly string[], field = 'request'): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) invalid(field, `Expected an object for ${field}.`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) invalid(field === 'request' ? key : `${field}.${key}`, `Unknown field "${key}".`);
  }
  return value as Json;
}

/** For channels without a request: nothing, or an empty object. */
export function noPayload(value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return;
  invalid('request', 'This operation takes no request.');
}

interface StringRule {
  min?: number;
  max?: number;
  pattern?: RegExp;
  patternHint?: string;
}

export function str(value: unknown, field: string, rule: StringRule = {}): string {
  const { min = 1, max = 10_000 } = rule;
  if (typeof value !== 'string') invalid(field, `${label(field)} must be text.`);
  if (value.trim().length < min) invalid(field, min === 1 ? `${label(field)} must not be empty.` : `${label(field)} must have at least ${min} characters.`);
  if (value.length > max) invalid(field, `${label(field)} must have at most ${max} characters.`);
  if (rule.pattern && !rule.pattern.test(value)) invalid(field, `${label(field)} ${rule.patternHint ?? 'is not valid'}.`);
  return value;
}

export function optionalStr(value: unknown, field: string, rule: StringRule = {}): string | undefined {
  return value === undefined ? undefined : str(value, field, rule);
}

export function nullableStr(value: unknown, field: string, rule: StringRule = {}): string | null {
  return value === null ? null : str(value, field, rule);
}

export function int(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) invalid(field, `${label(field)} must be a whole number.`);
  if (value < min || value > max) invalid(field, `${label(field)} must be between ${min} and ${max}.`);
  return value;
}

export function nullableInt(value: unknown, field: string, min: number, max: number): number | null {
  return value === null ? null : int(value, field, min, max);
}

export function num(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) invalid(field, `${label(field)} must be a number.`);
  if (value < min || value > max) invalid(field, `${label(field)} must be between ${min} and ${max}.`);
  return value;
}

export function bool(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') invalid(field, `${label(field)} must be true or false.`);
  return value;
}

export function oneOf<T extends string>(value: unknown, field: string, values: readonly T[]): T {
  if (typeof value !== 'string' || !values.includes(value as T)) invalid(field, `${label(field)} must be one of ${values.join(', ')}.`);
  return value as T;
}

export function array<T>(value: unknown, field: string, item: (v: unknown, field: string) => T, min = 0, max = 10_000): T[] {
  if (!Array.isArray(value)) invalid(field, `${label(field)} must be a list.`);
  if (value.length < min) invalid(field, min === 1 ? `${label(field)} must not be empty.` : `${label(field)} needs at least ${min} items.`);
  if (value.length > max) invalid(field, `${label(field)} can hold at most ${max} items.`);
  return value.map((v, i) => item(v, `${field}.${i}`));
}

export const ISO_639_1 = /^[a-z]{2}$/;

export function languageCode(value: unknown, field: string): string {
  return str(typeof value === 'string' ? value.toLowerCase() : value, field, { max: 2, pattern: ISO_639_1, patternHint: 'must be a two-letter ISO 639-1 code such as "en" or "ja"' });
}

/** An id the renderer got from us: short, printable. */
export function id(value: unknown, field = 'id'): string {
  return str(value, field, { max: 200, pattern: /^[^\s/\\]+$/, patternHint: 'is not a valid id' });
}

export function wordEntry(value: unknown, field: string): { word: string; reading?: string } {
  const o = payload(value, ['word', 'reading'], field);
  const word = str(o.word, `${field}.word`, { max: 200 }).trim();
  const reading = optionalStr(o.reading, `${field}.reading`, { min: 0, max: 400 })?.trim();
  return reading ? { word, reading } : { word };
}

function label(field: string): string {
  const last = field.split('.').at(-1)!;
  return /^\d+$/.test(last) ? field : last;
}
